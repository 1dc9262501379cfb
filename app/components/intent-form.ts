import { useForm, type DefaultValue } from "@conform-to/react";
import { firstError } from "./form-field";
import { refusalOf } from "./refusal";

export { refusalOf };

/** The first message of the refusal the form posted with `intent` got (`refusalOf`), if any. */
export function refusalMessageOf(result: unknown, intent?: string): string | null {
  const refusal = refusalOf(result, intent);
  return refusal ? firstError(refusal) : null;
}

/**
 * conform's `useForm` for the form of one intent on a screen of several: what was typed and why it
 * was refused come back to that form only (kept in a module of its own, so islands that do not use
 * it do not load conform).
 */
export function useIntentForm(intent: string, result: unknown, defaultValue?: Record<string, string | string[]>) {
  return useForm({ id: intent, lastResult: refusalOf(result, intent), defaultValue });
}

/**
 * `useIntentForm` for one of several forms of the same intent, one per item (a flow's nodes, a
 * list's rows), told apart by the `key` each posts in its `keyField` (`key`, or a row's `id`): a
 * refusal comes back to the form it was posted from only, with what was typed in it (lists and
 * rows too: `fields.x.getFieldList()`).
 */
export function useKeyedIntentForm<Schema extends Record<string, unknown>>(
  intent: string,
  key: string,
  result: unknown,
  defaultValue?: DefaultValue<Schema>,
  keyField = "key",
) {
  const refusal = refusalOf(result, intent);
  return useForm<Schema>({
    id: `${intent}-${key}`,
    lastResult: refusal?.initialValue?.[keyField] === key ? refusal : undefined,
    defaultValue,
  });
}

/**
 * `useIntentForm` for a form that posts any of `intents` (a button each: 测试 or 计算字数 before
 * 保存; the first names the form) and whose values may be rows (`Schema`, the schema's input: a
 * template's fields, a week's days, read with getFieldList and getFieldset): what any of them got
 * back, refused or tried, comes back to it.
 */
export function useIntentsForm<Schema extends Record<string, unknown> = Record<string, string | string[]>>(
  intents: readonly [string, ...string[]],
  result: unknown,
  defaultValue?: NoInfer<DefaultValue<Schema>>,
) {
  const lastResult = intents.map((intent) => refusalOf(result, intent)).find((reply) => reply !== undefined);
  return useForm<Schema>({ id: intents[0], lastResult, defaultValue });
}
