/**
 * A scoring form's arithmetic (decision 028), kept free of zod so the hydrated scoring view shows
 * the same total as the platform stores. An item is answered with points 0..weight, or — a veto
 * item (一票否决) — pass or fail; "na" (不适用) where the item allows it. The score is the points
 * over the weights of the items not N/A, out of 100 (one decimal); a failed veto item fails the
 * call: score 0, influence negative.
 */

export type ScoreFormItem = { key: string; title: string; weight: number; allowNa: boolean; veto: boolean };
export type ScoreAnswerValue = number | "na" | "pass" | "fail";
export type ScoreAnswer = { key: string; value: ScoreAnswerValue };
export type ScoredItem = ScoreFormItem & { value: ScoreAnswerValue; points: number | null };
export type Evaluated =
  { ok: true; score: number; vetoed: boolean; items: ScoredItem[] } | { ok: false; errors: Array<{ key: string | null; message: string }> };

export const NOT_APPLICABLE = "na";
export const VETO_PASS = "pass";
export const VETO_FAIL = "fail";
/** The labels of a veto item's answers and of N/A, shown wherever an answer is. */
export const ANSWER_LABELS: Record<string, string> = { na: "不适用", pass: "通过", fail: "不通过" };

/** Reads one posted answer ("", "na", "pass", "fail" or digits) as the platform takes it; undefined when blank. */
export function answerOf(text: string | undefined | null): ScoreAnswerValue | undefined {
  const value = (text ?? "").trim();
  if (value === "") return undefined;
  if (value === NOT_APPLICABLE || value === VETO_PASS || value === VETO_FAIL) return value;
  return /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
}

/** Every item answered as its kind allows, or the Chinese errors (by item key); the total otherwise. */
export function evaluate(items: readonly ScoreFormItem[], answers: readonly ScoreAnswer[]): Evaluated {
  const errors: Array<{ key: string | null; message: string }> = [];
  const byKey = new Map(answers.map((a) => [a.key, a.value]));
  for (const answer of answers) {
    if (!items.some((item) => item.key === answer.key)) errors.push({ key: null, message: "评分项不属于该评分表，请刷新页面后重新评分" });
  }
  const scored: ScoredItem[] = [];
  for (const item of items) {
    const value = byKey.get(item.key);
    if (value === undefined) {
      errors.push({ key: item.key, message: `请为「${item.title}」评分${item.allowNa ? "或选择不适用" : ""}` });
      continue;
    }
    if (value === NOT_APPLICABLE) {
      if (!item.allowNa) errors.push({ key: item.key, message: `「${item.title}」不允许选择不适用` });
      scored.push({ ...item, value, points: null });
      continue;
    }
    if (item.veto) {
      if (value !== VETO_PASS && value !== VETO_FAIL) {
        errors.push({ key: item.key, message: `「${item.title}」是一票否决项，只能选择通过或不通过` });
        continue;
      }
      scored.push({ ...item, value, points: value === VETO_PASS ? item.weight : 0 });
      continue;
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > item.weight) {
      errors.push({ key: item.key, message: `「${item.title}」的得分必须是 0 到 ${item.weight} 的整数` });
      continue;
    }
    scored.push({ ...item, value, points: value });
  }
  if (errors.length > 0) return { ok: false, errors };
  const counted = scored.filter((s) => s.points !== null);
  const weight = counted.reduce((sum, s) => sum + s.weight, 0);
  if (weight === 0) return { ok: false, errors: [{ key: null, message: "至少要有一项评分，不能全部选择不适用" }] };
  const vetoed = scored.some((s) => s.veto && s.value === VETO_FAIL);
  const points = counted.reduce((sum, s) => sum + (s.points ?? 0), 0);
  return { ok: true, score: vetoed ? 0 : Math.round((1000 * points) / weight) / 10, vetoed, items: scored };
}
