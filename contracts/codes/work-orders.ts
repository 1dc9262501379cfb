// Code tables of work orders: template statuses, field types, record states.
import type { CodeTable } from "./table";

/** A work-order template's status (spec §4 "set by a call"): only enabled templates reach the workbench. */
export const WORK_ORDER_TEMPLATE_STATUSES: CodeTable<number> = [
  { code: 1, label: "启用", tone: "success" },
  { code: 0, label: "停用", tone: "none" },
];

/** The kinds of field a work-order template can ask for. */
export const WORK_ORDER_FIELD_TYPES: CodeTable<"text" | "number" | "date" | "choice" | "phone" | "longText"> = [
  { code: "text", label: "文本" },
  { code: "number", label: "数字" },
  { code: "date", label: "日期" },
  { code: "choice", label: "选项" },
  { code: "phone", label: "电话" },
  { code: "longText", label: "长文本" },
];

/** A work-order record's follow state; the transitions between them are in contracts/work-orders.ts. */
export const WORK_ORDER_STATES: CodeTable<number> = [
  { code: 0, label: "待处理", tone: "info" },
  { code: 1, label: "处理中", tone: "warning" },
  { code: 2, label: "已完成", tone: "success" },
  { code: 3, label: "已关闭", tone: "none" },
];
