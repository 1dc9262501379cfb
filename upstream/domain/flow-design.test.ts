import { describe, expect, it } from "vitest";
import type { FlowNode } from "#contracts/robot";
import { diffDesigns, recognise, starterDesign, validateDesign, walkFlow } from "./flow-design";

const node = (key: string, type: FlowNode["type"], extra: Partial<FlowNode> = {}): FlowNode => ({
  key,
  type,
  name: `节点${key}`,
  prompt: type === "branch" ? "" : `话术${key}`,
  next: "",
  intents: [],
  branches: [],
  otherNext: "",
  ...extra,
});
const messages = (nodes: FlowNode[]) => validateDesign(nodes).map((p) => p.message);

describe("a flow design's validation", () => {
  it("finds nothing wrong with the starter design", () => {
    expect(validateDesign(starterDesign())).toEqual([]);
  });

  it("names a dangling route, a route to a missing node, and an unreachable node", () => {
    const nodes = [node("a", "speak", { next: "" }), node("b", "speak", { next: "zz" }), node("c", "hangup")];
    expect(messages(nodes)).toEqual([
      "节点「节点a」的下一节点没有设置去向",
      "节点「节点b」的下一节点指向不存在的节点「zz」",
      "节点「节点b」从开始节点无法到达",
      "节点「节点c」从开始节点无法到达",
    ]);
  });

  it("requires an end node", () => {
    expect(messages([node("a", "speak", { next: "a" })])).toContain("流程没有结束节点（转人工或挂机）");
  });

  it("finds a loop with no way out even when the flow has an end elsewhere", () => {
    const nodes = [
      node("a", "listen", { intents: [{ intent: "CONFIRM", keywords: [], next: "b" }], otherNext: "end" }),
      node("b", "speak", { next: "c" }),
      node("c", "speak", { next: "b" }),
      node("end", "hangup"),
    ];
    expect(messages(nodes)).toEqual([
      "节点「节点b」所在的循环没有出口（到不了转人工或挂机）",
      "节点「节点c」所在的循环没有出口（到不了转人工或挂机）",
    ]);
  });

  it("accepts a loop that has a way out", () => {
    const nodes = [
      node("a", "listen", { intents: [{ intent: "ASK_FEE", keywords: [], next: "fee" }], otherNext: "end" }),
      node("fee", "speak", { next: "a" }),
      node("end", "hangup"),
    ];
    expect(messages(nodes)).toEqual([]);
  });
});

describe("the NLU and the walk", () => {
  it("hears the longest word, or a node's own words instead of the defaults", () => {
    const ask = starterDesign()[1];
    expect(recognise(ask, "好的，我要确认办理")).toMatchObject({ intent: "CONFIRM", keyword: "确认办理", next: "agent" });
    expect(recognise(ask, "今天天气")).toBeNull();
    const own = { ...ask, intents: [{ intent: "CONFIRM", keywords: ["要的"], next: "agent" }] };
    expect(recognise(own, "好的")).toBeNull();
    expect(recognise(own, "要的要的")?.intent).toBe("CONFIRM");
  });

  it("speaks the prompts with the call's parameters, and follows what the customer says", () => {
    const nodes = starterDesign().map((n) => (n.key === "start" ? { ...n, prompt: "{customerName}您好" } : n));
    const walk = walkFlow(nodes, "CONFIRM", { customerName: "王先生" });
    expect(walk.end).toBe("transfer");
    expect(walk.lines.map((l) => l.content)).toEqual([
      "王先生您好",
      "请问您是否需要办理？",
      "好的，确认办理。",
      "正在为您转接人工客服，请稍候。",
    ]);
    expect(walk.lines[2]).toMatchObject({ role: "customer", nluResult: "CONFIRM" });
    expect(walkFlow(nodes, "NO_INTENTION", {}).end).toBe("hangup");
  });

  it("diffs two designs node by node", () => {
    const before = starterDesign();
    const after = before.filter((n) => n.key !== "agent").map((n) => (n.key === "start" ? { ...n, prompt: "新开场白" } : n));
    const changes = diffDesigns(before, after);
    expect(changes.map((c) => [c.nodeKey, c.kind])).toEqual([
      ["start", "changed"],
      ["agent", "removed"],
    ]);
    expect(changes[0].fields).toEqual([{ label: "话术", before: "您好，我是智能客服。", after: "新开场白" }]);
  });
});
