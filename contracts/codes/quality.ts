// Code tables of quality inspection: statuses, influences, appeals, forms, access.
import type { CodeTable } from "./table";

/**
 * Spec §3 quality-check status, one per call (call_records.qc_status). -1 and 2 are where a call is
 * in the queue (waiting, locked to one inspector); 0, 1 and 3 are the inspector's result
 * (checkResult). The moves between them are data in contracts/inspection.ts (QC_TRANSITIONS).
 */
export const QC_UNCHECKED = -1;
export const QC_CHECKING = 2;
export const QUALITY_CHECK_STATUSES: CodeTable<number> = [
  { code: -1, label: "未质检" },
  { code: 0, label: "意向不明确", tone: "warning" },
  { code: 1, label: "明确办理", tone: "success" },
  { code: 2, label: "质检中", tone: "info" },
  { code: 3, label: "无意向", tone: "danger" },
];
/** The statuses an inspector gives as the result (checkResult): the intent the call showed. */
// Marked pure, or Rollup would keep this module in every page that imports the code tables.
export const QC_RESULTS: CodeTable<number> = /* @__PURE__ */ QUALITY_CHECK_STATUSES.filter((s) => s.code !== -1 && s.code !== 2);

/**
 * How the agent's handling influenced the call (influence; spec names the field, not its values:
 * ours). A call passes inspection unless its influence is negative.
 */
export const QC_INFLUENCES: CodeTable<number> = [
  { code: 1, label: "正面影响", tone: "success" },
  { code: 0, label: "无影响", tone: "none" },
  { code: -1, label: "负面影响", tone: "danger" },
];
/** The influence of a failed call (a failed 一票否决 item sets it, decision 028). */
export const QC_INFLUENCE_NEGATIVE = -1;

/** An agent's appeal against an inspection result (one per call). */
export const QC_APPEAL_STATES: CodeTable<string> = [
  { code: "pending", label: "申诉中", tone: "warning" },
  { code: "accepted", label: "申诉通过", tone: "success" },
  { code: "rejected", label: "申诉驳回", tone: "danger" },
];

/**
 * A scoring form's lifecycle (decision 028): a draft is edited; one form of the tenant is active,
 * the one inspectors score with; a retired form stays, unchanged, for the calls scored with it.
 * The moves are data in contracts/inspection.ts (QC_FORM_TRANSITIONS).
 */
export const QC_FORM_STATES: CodeTable<"draft" | "active" | "retired"> = [
  { code: "draft", label: "草稿", tone: "none" },
  { code: "active", label: "启用中", tone: "success" },
  { code: "retired", label: "已停用", tone: "warning" },
];

/** What an inspector's access grant covers: an agent group (queue) or a campaign. */
export const QC_ACCESS_SCOPES: CodeTable<string> = [
  { code: "queue", label: "坐席组" },
  { code: "campaign", label: "外呼活动" },
];
