import { RESULT_CODES, labelOf } from "#contracts/codes";
import type { Db } from "#upstream/db";
import { insertKnowledge } from "#upstream/repositories/knowledge";
import { publishRecordedFlow } from "./robots";
import { SALES_QUEUE } from "./sales-team";

/** Demo customer who calls in the e2e test and the demo: has a previous call, its record and a work order. */
export const DEMO_CALLER = { phone: "13800138000", name: "赵敏", prevCtiCallId: "cti-demo-prev-0001" };

/**
 * What the voice workbench's screen pop shows, for the demo tenants: contacts found by phone, a
 * flow with its service script, knowledge, and one customer's previous call with its business
 * record and work order. The `other` tenant gets its own rows (same phone) for isolation tests.
 */
export async function seedWorkbench(db: Db): Promise<void> {
  const tenants = await db.selectFrom("tenants").select(["id", "code"]).execute();
  for (const tenant of tenants) {
    const own = tenant.code === "demo";
    const agent = await db
      .selectFrom("users")
      .select("id")
      .where("tenant_id", "=", tenant.id)
      .where("agent_id", "is not", null)
      .where("work_type", "=", 1)
      .where("default_queue_name", "<>", SALES_QUEUE)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("crm_contacts")
      .values([
        {
          tenant_id: tenant.id,
          name: own ? DEMO_CALLER.name : "孙丽",
          phone: DEMO_CALLER.phone,
          gender: 1,
          company: own ? "华东贸易有限公司" : "其他公司",
          address: own ? "上海市浦东新区世纪大道100号" : null,
          remark: own ? "老客户，偏好下午联系" : null,
          tags: JSON.stringify(own ? ["VIP", "分期客户"] : []),
        },
        {
          tenant_id: tenant.id,
          name: own ? "钱进" : "周强",
          phone: "13912345678",
          gender: 0,
          company: null,
          address: null,
          remark: null,
          tags: "[]",
        },
      ])
      .execute();
    const flow = await db
      .insertInto("robot_flows")
      .values({
        tenant_id: tenant.id,
        name: own ? "信用卡分期回访" : "其他租户流程",
        service_script: JSON.stringify([
          { title: "开场", content: "您好，我是客服专员，接下来由我为您继续办理。" },
          { title: "核实身份", content: "请您提供身份证后四位，以便核实身份。" },
          { title: "办理说明", content: "分期可选 3、6、12 期，手续费按月收取，提前还款不退手续费。" },
          { title: "结束语", content: "感谢您的来电，祝您生活愉快！" },
        ]),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await publishRecordedFlow(db, tenant.id, flow.id);
    await insertKnowledge(db, tenant.id, "分期业务", [
      { title: "分期手续费标准", content: "3期费率0.8%/月，6期0.75%/月，12期0.7%/月。", labels: ["分期", "费率"] },
      { title: "提前还款规则", content: "提前还款需全额结清剩余本金，已收手续费不退。", labels: ["分期"] },
    ]);
    await insertKnowledge(db, tenant.id, "账户服务", [
      { title: "账单日修改", content: "每年可修改一次账单日，次月生效。", labels: ["账单"] },
    ]);
    const template = await db
      .insertInto("work_order_templates")
      .values({
        tenant_id: tenant.id,
        name: own ? "客户投诉" : "其他租户模板",
        sla_hours: 24,
        fields: JSON.stringify([
          { name: "f1", label: "投诉类型", type: "choice", required: true, options: ["费用争议", "服务态度", "业务办理"] },
          { name: "f2", label: "回电号码", type: "phone", required: false, options: [] },
          { name: "f3", label: "期望处理日期", type: "date", required: false, options: [] },
        ]),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const order = await db
      .insertInto("work_order_records")
      .values({
        tenant_id: tenant.id,
        template_id: template.id,
        values: JSON.stringify({ f1: "费用争议" }),
        owner_user_id: agent.id,
        due_at: new Date(Date.now() - 2 * 24 * 3600_000),
        number: own ? "GD202601150001" : "GD202601150099",
        title: own ? "分期手续费争议" : "其他租户工单",
        content: own ? "客户认为上月分期手续费多收，需核实账单后回电。" : "无",
        follow_state: 1,
        cti_call_id: DEMO_CALLER.prevCtiCallId + (own ? "" : "-other"),
        created_by: agent.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ctiCallId = DEMO_CALLER.prevCtiCallId + (own ? "" : "-other");
    const callTime = new Date(Date.now() - 3 * 24 * 3600_000);
    await db
      .insertInto("call_records")
      .values({
        tenant_id: tenant.id,
        cti_call_id: ctiCallId,
        direction: "inbound",
        campaign_type: 20,
        phone: DEMO_CALLER.phone,
        agent_user_id: agent.id,
        is_answer: 1,
        outbound_result: null, // an inbound call has no outbound outcome
        call_result: 200,
        call_result_name: labelOf(RESULT_CODES, 200),
        conclusion: 2,
        intent: "ASK_FEE",
        hangup_party: 2,
        call_time: callTime,
        call_duration_ms: 184_000,
        flow_id: flow.id,
        gender: 1,
      })
      .execute();
    await db
      .insertInto("business_records")
      .values({
        tenant_id: tenant.id,
        cti_call_id: ctiCallId,
        phone: DEMO_CALLER.phone,
        agent_user_id: agent.id,
        call_result: 2,
        intent: "ASK_FEE",
        remark: own ? "客户对手续费有疑问，已建工单跟进" : "其他租户的记录",
        fields: JSON.stringify({ businessType: "分期咨询" }),
        work_order_id: order.id,
        idempotency_key: `seed-${ctiCallId}`,
        created_at: callTime,
        updated_at: callTime,
      })
      .execute();
  }
}
