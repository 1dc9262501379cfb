// A list whose rows are created and edited in a form that opens above it (`?edit=new`, `?edit=<id>`)
// and deleted after a confirmation step: the pieces such screens share (work-order templates,
// customer properties, SMS templates, regular expressions, festivals).
import { getFormProps, getInputProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmStep } from "./confirm";
import { CsrfInput } from "./csrf-input";
import { FormErrors, firstError } from "./form-field";
import { refusalOf } from "./intent-form";

/**
 * The row form is open when asked for (`?edit=`) and when what it posted (any of `intents`) came
 * back refused or tried: it shows again with what was typed.
 */
export const rowFormOpen = (asked: boolean, result: unknown, intents: readonly string[]) =>
  asked || intents.some((intent) => refusalOf(result, intent) !== undefined);

/**
 * The message of a refusal that is not one of the forms' (`formIntents`): a row's own action (删除,
 * 启用, 上移…), shown above the list; a form's refusal comes back in that form.
 */
export function rowRefusalMessage(result: unknown, formIntents: readonly string[]) {
  const refusal = refusalOf(result);
  return refusal && !formIntents.some((intent) => refusalOf(result, intent) !== undefined) ? firstError(refusal) : null;
}

/** The row a 删除 names, and the fields to post again (`deletionStep`, app/server/forms.server.ts). */
export function deletionOf(result: unknown): { fields: Record<string, string>; name: string } | undefined {
  return result && typeof result === "object" && "deletion" in result
    ? (result as { deletion: { fields: Record<string, string>; name: string } }).deletion
    : undefined;
}

/** The confirmation step of a row's 删除, when the action answered one; 取消 comes back to this page. */
export function DeleteStep({ result, title, message }: { result: unknown; title: string; message: (name: string) => string }) {
  const { pathname, search } = useLocation();
  const deletion = deletionOf(result);
  return deletion ? (
    <ConfirmStep title={title} fields={deletion.fields} confirmLabel="确认删除" cancelHref={`${pathname}${search}`}>
      <p>{message(deletion.name)}</p>
    </ConfirmStep>
  ) : null;
}

/**
 * The form of the row created or edited, above the list: titled 编辑… once it has an id (the row's,
 * or the one that came back with a refusal, conform's `id` field) and posting it, 新建… before;
 * its own errors first, then `children`, its buttons and 取消 back to the list.
 */
export function RowForm<Schema extends Record<string, unknown>>({
  form,
  id,
  titles,
  titleId,
  intent,
  className = "sb-form-grid",
  buttons,
  cancelHref,
  children,
}: {
  form: FormMetadata<Schema>;
  id: FieldMetadata<unknown>;
  titles: { edit: string; create: string };
  titleId: string;
  /** The intent the form posts, unless its buttons post their own. */
  intent?: string;
  className?: string;
  buttons: ReactNode;
  cancelHref: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={titleId} className="sb-section">
      <h2 id={titleId} className="sb-section-title">
        {id.initialValue ? titles.edit : titles.create}
      </h2>
      <form method="post" {...getFormProps(form)} className={className}>
        <CsrfInput />
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <input {...getInputProps(id, { type: "hidden" })} />
        <FormErrors id={form.errorId} errors={form.errors} />
        {children}
        <div className="sb-form-actions">
          {buttons}
          <a className="p-button p-button-text" href={cancelHref}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}
