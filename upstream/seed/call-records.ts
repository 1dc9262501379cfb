import { CAMPAIGN_TYPES, INTENT_LABELS, RESULT_CODES, callKindOf, codesOf, labelOf } from "#contracts/codes";
import { SALES_QUEUE } from "./sales-team";
import type { Db } from "#upstream/db";
import type { NewCallDialog, NewCallRecord } from "#upstream/db/schema";
import { outcomeFor } from "#upstream/domain/outcomes";
import {
  RECORDINGS,
  conclusionFor,
  isHandedToAgent,
  recordingDialogs,
  recordingFor,
  robotAloneRecording,
  type RecordingName,
} from "#upstream/domain/recordings";

/**
 * Demo call records (design §6): four weeks of calls of every outcome, result code and campaign
 * type for tenant `demo` (many taken by the `agent` account, some inbound), a few for tenant
 * `other`, robot flows with input parameters and output states, and real recordings whose
 * transcript offsets match the audio. Deterministic, so tests can rely on the mix.
 */

const DAY_MS = 86_400_000;
export const DEMO_CALL_COUNT = 336;
export const SEED_FLOW_IDS = { instalment: 101, reminder: 102 } as const;

/** Campaigns of their own (names apart from the outbound work's), one per campaign type. */
const CAMPAIGNS = CAMPAIGN_TYPES.filter((t) => t.code !== -1).map((t) => ({ type: t.code, name: `历史通话·${t.label}` }));

const FLOW_PARAMS = [
  { flow_id: SEED_FLOW_IDS.instalment, kind: "input", name: "客户姓名", variable: "customerName" },
  { flow_id: SEED_FLOW_IDS.instalment, kind: "input", name: "卡号尾号", variable: "cardTail" },
  { flow_id: SEED_FLOW_IDS.instalment, kind: "input", name: "可分期金额", variable: "amount" },
  { flow_id: SEED_FLOW_IDS.instalment, kind: "state", name: "办理意向", variable: "intent" },
  { flow_id: SEED_FLOW_IDS.instalment, kind: "state", name: "分期期数", variable: "instalments" },
  { flow_id: SEED_FLOW_IDS.reminder, kind: "input", name: "客户姓名", variable: "customerName" },
  { flow_id: SEED_FLOW_IDS.reminder, kind: "input", name: "到期日", variable: "dueDate" },
  { flow_id: SEED_FLOW_IDS.reminder, kind: "state", name: "是否转人工", variable: "transferred" },
] as const;

/** A small deterministic generator (mulberry32): the same demo data on every machine. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Ids = { tenantId: number; agents: number[]; campaigns: Map<number, number> };
/** A call to write; `transcript` names the dialogue it had, whose audio may have been lost. */
type Planned = { record: NewCallRecord; transcript: RecordingName | null; positions: boolean };

/** The i-th demo call: codes cycle so that every outcome, result and campaign type appears. */
function plan(i: number, ids: Ids, now: number, rand: () => number, prefix: string): Planned {
  const types = [...ids.campaigns.keys()];
  const campaignType = types[i % types.length];
  const inbound = campaignType === 20;
  const results = codesOf(RESULT_CODES);
  // Half the calls of each campaign type connect; the rest take each failure code in turn.
  const callResult = (i + Math.floor(i / types.length)) % 2 === 0 ? 200 : results[1 + ((i >> 1) % (results.length - 1))];
  const answered = callResult === 200;
  const robot = campaignType === 1 || campaignType === 2;
  // A campaign type answers once every 2 × types calls, so its connected calls walk every intent
  // in turn; offset by one so that the robot campaign's newest connected call with audio (i = 12;
  // i = 0 lost it) is the long confirming dialogue that the end-to-end tests play and seek in.
  const intent = answered
    ? INTENT_LABELS[(Math.floor(i / (2 * types.length)) + INTENT_LABELS.length - 1) % INTENT_LABELS.length].code
    : null;
  // Successive connected (or failed) calls of a campaign type take the outcome codes that fit
  // them in turn.
  const variant = Math.floor(i / (2 * types.length));
  // Every third interested customer of a collaborative campaign found no agent free and stayed
  // with the robot: a 转人工 loss, whose recording is the robot's part alone.
  const handOff = isHandedToAgent(campaignType, intent);
  const agentTook = handOff && variant % 3 !== 2;
  // Collaborative customers who stay with the robot are no agent's call.
  const withAgent = campaignType !== 1 && (campaignType !== 2 || agentTook);
  const transcript =
    answered || callResult === 502 ? (handOff && !agentTook ? robotAloneRecording(intent) : recordingFor(campaignType, intent)) : null;
  // Every seventh connected call lost its audio: the dialog shows '暂无录音可下载' and '暂不支持'.
  const lostAudio = transcript !== null && i % 7 === 0;
  // The newest calls are minutes apart (today's list is never empty), older ones hours apart.
  const age = i < 12 ? i * 4 * 60_000 : 50 * 60_000 + (i - 12) * ((27 * DAY_MS) / DEMO_CALL_COUNT) + rand() * 3_600_000;
  const duration = transcript ? RECORDINGS[transcript].durationMs : answered ? 20_000 + Math.floor(rand() * 200_000) : 0;
  const phoneDigits = `1${3 + (i % 7)}${String(10_000_000 + Math.floor(rand() * 89_999_999)).padStart(9, "0")}`.slice(0, 11);
  return {
    transcript,
    positions: !lostAudio,
    record: {
      tenant_id: ids.tenantId,
      cti_call_id: `${prefix}-${String(i).padStart(6, "0")}`,
      prev_cti_call_id: agentTook ? `${prefix}-robot-${i}` : null,
      direction: inbound ? "inbound" : "outbound",
      campaign_id: ids.campaigns.get(campaignType) ?? null,
      campaign_type: campaignType,
      call_kind: callKindOf(campaignType),
      phone: i % 9 === 0 ? `+86${phoneDigits}` : phoneDigits,
      agent_user_id: withAgent ? ids.agents[i % ids.agents.length] : null,
      queue_name: withAgent ? "demo-voice" : null,
      is_answer: answered ? 1 : 0,
      outbound_result: outcomeFor({ campaignType, callResult, intent, agentTookHandOff: agentTook }, variant),
      call_result: callResult,
      call_result_name: labelOf(RESULT_CODES, callResult),
      intent,
      // Two in five calls wait for inspection; the others were inspected (with an influence).
      qc_status: [-1, 0, 1, -1, 3][i % 5],
      qc_influence: i % 5 === 0 || i % 5 === 3 ? null : [0, 1, -1][i % 3],
      qc_checked_at: i % 5 === 0 || i % 5 === 3 ? null : new Date(Math.floor(now - age) + 3_600_000),
      conclusion: answered ? i % 3 : null,
      hangup_party: answered ? 1 + (i % 4) : 5,
      call_time: new Date(Math.floor(now - age)),
      call_duration_ms: duration,
      instance_name: robot ? (campaignType === 1 ? "信用卡分期机器人" : "账单提醒机器人") : null,
      flow_id: robot ? (campaignType === 1 ? SEED_FLOW_IDS.instalment : SEED_FLOW_IDS.reminder) : null,
      flow_version_name: robot ? `v1.${i % 4}` : null,
      gender: [0, 1, -1][i % 3],
      attach_data: JSON.stringify({ conclusion: conclusionFor(intent) }),
      user_data: JSON.stringify({ data: JSON.stringify({ customerName: "张先生", cardTail: "1234", amount: 12000 + i }) }),
      group_dn: robot ? "grp-robot-01" : null,
      dn: robot ? `80${String(i % 100).padStart(2, "0")}` : null,
      recording: lostAudio ? null : transcript,
    },
  };
}

function dialogsFor(planned: Planned, tenantId: number, callRecordId: number): NewCallDialog[] {
  if (!planned.transcript) return [];
  return recordingDialogs(planned.transcript, planned.positions).map((line, seq) => ({
    ...line,
    tenant_id: tenantId,
    call_record_id: callRecordId,
    seq,
  }));
}

/** The tenant's voice agents in the order calls take them: the voice agent takes most, so its own history is full. */
async function voiceAgents(db: Db, tenantId: number): Promise<number[]> {
  const users = await db
    .selectFrom("users")
    .select(["id", "user_name"])
    .where("tenant_id", "=", tenantId)
    .where("work_type", "=", 1)
    .where("default_queue_name", "<>", SALES_QUEUE)
    .orderBy("id")
    .execute();
  const agentFirst = users.sort((a, b) => Number(b.user_name === "agent") - Number(a.user_name === "agent")).map((u) => u.id);
  return [agentFirst[0], ...agentFirst];
}

/**
 * The demo's calls, one of each of its DEMO_CALL_COUNT plans, on a seeded tenant's own history
 * campaigns and voice agents: what the record generator repeats, so that every generated record
 * agrees with itself (result, intent, outcome, who took it) as a demo call does.
 */
export async function demoCallPattern(db: Db, tenantId: number): Promise<NewCallRecord[]> {
  const rows = await db.selectFrom("campaigns").select(["id", "type", "name"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
  const campaigns = new Map(
    CAMPAIGNS.flatMap((c) =>
      rows
        .filter((r) => r.name === c.name)
        .slice(0, 1)
        .map((r) => [c.type, r.id] as const),
    ),
  );
  if (campaigns.size !== CAMPAIGNS.length) throw new Error("the tenant has not been seeded with the demo's call history");
  const ids = { tenantId, agents: await voiceAgents(db, tenantId), campaigns };
  return Array.from({ length: DEMO_CALL_COUNT }, (_, i) => plan(i, ids, 0, () => 0.5, "pattern").record);
}

async function seedTenant(db: Db, tenantCode: string, count: number, seed: number, now: number): Promise<void> {
  const tenant = await db.selectFrom("tenants").select("id").where("code", "=", tenantCode).executeTakeFirstOrThrow();
  const agents = await voiceAgents(db, tenant.id);
  const campaigns = new Map<number, number>();
  const rows = await db
    .insertInto("campaigns")
    .values(CAMPAIGNS.map((c) => ({ tenant_id: tenant.id, name: c.name, type: c.type, state: 3 })))
    .returning(["id", "type"])
    .execute();
  for (const row of rows) campaigns.set(row.type, row.id);
  await db
    .insertInto("flow_params")
    .values(FLOW_PARAMS.map((p, seq) => ({ ...p, seq, tenant_id: tenant.id })))
    .execute();

  const rand = random(seed);
  const planned = Array.from({ length: count }, (_, i) =>
    plan(i, { tenantId: tenant.id, agents, campaigns }, now, rand, `seed-${tenantCode}`),
  );
  const inserted = await db
    .insertInto("call_records")
    .values(planned.map((p) => p.record))
    .returning("id")
    .execute();
  const dialogs = planned.flatMap((p, i) => dialogsFor(p, tenant.id, inserted[i].id));
  for (let i = 0; i < dialogs.length; i += 1_000)
    await db
      .insertInto("call_dialogs")
      .values(dialogs.slice(i, i + 1_000))
      .execute();
}

/** Called once from the demo seed, inside its transaction. */
export async function seedCallRecords(db: Db, now = Date.now()): Promise<void> {
  await seedTenant(db, "demo", DEMO_CALL_COUNT, 20261122, now);
  await seedTenant(db, "other", 14, 7, now);
}
