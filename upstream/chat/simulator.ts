import type { ChatCustomer } from "#contracts/chat";
import type { Db } from "#upstream/db";
import { activeSessions, textAgents } from "#upstream/repositories/chat";
import type { ChatService } from "./service";

/** Customers of the demo: a name, a number and where they write from. */
const CUSTOMERS: ChatCustomer[] = [
  { name: "赵敏", phone: "13812345678", channel: "网页", region: "上海" },
  { name: "钱磊", phone: "13987654321", channel: "微信", region: "杭州" },
  { name: "孙丽", phone: "15011112222", channel: "App", region: "北京" },
  { name: "周强", phone: "18600001111", channel: "网页", region: "广州" },
  { name: "吴芳", phone: "13700002222", channel: "微信", region: "成都" },
];

/** What customers say, one line at a time. */
const LINES = [
  "你好，在吗？",
  "我想咨询一下账单的问题。",
  "上个月的费用好像多扣了一笔。",
  "可以帮我查一下吗？",
  "订单号是 20261121-0086。",
  "大概什么时候能处理好？",
  "好的，谢谢。",
  "还有一个问题，怎么修改绑定的手机号？",
];

export function simulatedCustomer(pick = Math.random): ChatCustomer {
  return CUSTOMERS[Math.floor(pick() * CUSTOMERS.length)];
}

/** Each customer waits 8 to 25 seconds between lines, as people do while typing and reading. */
const nextDelayMs = (pick: () => number) => 8_000 + Math.floor(pick() * 17_000);
/** A text agent gets a new customer now and then, up to this many at once. */
const MAX_ACTIVE_PER_AGENT = 3;
/**
 * A customer who has said everything leaves this long after their last line, so the agent gets
 * room for the next one and the demo keeps going for as long as it runs.
 */
export const LEAVE_AFTER_MS = 3 * 60_000;

/**
 * Customers who write at realistic intervals (demos; CHAT_SIMULATOR=0 turns it off, and tests
 * drive the customer side through the control routes instead). `step(now)` does what is due.
 */
export function createChatSimulator(db: Db, chat: ChatService, pick: () => number = Math.random) {
  const nextLineAt = new Map<string, number>();
  const linesSaid = new Map<string, number>();

  async function step(now = Date.now()): Promise<void> {
    const sessions = await activeSessions(db);
    // Sessions that ended (closed by the agent or left) are forgotten.
    const active = new Set(sessions.map((session) => session.session_key));
    for (const key of nextLineAt.keys()) {
      if (active.has(key)) continue;
      nextLineAt.delete(key);
      linesSaid.delete(key);
    }
    for (const session of sessions) {
      const key = session.session_key;
      const due = nextLineAt.get(key);
      if (due === undefined) nextLineAt.set(key, now + nextDelayMs(pick));
      if (due === undefined || due > now) continue;
      const said = linesSaid.get(key) ?? 1;
      if (said >= LINES.length) {
        await chat.customerLeaves(session.tenant_id, key);
        continue;
      }
      await chat.customerWrites(session.tenant_id, key, LINES[said]);
      linesSaid.set(key, said + 1);
      nextLineAt.set(key, now + (said + 1 < LINES.length ? nextDelayMs(pick) : LEAVE_AFTER_MS));
    }
    // Now and then a new customer arrives in a text queue whose agent has room.
    if (pick() > 0.15) return;
    const candidates = (await textAgents(db)).filter(
      (agent) => sessions.filter((s) => s.agent_user_id === agent.id).length < MAX_ACTIVE_PER_AGENT,
    );
    const agent = candidates[Math.floor(pick() * candidates.length)];
    if (agent)
      await chat.customerArrives(agent.tenant_id, {
        queueName: agent.default_queue_name,
        customer: simulatedCustomer(pick),
        content: LINES[0],
      });
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    step,
    start(everyMs = 3_000) {
      timer ??= setInterval(() => void step().catch((error) => console.error("chat simulator:", error)), everyMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
