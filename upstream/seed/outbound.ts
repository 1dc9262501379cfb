import type { Transaction } from "kysely";
import type { Database } from "#upstream/db/schema";
import { BatchStatus, CallStatus, CampaignState } from "#upstream/domain/dialer-states";
import { RESULT_CODES, labelOf } from "#contracts/codes";
import { outcomeFor } from "#upstream/domain/outcomes";
import { RECORDINGS, isHandedToAgent, recordingDialogs, recordingFor } from "#upstream/domain/recordings";
import { insertCallRecord } from "#upstream/repositories/call-records";
import { insertRobotCallRecord, recordLostHandoff, takeHandoff, taskCallRecord } from "#upstream/repositories/dialing";
import { SEED_FLOW_IDS } from "./call-records";
import { seedRobotFlows } from "./robots";
import type { CallOutcome } from "#upstream/domain/outcomes";
import { simulateCall } from "#upstream/simulators/robot-conversation";

type Trx = Transaction<Database>;

/** Demo numbers on the blacklist; imports reject them and the dialer never calls them. */
export const DEMO_BLACKLIST = ["13800000000", "13900000001", "13700000002"];

const ALL_DAY = [{ start: "00:00", end: "24:00" }];
const OFFICE_HOURS = [
  { start: "09:00", end: "12:00" },
  { start: "13:30", end: "18:00" },
];
const SURNAMES = "王李张刘陈杨赵黄周吴徐孙马朱胡郭何高林罗";

type SeedCall = { status: number; agent?: number };
type SeedBatch = { name: string; status: number; calls: SeedCall[] };
type SeedCampaign = {
  name: string;
  type: number;
  state: number;
  cycle: number;
  windows: typeof ALL_DAY;
  instance?: string;
  queue?: string;
  batches: SeedBatch[];
};

const calls = (status: number, n: number, agent?: number): SeedCall[] => Array.from({ length: n }, () => ({ status, agent }));

/**
 * The demo's outbound data (design §6): campaigns of every type, batches in every batch status
 * and calls in every call status, a blacklist, transfer templates, hand-offs in every state.
 * Every seeded batch and call has its history, as if the dialer had moved it there.
 */
/** The demo tenant's robot instances (the seeded campaigns name them) and caller-id numbers. */
/** Each robot carries as many calls at once as a campaign's highest ratio starts (5 × 10 lines). */
const DEMO_ROBOTS = [
  { name: "营销推广机器人", flow_id: SEED_FLOW_IDS.instalment, flow_version_name: "v1.0", concurrency: 50 },
  { name: "催缴提醒机器人", flow_id: SEED_FLOW_IDS.reminder, flow_version_name: "v1.0", concurrency: 50 },
  { name: "满意度回访机器人", flow_id: SEED_FLOW_IDS.reminder, flow_version_name: "v1.1", concurrency: 50 },
];
const DEMO_CALLER_NUMBERS = ["02588886666", "02588887777"];

export async function seedOutbound(trx: Trx): Promise<void> {
  const now = new Date();
  const tenants = await trx.selectFrom("tenants").select(["id", "code"]).execute();
  const users = await trx.selectFrom("users").select(["id", "user_name", "tenant_id"]).execute();
  const demo = tenants.find((t) => t.code === "demo");
  const other = tenants.find((t) => t.code === "other");
  if (!demo || !other) return;
  const agentId = users.find((u) => u.user_name === "agent")?.id;
  const adminId = users.find((u) => u.user_name === "admin")?.id;

  await trx
    .insertInto("blacklist")
    .values(DEMO_BLACKLIST.map((phone) => ({ tenant_id: demo.id, phone, reason: "客户投诉" })))
    .execute();
  await trx
    .insertInto("trans_templates")
    .values([
      { tenant_id: demo.id, name: "转人工队列", type: 1, target: "demo-voice", agent_user_id: null },
      { tenant_id: demo.id, name: "转值班主管", type: 2, target: "1001", agent_user_id: null },
      { tenant_id: demo.id, name: "转客户经理外线", type: 3, target: "02588886666", agent_user_id: agentId ?? null },
      { tenant_id: other.id, name: "转人工队列", type: 1, target: "other-voice", agent_user_id: null },
    ])
    .execute();

  await seedRobotFlows(trx, demo.id);
  // What the campaign form offers each tenant (the other tenant's are its own, for isolation tests).
  const robotRows = await trx
    .insertInto("robot_instances")
    .values([
      ...DEMO_ROBOTS.map((r) => ({ tenant_id: demo.id, ...r })),
      { tenant_id: other.id, name: "营销推广机器人", flow_id: SEED_FLOW_IDS.instalment, flow_version_name: "v1.0", concurrency: 50 },
      { tenant_id: other.id, name: "其他租户回访机器人", flow_id: null, flow_version_name: null, concurrency: 50 },
    ])
    .returning(["id", "tenant_id", "name", "flow_id", "flow_version_name"])
    .execute();
  await trx
    .insertInto("caller_id_numbers")
    .values([...DEMO_CALLER_NUMBERS.map((number) => ({ tenant_id: demo.id, number })), { tenant_id: other.id, number: "01066668888" }])
    .execute();
  const robotNamed = (tenantId: number, name: string | undefined) => robotRows.find((r) => r.tenant_id === tenantId && r.name === name);

  const S = BatchStatus;
  const C = CallStatus;
  const demoCampaigns: SeedCampaign[] = [
    {
      name: "信用卡分期推广",
      type: 1,
      state: CampaignState.running,
      cycle: 3,
      windows: OFFICE_HOURS,
      instance: "营销推广机器人",
      batches: [
        {
          name: "十一月第一批",
          status: S.complete,
          calls: [...calls(C.complete, 6), ...calls(C.notConnected, 2), ...calls(C.blacklisted, 1)],
        },
        {
          name: "十一月第二批",
          status: S.scheduling,
          calls: [
            ...calls(C.waiting, 4),
            ...calls(C.dialling, 2),
            ...calls(C.complete, 3),
            ...calls(C.notConnected, 1),
            ...calls(C.abnormal, 1),
          ],
        },
        { name: "十一月第三批", status: S.restingWindow, calls: [...calls(C.waiting, 5), ...calls(C.complete, 2)] },
        { name: "十一月第四批", status: S.preparing, calls: calls(C.waiting, 6) },
        { name: "空名单批次", status: S.prepareFailed, calls: [] },
        { name: "暂停批次", status: S.paused, calls: [...calls(C.waiting, 3), ...calls(C.complete, 1)] },
      ],
    },
    {
      name: "话费催缴提醒",
      type: 1,
      state: CampaignState.running,
      cycle: 2,
      windows: OFFICE_HOURS,
      instance: "催缴提醒机器人",
      batches: [{ name: "每日催缴", status: S.restingCycle, calls: [...calls(C.waiting, 4), ...calls(C.complete, 4)] }],
    },
    {
      name: "宽带续约人机协同",
      type: 2,
      state: CampaignState.running,
      cycle: 3,
      windows: OFFICE_HOURS,
      instance: "营销推广机器人",
      queue: "demo-voice",
      batches: [{ name: "续约客户名单", status: S.scheduling, calls: [...calls(C.complete, 6), ...calls(C.waiting, 4)] }],
    },
    {
      name: "贵宾客户预览外呼",
      type: 3,
      state: CampaignState.running,
      cycle: 3,
      windows: ALL_DAY,
      queue: "demo-voice",
      batches: [
        {
          name: "贵宾名单",
          status: S.scheduling,
          calls: [...calls(C.waiting, 3, agentId), ...calls(C.waiting, 9), ...calls(C.complete, 2, agentId)],
        },
      ],
    },
    {
      name: "投诉回访直拨",
      type: 4,
      state: CampaignState.notStarted,
      cycle: 1,
      windows: OFFICE_HOURS,
      queue: "demo-voice",
      batches: [{ name: "待回访客户", status: S.preparing, calls: calls(C.waiting, 5) }],
    },
    {
      name: "未接来电回拨",
      type: 5,
      state: CampaignState.complete,
      cycle: 1,
      windows: OFFICE_HOURS,
      queue: "demo-voice",
      batches: [{ name: "昨日未接", status: S.complete, calls: calls(C.complete, 4, agentId) }],
    },
    {
      name: "满意度回访（已取消）",
      type: 1,
      state: CampaignState.cancelled,
      cycle: 1,
      windows: OFFICE_HOURS,
      instance: "满意度回访机器人",
      batches: [{ name: "十月回访", status: S.cancelled, calls: [...calls(C.complete, 2), ...calls(C.cancelledBatch, 4)] }],
    },
    {
      name: "逾期提醒（已超时）",
      type: 1,
      state: CampaignState.complete,
      cycle: 1,
      windows: OFFICE_HOURS,
      instance: "催缴提醒机器人",
      batches: [{ name: "逾期客户", status: S.timedOut, calls: [...calls(C.complete, 3), ...calls(C.cancelledSchedule, 3)] }],
    },
    {
      name: "热线呼入",
      type: 20,
      state: CampaignState.running,
      cycle: 3,
      windows: ALL_DAY,
      queue: "demo-voice",
      batches: [{ name: "呼入任务", status: S.scheduling, calls: calls(C.complete, 3) }],
    },
  ];

  let phoneSeq = 0;
  const seed = async (tenantId: number, campaign: SeedCampaign, createdBy: number | undefined) => {
    const row = await trx
      .insertInto("campaigns")
      .values({
        tenant_id: tenantId,
        name: campaign.name,
        type: campaign.type,
        cycle: campaign.cycle,
        state: campaign.state,
        ratio: 1,
        calling_list_name: `${campaign.name}名单`,
        robot_instance_id: robotNamed(tenantId, campaign.instance)?.id ?? null,
        instance_name: robotNamed(tenantId, campaign.instance)?.name ?? null,
        flow_id: robotNamed(tenantId, campaign.instance)?.flow_id ?? null,
        flow_version_name: robotNamed(tenantId, campaign.instance)?.flow_version_name ?? null,
        queue_name: campaign.queue ?? null,
        caller_number: tenantId === demo.id ? DEMO_CALLER_NUMBERS[0] : "01066668888",
        windows: JSON.stringify(campaign.windows),
        max_attempts: 2,
        created_by: createdBy ?? null,
      })
      .returning(["id", "instance_name", "flow_id", "flow_version_name", "queue_name"])
      .executeTakeFirstOrThrow();
    for (const batch of campaign.batches) {
      const at = new Date(now.getTime() - 3600_000);
      const b = await trx
        .insertInto("task_batches")
        .values({
          tenant_id: tenantId,
          campaign_id: row.id,
          name: batch.name,
          status: batch.status,
          total: batch.calls.length,
          created_at: at,
          started_at: batch.status === S.preparing || batch.status === S.prepareFailed ? null : at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("task_transitions")
        .values({ tenant_id: tenantId, batch_id: b.id, from_status: null, to_status: S.preparing, reason: "批次创建", at })
        .execute();
      // A legal path to the seeded status: preparing, then scheduling, then where it rests.
      const path =
        batch.status === S.preparing
          ? []
          : batch.status === S.prepareFailed || batch.status === S.scheduling
            ? [batch.status]
            : [S.scheduling, batch.status];
      let from: number = S.preparing;
      for (const to of path) {
        await trx
          .insertInto("task_transitions")
          .values({ tenant_id: tenantId, batch_id: b.id, from_status: from, to_status: to, reason: "演示数据", at: now })
          .execute();
        from = to;
      }
      for (const [i, seedCall] of batch.calls.entries()) {
        phoneSeq++;
        const phone = `13${String(500000000 + phoneSeq * 7919).slice(0, 9)}`;
        const finished =
          seedCall.status !== C.waiting &&
          seedCall.status !== C.blacklisted &&
          seedCall.status !== C.cancelledBatch &&
          seedCall.status !== C.cancelledSchedule;
        const call = await trx
          .insertInto("task_calls")
          .values({
            tenant_id: tenantId,
            campaign_id: row.id,
            batch_id: b.id,
            phone: seedCall.status === C.blacklisted ? DEMO_BLACKLIST[0] : phone,
            customer_name: `${SURNAMES[(phoneSeq + i) % SURNAMES.length]}先生`,
            status: seedCall.status,
            attempts: finished ? 1 : 0,
            hangup_party:
              seedCall.status === C.complete
                ? 1 + (phoneSeq % 2)
                : seedCall.status === C.notConnected
                  ? 5
                  : seedCall.status === C.abnormal
                    ? 4
                    : null,
            agent_user_id: seedCall.agent ?? null,
            user_data: JSON.stringify({ 账单金额: `${100 + (phoneSeq % 50) * 10}元` }),
          })
          .returning(["id", "tenant_id", "campaign_id", "batch_id", "phone", "attempts", "user_data", "customer_name"])
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("task_transitions")
          .values({
            tenant_id: tenantId,
            batch_id: b.id,
            task_call_id: call.id,
            from_status: null,
            to_status: seedCall.status,
            reason: "演示数据",
            at: now,
          })
          .execute();
        if (campaign.type === 20) {
          // An inbound campaign's tasks are customers' calls to the hotline, which an agent answered.
          if (seedCall.status === C.complete)
            await insertHotlineCall(
              trx,
              { ...row, ...call, campaign_type: campaign.type },
              agentId ?? null,
              new Date(now.getTime() - (i + 1) * 600_000),
            );
        } else if (seedCall.status === C.complete || seedCall.status === C.notConnected || seedCall.status === C.abnormal) {
          // The first three complete calls of a collaborative campaign were handed to an agent.
          // One waits for an agent, one an agent took, one was lost: as the dialer leaves them.
          const handedOff = campaign.type === 2 && seedCall.status === C.complete && i < 3;
          const outcome = seededOutcome(seedCall.status, call.id, campaign.type, handedOff);
          const recordId = await insertRobotCallRecord(
            trx,
            { ...row, ...call, campaign_type: campaign.type },
            outcome,
            handedOff,
            new Date(now.getTime() - (i + 1) * 600_000),
          );
          if (seedCall.agent)
            await trx.updateTable("call_records").set({ agent_user_id: seedCall.agent }).where("id", "=", recordId).execute();
          if (handedOff) {
            const handoff = await trx
              .insertInto("handoffs")
              .values({
                tenant_id: tenantId,
                campaign_id: row.id,
                batch_id: b.id,
                task_call_id: call.id,
                call_record_id: recordId,
                phone: call.phone,
                intent: outcome.intent,
                state: i === 2 ? "lost" : "waiting",
                created_at: now,
                updated_at: now,
              })
              .returning(["id", "tenant_id", "call_record_id", "intent"])
              .executeTakeFirstOrThrow();
            if (i === 1 && agentId !== undefined) await takeHandoff(trx, tenantId, handoff.id, agentId, now);
            if (i === 2) await recordLostHandoff(trx, handoff);
          }
        }
      }
    }
  };
  for (const campaign of demoCampaigns) await seed(demo.id, campaign, adminId);
  await seed(
    other.id,
    {
      name: "其他租户推广",
      type: 1,
      state: CampaignState.notStarted,
      cycle: 1,
      windows: OFFICE_HOURS,
      instance: "营销推广机器人",
      batches: [{ name: "其他租户名单", status: S.preparing, calls: calls(C.waiting, 3) }],
    },
    undefined,
  );
}

/** An answered call to the hotline, recorded as the inbound call it was (the recording is the agent's and the customer's). */
async function insertHotlineCall(
  trx: Trx,
  call: Parameters<typeof taskCallRecord>[0],
  agentUserId: number | null,
  endedAt: Date,
): Promise<void> {
  const recording = recordingFor(20, null);
  const { durationMs } = RECORDINGS[recording];
  await insertCallRecord(
    trx,
    {
      ...taskCallRecord(call, `seed-hotline-${call.id}`),
      direction: "inbound",
      agent_user_id: agentUserId,
      is_answer: 1,
      outbound_result: outcomeFor({ campaignType: 20, callResult: 200, intent: null, agentTookHandOff: false }),
      call_result: 200,
      call_result_name: labelOf(RESULT_CODES, 200),
      hangup_party: 2,
      call_time: new Date(endedAt.getTime() - durationMs),
      call_duration_ms: durationMs,
      attach_data: JSON.stringify({}),
      recording,
    },
    recordingDialogs(recording),
  );
}

/**
 * A simulated call that agrees with the seeded status (complete calls talk, the others do not) and,
 * for a hand-off, whose customer was interested.
 */
function seededOutcome(status: number, taskCallId: number, campaignType: number, handedOff: boolean): CallOutcome {
  for (let attempt = 1; attempt < 200; attempt++) {
    const outcome = simulateCall(taskCallId, attempt, campaignType);
    if (outcome.status === status && handedOff === isHandedToAgent(campaignType, outcome.intent)) return outcome;
  }
  throw new Error(`no simulated call ends in status ${status}`);
}
