import type { ReactNode } from "react";
import confirmStepScript from "#app/client/confirm-step.js?url";
import { CsrfInput } from "./csrf-input";
import { EnhancementScript } from "./enhancement-script";

/**
 * The confirmation step of a destructive or bulk action (design.md §9): the first post answers
 * with this instead of acting; it names what will happen and posts the same fields again with
 * `confirmed=1`. A page, not a script, so it works without JavaScript. Focus starts on 取消, the
 * least destructive choice (WAI-ARIA's alertdialog); with JavaScript, Escape follows 取消 too
 * (app/client/confirm-step.js). `cancelHref` may bring the page back with what was typed and the
 * focus on the control that opened the step.
 */
export function ConfirmStep({
  title,
  children,
  fields,
  confirmLabel,
  cancelHref,
  danger = true,
  action,
  inside,
}: {
  title: string;
  children: ReactNode;
  /** The fields to post again (intent, ids, reason...). */
  fields: Record<string, string | readonly string[]>;
  confirmLabel: string;
  cancelHref: string;
  danger?: boolean;
  action?: string;
  /** Fields typed at this step (a reason), posted with the confirmation. */
  inside?: ReactNode;
}) {
  return (
    <section className="sb-confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-body">
      <h2 id="confirm-title">{title}</h2>
      <div id="confirm-body">{children}</div>
      <form method="post" action={action} className="sb-inline-forms">
        <CsrfInput />
        {Object.entries(fields).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((one, i) => <input key={`${name}-${i}`} type="hidden" name={name} value={one} />),
        )}
        <input type="hidden" name="confirmed" value="1" />
        {inside}
        <button type="submit" className={`p-button${danger ? " p-button-danger" : ""}`}>
          {confirmLabel}
        </button>
        <a className="p-button p-button-text" href={cancelHref} data-confirm-cancel="" autoFocus>
          取消
        </a>
      </form>
      <EnhancementScript src={confirmStepScript} />
    </section>
  );
}
