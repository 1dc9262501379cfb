// Code tables of people: roles, agents' work types, genders.
import type { Role } from "../uaa";
import type { CodeTable } from "./table";

export const ROLES: CodeTable<Role> = [
  { code: "admin", label: "管理员" },
  { code: "supervisor", label: "主管" },
  { code: "agent", label: "坐席" },
];

/** Spec §3/§9: workType 3 marks a text agent; every other type is a voice agent. */
export const TEXT_AGENT_WORK_TYPE = 3;
export function workTypeLabel(workType: number): string {
  return workType === TEXT_AGENT_WORK_TYPE ? "文本坐席" : "语音坐席";
}
/** The work types an administrator gives an agent (坐席配置): voice (1) or text (3). */
export const WORK_TYPES: CodeTable<number> = [
  { code: 1, label: "语音" },
  { code: TEXT_AGENT_WORK_TYPE, label: "文本" },
];

/** Gender (spec §3 call task detail). */
export const GENDERS: CodeTable<number> = [
  { code: 0, label: "男" },
  { code: 1, label: "女" },
  { code: -1, label: "未知" },
];
