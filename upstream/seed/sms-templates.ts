import type { Db } from "#upstream/db";

/**
 * The demo tenant's SMS templates (the demo had none): two approved, ready to send from
 * the workbench and the contacts screen, and one waiting for review. They use only the built-in
 * variables (姓名, 手机号), which every tenant has.
 */
const DEMO_TEMPLATES = [
  {
    name: "通话回访",
    signature: "云客服",
    content: "${姓名}您好，感谢您今天的来电。如还有疑问，请回复本短信或拨打客服热线。",
    state: "approved",
  },
  {
    name: "还款提醒",
    signature: "云客服",
    content: "${姓名}您好，您本期账单即将到期，请及时还款，如已还款请忽略本短信。",
    state: "approved",
  },
  { name: "活动通知", signature: "云客服", content: "${姓名}您好，本月老客户专享分期手续费优惠，详询客服。退订回T", state: "pending" },
] as const;

export async function seedSmsTemplates(db: Db): Promise<void> {
  const demo = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirst();
  if (!demo) return;
  await db
    .insertInto("sms_templates")
    .values(DEMO_TEMPLATES.map((template) => ({ ...template, tenant_id: demo.id })))
    .execute();
}
