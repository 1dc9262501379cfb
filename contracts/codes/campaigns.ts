// Code tables of campaigns: types, states, batches, imports, schedules, skips, weekdays.
import type { CodeTable } from "./table";

/** Spec §4 task batch status. */
export const BATCH_STATUSES: CodeTable<number> = [
  { code: 13, label: "准备中", tone: "indigo" },
  { code: 14, label: "准备失败", tone: "danger" },
  { code: 2, label: "调度中", tone: "info" },
  { code: 11, label: "休息中（时段间隔）", tone: "teal" },
  { code: 12, label: "休息中（周期未到）", tone: "olive" },
  { code: 3, label: "已暂停", tone: "warning" },
  { code: 4, label: "已完成", tone: "success" },
  { code: 5, label: "已超时", tone: "pink" },
  { code: 6, label: "已取消", tone: "none" },
];

/** A campaign's contact import (ours): large files are read in the background. */
export const IMPORT_STATUSES: CodeTable<string> = [
  { code: "running", label: "导入中", tone: "info" },
  { code: "done", label: "已完成", tone: "success" },
  { code: "failed", label: "导入失败", tone: "danger" },
];

/** Spec §4 campaign type (-1 and 4 are both manual direct dial). */
export const CAMPAIGN_TYPES: CodeTable<number> = [
  { code: 1, label: "机器人外呼" },
  { code: 2, label: "人机协同外呼" },
  { code: 3, label: "人工预览外呼" },
  { code: 4, label: "人工直拨" },
  { code: -1, label: "人工直拨" },
  { code: 5, label: "人工回拨" },
  { code: 20, label: "呼入" },
];

/** The campaign type of an inbound call's record (呼入). */
export const INBOUND_CAMPAIGN_TYPE = 20;

/** Campaigns whose contacts agents dial themselves (spec §4: 3 preview, 4/-1 direct, 5 call-back). */
export const AGENT_DIALLED_CAMPAIGN_TYPES: readonly number[] = [3, 4, -1, 5];

/** Spec §4 task type. */
export const TASK_TYPES: CodeTable<number> = [
  { code: 1, label: "正式任务" },
  { code: 2, label: "试呼任务" },
  { code: 3, label: "测试任务" },
];

/** Spec §4 schedule cycle. */
export const SCHEDULE_CYCLES: CodeTable<number> = [
  { code: 1, label: "当天" },
  { code: 2, label: "周期" },
  { code: 3, label: "长期" },
];

/** Campaign state (spec: "values not shown"; ours). */
export const CAMPAIGN_STATES: CodeTable<number> = [
  { code: 0, label: "未启动", tone: "indigo" },
  { code: 1, label: "运行中", tone: "info" },
  { code: 2, label: "已暂停", tone: "warning" },
  { code: 3, label: "已完成", tone: "success" },
  { code: 4, label: "已取消", tone: "none" },
];

/** Why an agent skips a contact in a preview list (ours). */
export const SKIP_REASONS: CodeTable<string> = [
  { code: "WRONG_NUMBER", label: "号码有误" },
  { code: "CUSTOMER_BUSY", label: "客户不便接听" },
  { code: "DUPLICATE", label: "重复客户" },
  { code: "OTHER", label: "其他原因" },
];

/** Days of the week as the working calendar numbers them (ISO: 1 Monday … 7 Sunday). */
export const WEEKDAYS: CodeTable<number> = [
  { code: 1, label: "星期一" },
  { code: 2, label: "星期二" },
  { code: 3, label: "星期三" },
  { code: 4, label: "星期四" },
  { code: 5, label: "星期五" },
  { code: 6, label: "星期六" },
  { code: 7, label: "星期日" },
];
