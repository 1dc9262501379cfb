import { BUILT_IN_COLUMNS, smsCount, templateVariables, type SmsTemplate, type SmsTemplateInput } from "#contracts/customers";
import { SMS_TEMPLATE_STATES, SMS_TEMPLATE_TRANSITIONS, labelOf } from "#contracts/codes";
import type { Db, Trx } from "#upstream/db";
import { CustomerRefused, listProperties } from "./customers";

/** SMS templates of a tenant (decision 020): written with `${变量}`, reviewed, then sent. */

type State = SmsTemplate["state"];
type Row = { id: number; name: string; signature: string; content: string; state: string; reason: string | null; updated_at: Date };
const columns = ["id", "name", "signature", "content", "state", "reason", "updated_at"] as const;

const toTemplate = (r: Row): SmsTemplate => ({
  id: r.id,
  name: r.name,
  signature: r.signature,
  content: r.content,
  state: r.state as State,
  reason: r.reason,
  variables: templateVariables(r.content),
  ...smsCount(r.content, r.signature),
  updatedAt: r.updated_at.toISOString(),
});

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

/** The variables a template may use: 姓名, 手机号 and the tenant's valid properties. */
export async function knownVariables(db: Trx, tenantId: number): Promise<string[]> {
  return [BUILT_IN_COLUMNS.name, BUILT_IN_COLUMNS.phone, ...(await listProperties(db, tenantId, true)).map((p) => p.name)];
}

async function checkVariables(db: Trx, tenantId: number, content: string) {
  const known = await knownVariables(db, tenantId);
  const unknown = templateVariables(content).filter((v) => !known.includes(v));
  if (unknown.length > 0)
    throw new CustomerRefused(400, `变量 ${unknown.map((v) => `\${${v}}`).join("、")} 不是客户属性；可用变量：${known.join("、")}`);
}

/** Refuses a transition the table does not have, in Chinese. */
export function assertTransition(from: State, to: State, by: "review" | "edit") {
  if (!SMS_TEMPLATE_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by))
    throw new CustomerRefused(
      400,
      by === "review"
        ? `模板已是「${labelOf(SMS_TEMPLATE_STATES, from)}」，不能再审核`
        : `不能从「${labelOf(SMS_TEMPLATE_STATES, from)}」改为「${labelOf(SMS_TEMPLATE_STATES, to)}」`,
    );
}

export async function listTemplates(db: Db, tenantId: number, query: { state?: State; pageNo: number; pageSize: number }) {
  let base = db.selectFrom("sms_templates").where("tenant_id", "=", tenantId);
  if (query.state) base = base.where("state", "=", query.state);
  const [rows, count] = await Promise.all([
    base
      .select(columns)
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toTemplate), total: Number(count.n) };
}

export async function findTemplate(db: Trx, tenantId: number, id: number): Promise<SmsTemplate | undefined> {
  const row = await db
    .selectFrom("sms_templates")
    .select(columns)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toTemplate(row);
}

export async function requireTemplate(db: Trx, tenantId: number, id: number) {
  const template = await findTemplate(db, tenantId, id);
  if (!template) throw new CustomerRefused(404, "短信模板不存在");
  return template;
}

export async function createTemplate(trx: Trx, tenantId: number, input: SmsTemplateInput) {
  await checkVariables(trx, tenantId, input.content);
  try {
    const row = await trx
      .insertInto("sms_templates")
      .values({ tenant_id: tenantId, ...input, reason: null })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toTemplate(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new CustomerRefused(400, "模板名称已存在");
    throw error;
  }
}

/** An edit sends the template back to review (待审核). */
export async function updateTemplate(trx: Trx, tenantId: number, id: number, input: SmsTemplateInput) {
  const before = await requireTemplate(trx, tenantId, id);
  assertTransition(before.state, "pending", "edit");
  await checkVariables(trx, tenantId, input.content);
  try {
    const row = await trx
      .updateTable("sms_templates")
      .set({ ...input, state: "pending", reason: null, updated_at: new Date() })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .returning(columns)
      .executeTakeFirstOrThrow();
    return { before, after: toTemplate(row) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new CustomerRefused(400, "模板名称已存在");
    throw error;
  }
}

export async function reviewTemplate(trx: Trx, tenantId: number, id: number, to: "approved" | "rejected", reason: string) {
  const before = await requireTemplate(trx, tenantId, id);
  assertTransition(before.state, to, "review");
  const row = await trx
    .updateTable("sms_templates")
    .set({ state: to, reason: to === "rejected" ? reason : null, updated_at: new Date() })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .where("state", "=", before.state)
    .returning(columns)
    .executeTakeFirst();
  if (!row) throw new CustomerRefused(400, "模板状态已变化，请刷新后重试");
  return { before, after: toTemplate(row) };
}

export async function deleteTemplate(trx: Trx, tenantId: number, id: number) {
  const template = await requireTemplate(trx, tenantId, id);
  await trx.deleteFrom("sms_templates").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return template;
}
