import type { ReactNode } from "react";
import { CsrfInput } from "./csrf-input";

const ROW_BUTTON = "p-button p-button-text p-button-sm";
const ROW_DANGER_BUTTON = "p-button p-button-text p-button-danger p-button-sm";

/**
 * A button that posts an intent with its hidden fields (and the CSRF token): an action that needs
 * nothing typed. The route answers a confirmation step where one is due (design §9).
 */
export function PostButton({
  fields,
  label,
  ariaLabel,
  danger = false,
  className = danger ? ROW_DANGER_BUTTON : ROW_BUTTON,
  formId,
  formClassName,
}: {
  fields: Record<string, string | number>;
  label: string;
  ariaLabel?: string;
  danger?: boolean;
  /** The button's look; a row's (text, small) unless given. */
  className?: string;
  formId?: string;
  formClassName?: string;
}) {
  return (
    <form method="post" id={formId} className={formClassName}>
      <CsrfInput />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} aria-label={ariaLabel}>
        {label}
      </button>
    </form>
  );
}

/**
 * A list row's 编辑 link, its other actions, and 删除: the delete posts `intent`, `id` and `name`,
 * and the route answers its confirmation step before acting.
 */
export function EditDeleteActions({
  editHref,
  intent,
  id,
  name,
  children,
}: {
  editHref: string;
  intent: string;
  id: number;
  name: string;
  children?: ReactNode;
}) {
  return (
    <div className="sb-row-actions">
      <a href={editHref} className={ROW_BUTTON} aria-label={`编辑「${name}」`}>
        编辑
      </a>
      {children}
      <PostButton fields={{ intent, id, name }} label="删除" ariaLabel={`删除「${name}」`} danger />
    </div>
  );
}
