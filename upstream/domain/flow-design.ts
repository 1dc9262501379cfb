import { FLOW_NODE_TYPES, INTENT_LABELS, labelOf } from "#contracts/codes";
import type { FlowDiffChange, FlowNode, FlowProblem } from "#contracts/robot";

/**
 * A flow design's rules (decision 019): what makes it whole, how a listen node hears a
 * sentence, how two designs differ, and how a call walks through it. Pure: the platform's routes
 * and the robot simulator both use it.
 */

/** What a customer says for each intent when a node gives no words of its own (and the NLU template). */
export const DEFAULT_INTENT_KEYWORDS: Record<string, string[]> = {
  CONFIRM: ["确认办理", "可以办", "好的", "行", "办理"],
  NO_INTENTION: ["不需要", "不用了", "没兴趣", "不要"],
  HAS_INTENTION: ["有兴趣", "考虑一下", "听听看"],
  ASK_HOW: ["怎么办理", "如何办理", "怎么弄"],
  ASK_FEE: ["手续费", "多少钱", "费用", "利息"],
  CHANGE_INSTALMENTS: ["改成", "换成六期", "分几期"],
  AGREED_NO_KEY: ["知道了", "嗯嗯"],
  HUNG_UP_SECOND_CONFIRM: ["再说吧", "先挂了"],
};

/** The sentence a simulated customer says for an intent. */
export const SAMPLE_SENTENCES: Record<string, string> = {
  CONFIRM: "好的，确认办理。",
  NO_INTENTION: "不需要，谢谢。",
  HAS_INTENTION: "有兴趣，你说说看。",
  ASK_HOW: "这个怎么办理呢？",
  ASK_FEE: "手续费是多少？",
  CHANGE_INSTALMENTS: "能换成六期吗？",
  AGREED_NO_KEY: "嗯嗯，知道了。",
  HUNG_UP_SECOND_CONFIRM: "再说吧，先挂了。",
};

const END_TYPES = new Set(["transfer", "hangup"]);
export const isEndNode = (node: FlowNode) => END_TYPES.has(node.type);
const intentLabel = (code: string) => labelOf(INTENT_LABELS, code);

/** Every way out of a node: where it leads and what the route is called (for messages). */
export function exitsOf(node: FlowNode): Array<{ label: string; next: string }> {
  switch (node.type) {
    case "speak":
      return [{ label: "下一节点", next: node.next }];
    case "listen":
      return [
        ...node.intents.map((route) => ({ label: `意图「${intentLabel(route.intent)}」`, next: route.next })),
        { label: "未识别时", next: node.otherNext },
      ];
    case "branch":
      return [
        ...node.branches.map((route) => ({ label: `条件「${route.variable} = ${route.value}」`, next: route.next })),
        { label: "其他情况", next: node.otherNext },
      ];
    default:
      return [];
  }
}

/** The problems of a design, in Chinese; empty when it can be submitted. */
export function validateDesign(nodes: FlowNode[]): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const add = (nodeKey: string | null, message: string) => problems.push({ nodeKey, message });
  if (nodes.length === 0) return [{ nodeKey: null, message: "流程至少需要一个节点" }];
  const byKey = new Map<string, FlowNode>();
  for (const node of nodes) {
    if (byKey.has(node.key)) add(node.key, `节点编号「${node.key}」重复`);
    else byKey.set(node.key, node);
  }
  for (const node of nodes) {
    const named = `节点「${node.name}」`;
    if (node.type !== "branch" && node.type !== "hangup" && node.type !== "transfer" && !node.prompt) add(node.key, `${named}缺少话术`);
    if (node.type === "listen") {
      if (node.intents.length === 0) add(node.key, `${named}至少需要一个意图`);
      const seen = new Set<string>();
      for (const route of node.intents) {
        if (seen.has(route.intent)) add(node.key, `${named}的意图「${intentLabel(route.intent)}」重复`);
        seen.add(route.intent);
      }
    }
    if (node.type === "branch" && node.branches.length === 0) add(node.key, `${named}至少需要一个条件`);
    for (const exit of exitsOf(node)) {
      if (!exit.next) add(node.key, `${named}的${exit.label}没有设置去向`);
      else if (!byKey.has(exit.next)) add(node.key, `${named}的${exit.label}指向不存在的节点「${exit.next}」`);
    }
  }
  const ends = nodes.filter(isEndNode);
  if (ends.length === 0) add(null, "流程没有结束节点（转人工或挂机）");

  // Reachable from the start (the first node).
  const reachable = new Set<string>();
  const queue = [nodes[0].key];
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (reachable.has(key) || !byKey.has(key)) continue;
    reachable.add(key);
    for (const exit of exitsOf(byKey.get(key)!)) if (exit.next) queue.push(exit.next);
  }
  for (const node of nodes) if (!reachable.has(node.key)) add(node.key, `节点「${node.name}」从开始节点无法到达`);

  // A loop with no way out: nodes on a cycle from which no end node can be reached.
  if (ends.length > 0) {
    const canEnd = new Set(ends.map((n) => n.key));
    for (let changed = true; changed;) {
      changed = false;
      for (const node of nodes) {
        if (canEnd.has(node.key)) continue;
        if (exitsOf(node).some((exit) => canEnd.has(exit.next))) {
          canEnd.add(node.key);
          changed = true;
        }
      }
    }
    for (const node of nodes) {
      if (!reachable.has(node.key) || canEnd.has(node.key) || !onCycle(node.key, byKey)) continue;
      add(node.key, `节点「${node.name}」所在的循环没有出口（到不了转人工或挂机）`);
    }
  }
  return problems;
}

function onCycle(start: string, byKey: Map<string, FlowNode>): boolean {
  const seen = new Set<string>();
  const stack = exitsOf(byKey.get(start)!).map((exit) => exit.next);
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (key === start) return true;
    if (seen.has(key) || !byKey.has(key)) continue;
    seen.add(key);
    for (const exit of exitsOf(byKey.get(key)!)) stack.push(exit.next);
  }
  return false;
}

/** Which intent a listen node hears in a sentence: the longest of its words found in it. */
export function recognise(node: FlowNode, sentence: string): { intent: string; keyword: string; next: string } | null {
  let best: { intent: string; keyword: string; next: string } | null = null;
  for (const route of node.intents) {
    const words = route.keywords.length > 0 ? route.keywords : (DEFAULT_INTENT_KEYWORDS[route.intent] ?? []);
    for (const word of words) {
      if (word && sentence.includes(word) && (!best || word.length > best.keyword.length))
        best = { intent: route.intent, keyword: word, next: route.next };
    }
  }
  return best;
}

/** A prompt with {variable} filled from the call's parameters (unknown ones stay as written). */
export function fillPrompt(prompt: string, params: Record<string, unknown>): string {
  return prompt.replace(/\{([^{}\s]{1,30})\}/g, (whole, name: string) =>
    params[name] === undefined || params[name] === null ? whole : String(params[name]),
  );
}

/** Where a branch node goes for these parameters. */
export function branchNext(node: FlowNode, params: Record<string, unknown>): string {
  const hit = node.branches.find((route) => String(params[route.variable] ?? "") === route.value);
  return hit ? hit.next : node.otherNext;
}

export type WalkLine = { role: "robot" | "customer"; content: string; nluResult: string | null };

/**
 * A connected call through a design: the robot says each prompt; at a listen node the customer
 * says the sentence of `intent` (what this customer means) and the node hears what it can.
 * Bounded, so a loop the customer never leaves still ends.
 */
export function walkFlow(
  nodes: FlowNode[],
  intent: string,
  params: Record<string, unknown>,
): { lines: WalkLine[]; end: "transfer" | "hangup" | "stopped"; endNode: FlowNode | null } {
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const lines: WalkLine[] = [];
  let node = nodes[0];
  for (let step = 0; node && step < 30; step++) {
    const say = fillPrompt(node.prompt, params);
    if (say) lines.push({ role: "robot", content: say, nluResult: null });
    if (node.type === "transfer" || node.type === "hangup") return { lines, end: node.type, endNode: node };
    let next = node.next;
    if (node.type === "listen") {
      const sentence = SAMPLE_SENTENCES[intent] ?? "嗯。";
      const heard = recognise(node, sentence);
      lines.push({ role: "customer", content: sentence, nluResult: heard?.intent ?? null });
      next = heard ? heard.next : node.otherNext;
    } else if (node.type === "branch") {
      next = branchNext(node, params);
    }
    node = byKey.get(next)!;
  }
  return { lines, end: "stopped", endNode: null };
}

const nodeType = (type: string) => labelOf(FLOW_NODE_TYPES, type);
/** The fields a reviewer compares, as text. */
function describe(node: FlowNode): Array<{ label: string; value: string }> {
  return [
    { label: "类型", value: nodeType(node.type) },
    { label: "名称", value: node.name },
    { label: "话术", value: node.prompt },
    { label: "下一节点", value: node.type === "speak" ? node.next : "" },
    {
      label: "意图",
      value: node.intents
        .map((r) => `${intentLabel(r.intent)}${r.keywords.length ? `（${r.keywords.join("、")}）` : ""} → ${r.next}`)
        .join("；"),
    },
    { label: "条件", value: node.branches.map((r) => `${r.variable} = ${r.value} → ${r.next}`).join("；") },
    { label: "其他去向", value: node.otherNext },
    { label: "转人工队列", value: node.type === "transfer" ? (node.queueName ?? "") : "" },
  ];
}

/** What changed from `before` (the version in service) to `after`, node by node (by key), in `after`'s order. */
export function diffDesigns(before: FlowNode[], after: FlowNode[]): FlowDiffChange[] {
  const old = new Map(before.map((node) => [node.key, node]));
  const keys = new Set(after.map((node) => node.key));
  const changes: FlowDiffChange[] = [];
  for (const node of after) {
    const was = old.get(node.key);
    const now = describe(node);
    if (!was) {
      changes.push({
        nodeKey: node.key,
        nodeName: node.name,
        kind: "added",
        fields: now.filter((f) => f.value).map((f) => ({ label: f.label, before: "", after: f.value })),
      });
      continue;
    }
    const then = describe(was);
    const fields = now.flatMap((f, i) => (f.value === then[i].value ? [] : [{ label: f.label, before: then[i].value, after: f.value }]));
    if (fields.length > 0) changes.push({ nodeKey: node.key, nodeName: node.name, kind: "changed", fields });
  }
  for (const node of before) {
    if (!keys.has(node.key))
      changes.push({
        nodeKey: node.key,
        nodeName: node.name,
        kind: "removed",
        fields: describe(node)
          .filter((f) => f.value)
          .map((f) => ({ label: f.label, before: f.value, after: "" })),
      });
  }
  return changes;
}

/** A new flow's first draft: greet, ask, and end either way. */
export function starterDesign(): FlowNode[] {
  return [
    { key: "start", type: "speak", name: "开场白", prompt: "您好，我是智能客服。", next: "ask", intents: [], branches: [], otherNext: "" },
    {
      key: "ask",
      type: "listen",
      name: "询问意向",
      prompt: "请问您是否需要办理？",
      next: "",
      intents: [
        { intent: "CONFIRM", keywords: [], next: "agent" },
        { intent: "NO_INTENTION", keywords: [], next: "bye" },
      ],
      branches: [],
      otherNext: "bye",
    },
    {
      key: "agent",
      type: "transfer",
      name: "转人工",
      prompt: "正在为您转接人工客服，请稍候。",
      next: "",
      intents: [],
      branches: [],
      otherNext: "",
    },
    { key: "bye", type: "hangup", name: "结束", prompt: "感谢您的接听，再见。", next: "", intents: [], branches: [], otherNext: "" },
  ];
}
