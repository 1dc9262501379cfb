import type { FlowNode } from "#contracts/robot";

/** An edit of a draft's node list, as the page's forms post it (the first node is where a call starts). */
export type NodeEdit =
  | { intent: "node.save"; node: FlowNode }
  | { intent: "node.add"; key: string; type: FlowNode["type"]; name: string }
  | { intent: "node.first"; key: string }
  | { intent: "node.delete"; key: string };

/** The node list after an edit and what to tell the user, or why the edit is refused (a form's errors). */
export type Edited = { nodes: FlowNode[]; toast: string } | { refused: { formErrors?: string[]; fieldErrors?: Record<string, string[]> } };

/**
 * An edit applied to a flow's nodes, a new list (the one given is left as it was): a node saved in
 * its place, a node added at the end (its key not taken), a node made the first, a node deleted.
 * Links to a deleted node are left for the design check to report. A flow keeps at least one node.
 */
export function editNodes(nodes: readonly FlowNode[], edit: NodeEdit): Edited {
  let next: FlowNode[];
  let toast: string;
  if (edit.intent === "node.save") {
    const { node } = edit;
    next = nodes.map((n) => (n.key === node.key ? node : n));
    toast = `节点「${node.name}」已保存`;
  } else if (edit.intent === "node.add") {
    if (nodes.some((n) => n.key === edit.key)) return { refused: { fieldErrors: { key: [`节点编号「${edit.key}」已存在`] } } };
    next = [...nodes, { key: edit.key, type: edit.type, name: edit.name, prompt: "", next: "", intents: [], branches: [], otherNext: "" }];
    toast = `已添加节点「${edit.name}」，请填写它的话术和去向`;
  } else if (edit.intent === "node.first") {
    const first = nodes.find((n) => n.key === edit.key);
    next = first ? [first, ...nodes.filter((n) => n !== first)] : [...nodes];
    toast = `「${first?.name ?? edit.key}」已设为开始节点`;
  } else {
    next = nodes.filter((n) => n.key !== edit.key);
    toast = `节点「${nodeName(nodes, edit.key)}」已删除`;
  }
  if (next.length === 0) return { refused: { formErrors: ["流程至少需要一个节点"] } };
  return { nodes: next, toast };
}

/** A node's name, or its key when the list has no such node. */
export const nodeName = (nodes: readonly FlowNode[], key: string) => nodes.find((n) => n.key === key)?.name ?? key;
