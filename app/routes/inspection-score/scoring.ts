import { QC_CHECKING, QC_RESULTS, QC_UNCHECKED, codesOf } from "#contracts/codes";
import type { Evaluation } from "#contracts/inspection";
import { answerOf, evaluate, NOT_APPLICABLE, type ScoreAnswer, type ScoreFormItem } from "#contracts/inspection-scoring";

/**
 * The scoring view's arithmetic and rules, free of React and zod (the page hydrates, decision
 * 054): what each viewer may do with a call, the answers a form's fields give, and what each form
 * starts from — the loader's data, or what a refused post held.
 */

/** The inspection list, where the scoring view goes back to. */
export const LIST = "/inspectionSuccess";

/** What the inspector has chosen so far; items: points typed or a veto item's answer, by item key; na: the N/A boxes. */
export type Draft = { checkResult: string; influence: string; remark: string; items: Record<string, string>; na: Record<string, boolean> };
/** A refused post (a `rejectForm` reply): what it held as the form's fields, item.<key> nested. */
export type Refused = { initialValue?: Record<string, unknown> | null } | undefined;

/** The results an inspector gives (and an agent may appeal), in the order of their keys 1, 2, 3. */
const RESULTS = codesOf(QC_RESULTS);

/**
 * What a viewer may do with a call: score it (only the inspector holding its lock), appeal its
 * result (the agent, once, when it has one), decide a pending appeal (an inspector); otherwise
 * why there is no score form (another inspector holds it, or nobody has taken it yet).
 */
export function editableBy(
  viewer: { id: number; role: string },
  row: { qcStatus: number; inspectorId: number | null },
  appeal: { state: string } | null,
) {
  const agent = viewer.role === "agent";
  const score = row.qcStatus === QC_CHECKING && row.inspectorId === viewer.id;
  return {
    score,
    heldByOther: !score && row.qcStatus === QC_CHECKING,
    unchecked: row.qcStatus === QC_UNCHECKED,
    appeal: agent && !appeal && RESULTS.includes(row.qcStatus),
    decide: !agent && appeal?.state === "pending",
  };
}

/** The answers a draft gives, as the platform takes them (items not answered yet left out). */
export function draftAnswers(form: { items: readonly ScoreFormItem[] }, draft: Pick<Draft, "items" | "na">): ScoreAnswer[] {
  const answers: ScoreAnswer[] = [];
  for (const item of form.items) {
    const value = !item.veto && draft.na[item.key] ? NOT_APPLICABLE : answerOf(draft.items[item.key]);
    if (value !== undefined) answers.push({ key: item.key, value });
  }
  return answers;
}

/**
 * The answers posted as item.<key> and na.<key> (the score form's, and an accepted appeal's
 * re-scoring), checked against the items: every one answered as its kind allows, or the Chinese
 * errors in one message.
 */
export function postedAnswers(
  items: readonly ScoreFormItem[],
  input: { item?: Record<string, string | undefined>; na?: Record<string, string | undefined> },
): { ok: true; answers: ScoreAnswer[] } | { ok: false; message: string } {
  const answers = draftAnswers({ items }, { items: texts(input.item), na: boxes(input.na) });
  const checked = evaluate(items, answers);
  return checked.ok ? { ok: true, answers } : { ok: false, message: checked.errors.map((e) => e.message).join("；") };
}

/** The draft a form's data gives (what was clicked and typed before the page hydrated). */
export function draftOf(data: FormData): Draft {
  const draft: Draft = { checkResult: "", influence: "0", remark: "", items: {}, na: {} };
  for (const [name, value] of data) {
    if (typeof value !== "string") continue;
    if (name === "checkResult" || name === "influence" || name === "remark") draft[name] = value;
    else if (name.startsWith("item.") && value !== "") draft.items[name.slice("item.".length)] = value;
    else if (name.startsWith("na.")) draft.na[name.slice("na.".length)] = true;
  }
  return draft;
}

/** The same choices (blank items and unticked boxes are no choice). */
export function sameDraft(a: Draft, b: Draft): boolean {
  const answered = (d: Draft) =>
    JSON.stringify([
      d.checkResult,
      d.influence,
      d.remark,
      Object.entries(d.items)
        .filter(([, value]) => value !== "")
        .sort(),
      Object.keys(d.na)
        .filter((key) => d.na[key])
        .sort(),
    ]);
  return answered(a) === answered(b);
}

/** The score form's start: what a refused post held, else nothing chosen and no influence (0). */
export function typedDraft(refused: Refused): Draft {
  const typed = refused?.initialValue;
  const text = (name: string, fallback: string) => (typed?.[name] ? String(typed[name]) : fallback);
  return {
    checkResult: text("checkResult", ""),
    influence: text("influence", "0"),
    remark: text("remark", ""),
    items: texts(typed?.item),
    na: boxes(typed?.na),
  };
}

/**
 * The decision form's start: what a refused post held; else rejecting, with the call's result and
 * influence as they are and, to re-score a call scored with a form, its original answers (an
 * ordinary item's 不适用 is its box, a veto item's one of its radios).
 */
export function decisionStart(current: { qcStatus: number; influence: number | null }, evaluation: Evaluation | null, refused: Refused) {
  const typed = refused?.initialValue;
  const text = (name: string, fallback: string) => typedText(refused, name, fallback);
  const items = evaluation?.items ?? [];
  const notApplicable = (item: (typeof items)[number]) => !item.veto && item.value === NOT_APPLICABLE;
  return {
    decision: text("decision", "rejected"),
    checkResult: text("checkResult", String(current.qcStatus)),
    influence: text("influence", String(current.influence ?? 0)),
    reason: text("reason", ""),
    items: typed
      ? texts(typed.item)
      : Object.fromEntries(items.filter((item) => !notApplicable(item)).map((item) => [item.key, String(item.value)])),
    na: typed ? boxes(typed.na) : Object.fromEntries(items.filter(notApplicable).map((item) => [item.key, true])),
  };
}

/** A field as a refused post held it (the agent's appeal reason, a decision's), else `fallback`. */
export function typedText(refused: Refused, name: string, fallback = ""): string {
  const typed = refused?.initialValue?.[name];
  return typed === undefined ? fallback : String(typed);
}

/** A group of posted fields (item.<key>) as texts by key. */
function texts(value: unknown): Record<string, string> {
  return value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v ?? "")])) : {};
}

/** The boxes ticked of a group of posted checkboxes (na.<key>). */
function boxes(value: unknown): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(texts(value))
      .filter(([, v]) => v !== "")
      .map(([key]) => [key, true]),
  );
}
