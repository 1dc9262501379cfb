import { FlowNodeSchema, type FlowNode } from "#contracts/robot";

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

/** Rows a node form offers at least (a node with more routes shows them all). */
export const INTENT_ROWS = 4;
export const BRANCH_ROWS = 3;

/** A node as its form posts it: flat fields, its routes as rows (an empty row is no route). */
export type NodeFormValue = {
  key: string;
  type: string;
  name: string;
  prompt: string;
  next: string;
  otherNext: string;
  queueName: string;
  intents: { intent: string; keywords: string; next: string }[];
  branches: { variable: string; value: string; next: string }[];
};

/** A problem of a posted node, named by the form's field it is about (conform's path: a route's row and field). */
export type NodeFormIssue = { path: (string | number)[]; message: string };

const rows = <T>(filled: T[], count: number, blank: T) => [
  ...filled,
  ...Array.from({ length: Math.max(0, count - filled.length) }, () => blank),
];

/** What a node's form shows: the node's fields and routes, keywords joined as typed, blank rows up to the form's count. */
export function nodeFormValue(node: FlowNode): NodeFormValue {
  return {
    key: node.key,
    type: node.type,
    name: node.name,
    prompt: node.prompt,
    next: node.next,
    otherNext: node.otherNext,
    queueName: node.queueName ?? "",
    intents: rows(
      node.intents.map((r) => ({ intent: r.intent, keywords: r.keywords.join("，"), next: r.next })),
      INTENT_ROWS,
      { intent: "", keywords: "", next: "" },
    ),
    branches: rows(
      node.branches.map((r) => ({ variable: r.variable, value: r.value, next: r.next })),
      BRANCH_ROWS,
      { variable: "", value: "", next: "" },
    ),
  };
}

/**
 * The node a form posted: its routes are the rows with an intent (a variable for a condition),
 * keywords split at commas, 、 or spaces; a queue only for a transfer. Or why it is refused, each
 * problem on the field of the row it is about (a route's index in the node is not its row's).
 */
export function nodeOfForm(form: NodeFormValue): { node: FlowNode } | { issues: NodeFormIssue[] } {
  const intentRows = form.intents.flatMap((row, i) => (row.intent ? [i] : []));
  const branchRows = form.branches.flatMap((row, i) => (row.variable ? [i] : []));
  const parsed = FlowNodeSchema.safeParse({
    key: form.key,
    type: form.type,
    name: form.name,
    prompt: form.prompt,
    next: form.next,
    otherNext: form.otherNext,
    queueName: form.type === "transfer" && form.queueName ? form.queueName : undefined,
    intents: intentRows.map((i) => {
      const row = form.intents[i];
      return { intent: row.intent, keywords: row.keywords.split(/[,，、\s]+/).filter(Boolean), next: row.next };
    }),
    branches: branchRows.map((i) => form.branches[i]),
  });
  if (parsed.success) return { node: parsed.data };
  const issues = parsed.error.issues.map(({ path: [first, index, field], message }) => {
    if ((first === "intents" || first === "branches") && typeof index === "number") {
      const row = (first === "intents" ? intentRows : branchRows)[index];
      return { path: [first, row, String(field)], message };
    }
    // A problem of a whole list (too many routes) is the form's own.
    return { path: first === "intents" || first === "branches" ? [] : [String(first)], message };
  });
  return { issues };
}
