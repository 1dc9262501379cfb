import { sql } from "kysely";
import { QC_FORM_STATES, labelOf } from "#contracts/codes";
import {
  QC_FORM_EDITABLE,
  QC_FORM_REFUSALS,
  qcFormMove,
  type Evaluation,
  type QcFormAction,
  type ScoreForm,
  type ScoreFormInput,
} from "#contracts/inspection";
import { evaluate, type ScoreAnswer, type ScoredItem, type ScoreFormItem } from "#contracts/inspection-scoring";
import { writeAudit, type Actor } from "./audit-log";
import type { Trx } from "#upstream/db";
import { InspectionRefused } from "./inspection";

/**
 * Scoring forms (decision 028): a tenant's forms, their lifecycle (QC_FORM_TRANSITIONS: drafts
 * are edited and deleted, one form is active, retired forms stay as they were) and each call's
 * evaluation. Every change writes its audit row here, in the caller's transaction.
 */

const FORM_NOT_FOUND = "评分表不存在";
const DUPLICATE_NAME = "已有同名的评分表";
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

function columns(db: Trx) {
  return db.selectFrom("inspection_forms as f").select([
    "f.id",
    "f.name",
    "f.description",
    "f.state",
    "f.items",
    "f.updated_at",
    "f.activated_at",
    (eb) =>
      eb
        .selectFrom("inspection_evaluations as e")
        .select(sql<string>`count(DISTINCT e.call_record_id)`.as("n"))
        .whereRef("e.form_id", "=", "f.id")
        .as("used_count"),
  ]);
}
type FormRow = Awaited<ReturnType<ReturnType<typeof columns>["execute"]>>[number];
const toForm = (row: FormRow): ScoreForm => ({
  id: row.id,
  name: row.name,
  description: row.description,
  state: row.state,
  items: row.items,
  totalWeight: row.items.reduce((sum, item) => sum + item.weight, 0),
  usedCount: Number(row.used_count ?? 0),
  updatedAt: row.updated_at.getTime(),
  activatedAt: row.activated_at?.getTime() ?? null,
});

/** The tenant's forms: the active one first, then drafts and retired ones, newest first. */
export async function listForms(db: Trx, tenantId: number): Promise<ScoreForm[]> {
  const rows = await columns(db)
    .where("f.tenant_id", "=", tenantId)
    .orderBy(sql`case f.state when 'active' then 0 when 'draft' then 1 else 2 end`)
    .orderBy("f.id", "desc")
    .execute();
  return rows.map(toForm);
}

export async function findForm(db: Trx, tenantId: number, id: number): Promise<ScoreForm | undefined> {
  const row = await columns(db).where("f.tenant_id", "=", tenantId).where("f.id", "=", id).executeTakeFirst();
  return row ? toForm(row) : undefined;
}

export async function activeForm(db: Trx, tenantId: number): Promise<ScoreForm | undefined> {
  const row = await columns(db).where("f.tenant_id", "=", tenantId).where("f.state", "=", "active").executeTakeFirst();
  return row ? toForm(row) : undefined;
}

/** Items keep their key across edits (i1, i2, …); a new item takes the next free one. */
function keyItems(input: ScoreFormInput["items"], before: readonly ScoreFormItem[]): ScoreFormItem[] {
  const known = new Set(before.map((item) => item.key));
  let next = Math.max(0, ...[...known].map((key) => Number(key.slice(1)) || 0)) + 1;
  const used = new Set<string>();
  return input.map((item) => {
    let key = item.key && known.has(item.key) && !used.has(item.key) ? item.key : `i${next++}`;
    while (used.has(key)) key = `i${next++}`;
    used.add(key);
    return { key, title: item.title, weight: item.weight, allowNa: item.allowNa, veto: item.veto };
  });
}

const describe = (items: readonly ScoreFormItem[]) =>
  `${items.length} 个评分项，共 ${items.reduce((s, i) => s + i.weight, 0)} 分${items.some((i) => i.veto) ? "，含一票否决项" : ""}`;

/** Creates a draft (id null) or replaces a draft's name, description and items. */
export async function saveForm(trx: Trx, tenantId: number, actor: Actor, id: number | null, input: ScoreFormInput): Promise<ScoreForm> {
  const before = id === null ? undefined : await findForm(trx, tenantId, id);
  if (id !== null && !before) throw new InspectionRefused(404, FORM_NOT_FOUND);
  if (before && !QC_FORM_EDITABLE.includes(before.state)) throw new InspectionRefused(400, QC_FORM_REFUSALS.edit);
  let taken = trx.selectFrom("inspection_forms").select("id").where("tenant_id", "=", tenantId).where("name", "=", input.name);
  if (id !== null) taken = taken.where("id", "<>", id);
  if (await taken.executeTakeFirst()) throw new InspectionRefused(400, DUPLICATE_NAME);
  const items = keyItems(input.items, before?.items ?? []);
  const values = { name: input.name, description: input.description, items: JSON.stringify(items), updated_at: new Date() };
  // The check above answers at once; the unique index (migration 350) holds against a save racing this one.
  const saved = await (
    id === null
      ? trx
          .insertInto("inspection_forms")
          .values({ tenant_id: tenantId, created_by: actor.id, ...values })
          .returning("id")
          .executeTakeFirstOrThrow()
      : trx
          .updateTable("inspection_forms")
          .set(values)
          .where("tenant_id", "=", tenantId)
          .where("id", "=", id)
          .returning("id")
          .executeTakeFirstOrThrow()
  ).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new InspectionRefused(400, DUPLICATE_NAME);
    throw error;
  });
  await writeAudit(trx, actor, {
    action: id === null ? "inspection.form.create" : "inspection.form.update",
    target: { type: "inspectionForm", id: saved.id },
    summary: `${id === null ? "新建" : "编辑"}质检评分表「${input.name}」（${describe(items)}）`,
    detail: before ? { before: { name: before.name, items: before.items }, after: { name: input.name, items } } : { items },
  });
  return (await findForm(trx, tenantId, saved.id))!;
}

/** Activates a form (retiring the active one) or retires it; both audited with the reason. */
export async function changeFormState(
  trx: Trx,
  tenantId: number,
  actor: Actor,
  id: number,
  action: QcFormAction,
  reason: string,
): Promise<ScoreForm> {
  // Serialises activations of one tenant: the partial unique index would refuse the second anyway.
  await trx.selectFrom("inspection_forms").select("id").where("tenant_id", "=", tenantId).forUpdate().execute();
  const form = await findForm(trx, tenantId, id);
  if (!form) throw new InspectionRefused(404, FORM_NOT_FOUND);
  const move = qcFormMove(action, form.state);
  if (!move) throw new InspectionRefused(400, QC_FORM_REFUSALS[action]);
  if (action === "activate") {
    const current = await activeForm(trx, tenantId);
    if (current) {
      await trx
        .updateTable("inspection_forms")
        .set({ state: "retired", updated_at: new Date() })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", current.id)
        .execute();
      await writeAudit(trx, actor, {
        action: "inspection.form.state",
        target: { type: "inspectionForm", id: current.id },
        summary: `停用质检评分表「${current.name}」（启用「${form.name}」替换）`,
        reason,
        detail: { from: "active", to: "retired" },
      });
    }
  }
  await trx
    .updateTable("inspection_forms")
    .set({ state: move.to, updated_at: new Date(), ...(move.to === "active" ? { activated_at: new Date() } : {}) })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .execute();
  await writeAudit(trx, actor, {
    action: "inspection.form.state",
    target: { type: "inspectionForm", id },
    summary: `${move.label}质检评分表「${form.name}」：${labelOf(QC_FORM_STATES, form.state)} → ${labelOf(QC_FORM_STATES, move.to)}`,
    reason,
    detail: { from: form.state, to: move.to },
  });
  return (await findForm(trx, tenantId, id))!;
}

export async function deleteForm(trx: Trx, tenantId: number, actor: Actor, id: number): Promise<void> {
  const form = await findForm(trx, tenantId, id);
  if (!form) throw new InspectionRefused(404, FORM_NOT_FOUND);
  if (!QC_FORM_EDITABLE.includes(form.state)) throw new InspectionRefused(400, QC_FORM_REFUSALS.delete);
  await trx.deleteFrom("inspection_forms").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  await writeAudit(trx, actor, {
    action: "inspection.form.delete",
    target: { type: "inspectionForm", id },
    summary: `删除质检评分表「${form.name}」`,
    detail: { name: form.name, items: form.items },
  });
}

/**
 * The answers of a score against the tenant's active form: its evaluation, or a refusal in
 * Chinese. With an active form, a score must carry its answers; without one, it must carry none.
 */
export async function checkEvaluation(
  trx: Trx,
  tenantId: number,
  evaluation: { formId: number; answers: ScoreAnswer[] } | undefined,
): Promise<{ form: ScoreForm; score: number; vetoed: boolean; items: ScoredItem[] } | null> {
  const form = await activeForm(trx, tenantId);
  if (!form) {
    if (evaluation) throw new InspectionRefused(400, "评分表已停用，请刷新页面后重新评分");
    return null;
  }
  if (!evaluation) throw new InspectionRefused(400, `请按评分表「${form.name}」逐项评分`);
  if (evaluation.formId !== form.id) throw new InspectionRefused(400, `评分表已更换为「${form.name}」，请刷新页面后重新评分`);
  return { form, ...scoredOrRefused(form.items, evaluation.answers) };
}

/** The answers scored against the items, or every wrong one named in one Chinese refusal. */
function scoredOrRefused(items: readonly ScoreFormItem[], answers: ScoreAnswer[]) {
  const result = evaluate(items, answers);
  if (!result.ok) throw new InspectionRefused(400, result.errors.map((e) => e.message).join("；"));
  return { score: result.score, vetoed: result.vetoed, items: result.items };
}

/** Stores a call's evaluation: as scored (version 1), or an accepted appeal's re-scoring (the next version). */
export async function saveEvaluation(
  trx: Trx,
  tenantId: number,
  callId: number,
  inspectorId: number,
  evaluated: { form: Pick<ScoreForm, "id" | "name">; score: number; vetoed: boolean; items: ScoredItem[] },
  revising?: { version: number; reason: string; appealId: number },
): Promise<void> {
  await trx
    .insertInto("inspection_evaluations")
    .values({
      tenant_id: tenantId,
      call_record_id: callId,
      form_id: evaluated.form.id,
      form_name: evaluated.form.name,
      score: evaluated.score,
      vetoed: evaluated.vetoed,
      items: JSON.stringify(evaluated.items),
      inspector_id: inspectorId,
      ...(revising ? { version: revising.version, reason: revising.reason, appeal_id: revising.appealId } : {}),
    })
    .execute();
}

/** A call's evaluations, newest version first (`limit` 1: as it stands). */
export async function findEvaluations(db: Trx, tenantId: number, callId: number, limit = 20): Promise<Evaluation[]> {
  const rows = await db
    .selectFrom("inspection_evaluations as e")
    .leftJoin("users as u", "u.id", "e.inspector_id")
    .select(["e.form_id", "e.form_name", "e.score", "e.vetoed", "e.items", "e.created_at", "e.version", "e.reason", "u.real_name"])
    .where("e.tenant_id", "=", tenantId)
    .where("e.call_record_id", "=", callId)
    .orderBy("e.version", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    formId: row.form_id,
    formName: row.form_name,
    score: Number(row.score),
    vetoed: row.vetoed,
    items: row.items,
    inspectorName: row.real_name,
    createdAt: row.created_at.getTime(),
    version: row.version,
    reason: row.reason,
  }));
}

export type Revision = { current: Evaluation; score: number; vetoed: boolean; items: ScoredItem[] };

/**
 * An accepted appeal's re-scoring (decision 033): a call scored with a form is re-scored on the
 * same items as they were (whatever form is active now), every item answered; a call scored
 * without one takes none. Null when there is nothing to re-score.
 */
export async function checkRevision(
  trx: Trx,
  tenantId: number,
  callId: number,
  answers: ScoreAnswer[] | undefined,
): Promise<Revision | null> {
  const [current] = await findEvaluations(trx, tenantId, callId, 1);
  if (!current) {
    if (answers) throw new InspectionRefused(400, "该通话未按评分表评分，通过申诉时只需更正结果和影响");
    return null;
  }
  if (!answers) throw new InspectionRefused(400, `该通话按评分表「${current.formName}」评分，通过申诉时请逐项重新评分`);
  const items: ScoreFormItem[] = current.items.map(({ key, title, weight, allowNa, veto }) => ({ key, title, weight, allowNa, veto }));
  return { current, ...scoredOrRefused(items, answers) };
}
