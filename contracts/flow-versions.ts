import { FLOW_VERSION_STATES, labelOf } from "./codes";

/**
 * A flow version's lifecycle, as data (decision 019); the platform enforces it, the console offers its actions. States are FLOW_VERSION_STATES:
 * 0 草稿 → submit → 1 待审核 → publish → 2 已发布 → market → 3 已上架; a version under review can be
 * returned to draft with a reason. A published (or listed) version is put back in service by
 * `rollback`; its state does not change. Only drafts change (design); `cover` copies any
 * version into a new draft. Nothing else moves a version.
 */
export const FlowState = { draft: 0, review: 1, published: 2, market: 3 } as const;

export type FlowAction = "design" | "submit" | "return" | "publish" | "rollback" | "market" | "cover";

type Rule = {
  from: readonly number[];
  /** The state after; null keeps it (rollback, cover, design). */
  to: number | null;
  /** The Chinese refusal when the version is in another state. */
  refusal: string;
  /** A reason is required (and written to the audit row). */
  needsReason?: true;
};

export const FLOW_TRANSITIONS: Record<FlowAction, Rule> = {
  design: { from: [FlowState.draft], to: null, refusal: "只有草稿可以修改，已提交或已发布的版本请复制为新草稿" },
  submit: { from: [FlowState.draft], to: FlowState.review, refusal: "只有草稿可以提交审核" },
  return: { from: [FlowState.review], to: FlowState.draft, refusal: "只有待审核的版本可以退回", needsReason: true },
  publish: { from: [FlowState.review], to: FlowState.published, refusal: "只有待审核的版本可以发布" },
  rollback: {
    from: [FlowState.published, FlowState.market],
    to: null,
    refusal: "只有已发布或已上架的版本可以重新上线",
  },
  market: { from: [FlowState.published], to: FlowState.market, refusal: "只有已发布的版本可以上架" },
  cover: {
    from: [FlowState.review, FlowState.published, FlowState.market],
    to: null,
    refusal: "草稿本身就是工作区，无需复制",
  },
};

export class FlowTransitionRefused extends Error {}

/** The state after `action` on a version in `state`; throws FlowTransitionRefused (a Chinese message) when not allowed. */
export function nextFlowState(action: FlowAction, state: number): number {
  const rule = FLOW_TRANSITIONS[action];
  if (!rule.from.includes(state)) throw new FlowTransitionRefused(`${rule.refusal}（当前状态：${labelOf(FLOW_VERSION_STATES, state)}）`);
  return rule.to ?? state;
}

/** The actions a version in `state` offers (the console shows these buttons). */
export function flowActionsFor(state: number): FlowAction[] {
  return (Object.keys(FLOW_TRANSITIONS) as FlowAction[]).filter((action) => FLOW_TRANSITIONS[action].from.includes(state));
}

/** A version's name from its number: v1.0, v1.1, … (the seeded robots' names). */
export const versionName = (no: number) => `v1.${no - 1}`;
