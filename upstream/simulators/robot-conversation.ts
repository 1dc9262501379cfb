/**
 * What a simulated robot call turns out to be: deterministic from the call's id and attempt, so
 * tests and demos are repeatable. Codes come from contracts/codes.ts.
 */
import { CallStatus } from "./dialer-states";

export type ConversationLine = { role: 1 | 3; content: string; nlu: string | null; startMs: number; endMs: number };
export type CallOutcome = {
  status: number; // CallStatus.notConnected | complete | abnormal
  hangupParty: number; // HANGUP_PARTIES
  callResult: number; // RESULT_CODES
  isAnswer: 0 | 1;
  outcome: string; // OUTCOME_CODES
  intent: string | null; // INTENT_LABELS
  durationMs: number;
  gender: number;
  lines: ConversationLine[];
};

/** Intents that make a collaborative campaign hand the customer to an agent. */
export const INTERESTED_INTENTS = new Set(["CONFIRM", "HAS_INTENTION", "ASK_HOW", "ASK_FEE"]);

const RESULT_NAMES: Record<number, string> = { 200: "已接通", 408: "无人接听", 486: "用户忙", 480: "暂时无法接通", 502: "线路异常" };
export const resultName = (code: number) => RESULT_NAMES[code] ?? "未知";

const CUSTOMER_REPLIES: Record<string, string> = {
  CONFIRM: "可以，我确认办理。",
  NO_INTENTION: "不需要，谢谢。",
  HAS_INTENTION: "听起来不错，我有兴趣。",
  ASK_HOW: "那我要怎么办理呢？",
  ASK_FEE: "办理需要多少费用？",
  CHANGE_INSTALMENTS: "我想改一下分期期数。",
  AGREED_NO_KEY: "好的好的。",
  HUNG_UP_SECOND_CONFIRM: "嗯……算了吧。",
};
const INTENTS = Object.keys(CUSTOMER_REPLIES);

/** A small integer hash (FNV-1a) so outcomes spread evenly but repeat exactly. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function simulateCall(taskCallId: number, attempt: number, customerName: string | null): CallOutcome {
  const roll = hash(`${taskCallId}:${attempt}`);
  const bucket = roll % 100;
  const gender = roll % 3 === 2 ? -1 : roll % 2;
  if (bucket < 15) {
    const callResult = [408, 486, 480][roll % 3];
    return { status: CallStatus.notConnected, hangupParty: 5, callResult, isAnswer: 0, outcome: "NoAnswer", intent: null, durationMs: 0, gender, lines: [] };
  }
  if (bucket < 20) {
    return { status: CallStatus.abnormal, hangupParty: 4, callResult: 502, isAnswer: 0, outcome: "RobotNoAnswer", intent: null, durationMs: 3_000, gender, lines: [] };
  }
  const intent = INTENTS[roll % INTENTS.length];
  const greeting = `您好${customerName ? `，${customerName}` : ""}，这里是客户服务中心，近期有一项优惠业务想向您介绍。`;
  const lines: ConversationLine[] = [
    { role: 1, content: greeting, nlu: null, startMs: 0, endMs: 6_000 },
    { role: 3, content: "你说。", nlu: null, startMs: 6_500, endMs: 7_500 },
    { role: 1, content: "办理后每月可享受话费减免，请问您是否愿意办理？", nlu: null, startMs: 8_000, endMs: 13_000 },
    { role: 3, content: CUSTOMER_REPLIES[intent], nlu: intent, startMs: 13_500, endMs: 16_000 },
    { role: 1, content: "好的，感谢您的接听，再见。", nlu: null, startMs: 16_500, endMs: 19_000 },
  ];
  return {
    status: CallStatus.complete,
    hangupParty: roll % 4 === 0 ? 2 : 1,
    callResult: 200,
    isAnswer: 1,
    outcome: intent === "NO_INTENTION" ? "NoIntention" : "EndOfTheCall",
    intent,
    durationMs: 19_000 + (roll % 20) * 1_000,
    gender,
    lines,
  };
}
