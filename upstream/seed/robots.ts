import { sql } from "kysely";
import { FlowState } from "#contracts/flow-versions";
import type { FlowNode } from "#contracts/robot";
import type { Trx } from "#upstream/db";
import { SEED_FLOW_IDS } from "./call-records";

const end = (key: string, type: "transfer" | "hangup", name: string, prompt: string): FlowNode => ({
  key,
  type,
  name,
  prompt,
  next: "",
  intents: [],
  branches: [],
  otherNext: "",
});

/** The demo's designed flow: a satisfaction call that thanks, asks, and ends or hands over. */
const SURVEY: FlowNode[] = [
  {
    key: "start",
    type: "speak",
    name: "开场白",
    prompt: "{customerName}您好，这里是客户服务中心回访专线。",
    next: "ask",
    intents: [],
    branches: [],
    otherNext: "",
  },
  {
    key: "ask",
    type: "listen",
    name: "满意度询问",
    prompt: "请问您对上次的服务满意吗？",
    next: "",
    intents: [
      { intent: "CONFIRM", keywords: ["满意", "挺好", "好的"], next: "thanks" },
      { intent: "NO_INTENTION", keywords: ["不满意", "不好"], next: "agent" },
    ],
    branches: [],
    otherNext: "thanks",
  },
  end("thanks", "hangup", "致谢挂机", "感谢您的支持，祝您生活愉快，再见。"),
  end("agent", "transfer", "转人工", "非常抱歉，马上为您转接专员处理。"),
];

/**
 * The demo's robot flows (decision 019): the two the seeded robots run, from before the designer
 * (published, no nodes: their calls play the recordings), and one designed flow with a draft
 * that changes a prompt (the review's diff shows it).
 */
export async function seedRobotFlows(trx: Trx, demoId: number): Promise<void> {
  const at = new Date(Date.now() - 30 * 24 * 3600_000);
  await trx
    .insertInto("robot_flows")
    .values([
      {
        id: SEED_FLOW_IDS.instalment,
        tenant_id: demoId,
        name: "信用卡分期",
        description: "信用卡账单分期营销（录音话术）",
        service_script: "[]",
      },
      { id: SEED_FLOW_IDS.reminder, tenant_id: demoId, name: "账单提醒", description: "到期账单提醒（录音话术）", service_script: "[]" },
    ])
    .execute();
  await sql`SELECT setval(pg_get_serial_sequence('robot_flows', 'id'), (SELECT max(id) FROM robot_flows))`.execute(trx);
  const survey = await trx
    .insertInto("robot_flows")
    .values({ tenant_id: demoId, name: "满意度回访", description: "服务后的满意度回访", service_script: "[]" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rows = await trx
    .insertInto("robot_flow_versions")
    .values([
      { tenant_id: demoId, flow_id: SEED_FLOW_IDS.instalment, no: 1, state: FlowState.published, published_at: at, created_by: "系统" },
      { tenant_id: demoId, flow_id: SEED_FLOW_IDS.reminder, no: 1, state: FlowState.published, published_at: at, created_by: "系统" },
      { tenant_id: demoId, flow_id: SEED_FLOW_IDS.reminder, no: 2, state: FlowState.published, published_at: at, created_by: "系统" },
      {
        tenant_id: demoId,
        flow_id: survey.id,
        no: 1,
        state: FlowState.market,
        nodes: JSON.stringify(SURVEY),
        published_at: at,
        created_by: "演示管理员",
      },
      {
        tenant_id: demoId,
        flow_id: survey.id,
        no: 2,
        state: FlowState.draft,
        based_on_no: 1,
        nodes: JSON.stringify(SURVEY.map((n) => (n.key === "ask" ? { ...n, prompt: "请问您对我们上次的服务是否满意？" } : n))),
        created_by: "演示管理员",
      },
    ])
    .returning(["id", "flow_id", "no"])
    .execute();
  const inService = (flowId: number, no: number) => rows.find((r) => r.flow_id === flowId && r.no === no)!.id;
  for (const [flowId, no] of [
    [SEED_FLOW_IDS.instalment, 1],
    [SEED_FLOW_IDS.reminder, 2],
    [survey.id, 1],
  ] as const) {
    await trx
      .updateTable("robot_flows")
      .set({ service_version_id: inService(flowId, no) })
      .where("id", "=", flowId)
      .execute();
  }
}

/** A flow made elsewhere in the seed (the workbench's) gets its recorded v1.0 in service, as migration 130 gives existing flows. */
export async function publishRecordedFlow(trx: Trx, tenantId: number, flowId: number): Promise<void> {
  const version = await trx
    .insertInto("robot_flow_versions")
    .values({ tenant_id: tenantId, flow_id: flowId, no: 1, state: FlowState.published, published_at: new Date(), created_by: "系统" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx.updateTable("robot_flows").set({ service_version_id: version.id }).where("id", "=", flowId).execute();
}
