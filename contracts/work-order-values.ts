import type { WORK_ORDER_FIELD_TYPES } from "./codes";

/**
 * What the work-order form checks in the browser and the platform checks again, without zod (a
 * hydrated screen ships this module: the call detail's script budget has no room for zod).
 * contracts/work-orders.ts re-exports it.
 */

/** How long a value of each field type may be. */
export const WORK_ORDER_VALUE_MAX = { text: 200, longText: 2000 } as const;

/** The menu urls of the work-order screens: whoever has one makes work orders (decision 026). */
export const WORK_ORDER_MENU_URLS: readonly string[] = ["/agentTask/workOrder", "/businessTemplate/record"];

/** A template's field as far as its value's check needs it (WorkOrderField of work-orders.ts). */
type CheckedField = {
  name: string;
  label: string;
  type: (typeof WORK_ORDER_FIELD_TYPES)[number]["code"];
  required: boolean;
  options: readonly string[];
};

/**
 * A record's values checked against its template's fields: each value's problem in Chinese by
 * field name, and the values kept (trimmed; empty optional ones dropped). Both sides use it.
 */
export function checkWorkOrderValues(
  fields: readonly CheckedField[],
  values: Record<string, unknown>,
): { values: Record<string, string>; errors: Record<string, string> } {
  const kept: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const value = typeof raw === "string" ? raw.trim() : raw === undefined || raw === null ? "" : String(raw).trim();
    if (!value) {
      if (field.required) errors[field.name] = `请填写${field.label}`;
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) errors[field.name] = problem;
    else kept[field.name] = value;
  }
  return { values: kept, errors };
}

function valueProblem(field: CheckedField, value: string): string | null {
  switch (field.type) {
    case "number":
      return /^-?\d+(\.\d+)?$/.test(value) && value.length <= 20 ? null : `${field.label}必须是数字`;
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
        ? null
        : `${field.label}必须是日期（年-月-日）`;
    case "phone":
      return /^\+?[\d-]{5,20}$/.test(value) ? null : `${field.label}必须是电话号码`;
    case "choice":
      return field.options.includes(value) ? null : `${field.label}请从选项中选择`;
    case "text":
      return value.length <= WORK_ORDER_VALUE_MAX.text ? null : `${field.label}不能超过${WORK_ORDER_VALUE_MAX.text}个字符`;
    case "longText":
      return value.length <= WORK_ORDER_VALUE_MAX.longText ? null : `${field.label}不能超过${WORK_ORDER_VALUE_MAX.longText}个字符`;
  }
}
