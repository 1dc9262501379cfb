// Code tables of robots: flow versions, flow nodes, speakers.
import type { CodeTable } from "./table";

/**
 * A robot flow version's lifecycle (upstream/domain/flow-versions.ts holds the transitions):
 * a draft is submitted for review, then published or returned to draft with a reason; a
 * published version can be listed in the market. Published versions never change.
 */
export const FLOW_VERSION_STATES: CodeTable<number> = [
  { code: 0, label: "草稿", tone: "none" },
  { code: 1, label: "待审核", tone: "warning" },
  { code: 2, label: "已发布", tone: "success" },
  { code: 3, label: "已上架", tone: "info" },
];

/** The kinds of node a flow design is made of. */
export const FLOW_NODE_TYPES: CodeTable<string> = [
  { code: "speak", label: "播报" },
  { code: "listen", label: "收听（意图）" },
  { code: "branch", label: "条件分支" },
  { code: "transfer", label: "转人工" },
  { code: "hangup", label: "挂机" },
];

/**
 * The robots' speakers (synthesised voices, decision 030): code, name, gender (spec §3: 0 male,
 * 1 female), style, and the pitch (Hz) of the reference platform's preview tones.
 */
export const ROBOT_SPEAKERS: ReadonlyArray<{ code: string; label: string; gender: 0 | 1; style: string; pitch: number }> = [
  { code: "xiaoyun", label: "晓云", gender: 1, style: "亲切客服", pitch: 330 },
  { code: "xiaomei", label: "晓美", gender: 1, style: "温柔播报", pitch: 294 },
  { code: "xiaogang", label: "晓刚", gender: 0, style: "沉稳商务", pitch: 196 },
  { code: "xiaoming", label: "晓明", gender: 0, style: "年轻活力", pitch: 220 },
];
