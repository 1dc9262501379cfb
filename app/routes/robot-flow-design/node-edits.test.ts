import { describe, expect, test } from "vitest";
import type { FlowNode } from "#contracts/robot";
import { editNodes, nodeName } from "./node-edits";

const node = (key: string, name: string, next = ""): FlowNode => ({
  key,
  type: "speak",
  name,
  prompt: "",
  next,
  intents: [],
  branches: [],
  otherNext: "",
});
const flow = () => [node("start", "开场", "ask"), node("ask", "询问", "end"), node("end", "结束")];
const keys = (edited: ReturnType<typeof editNodes>) => ("nodes" in edited ? edited.nodes.map((n) => n.key) : edited);

describe("editNodes", () => {
  test("a saved node takes its place, the others stay as they were", () => {
    const nodes = flow();
    const saved = { ...node("ask", "再次询问", "start"), prompt: "您好" };
    const edited = editNodes(nodes, { intent: "node.save", node: saved });
    expect(edited).toEqual({ nodes: [nodes[0], saved, nodes[2]], toast: "节点「再次询问」已保存" });
    expect(nodes[1].name).toBe("询问");
  });

  test("a node is added at the end, empty, unless its key is taken", () => {
    const edited = editNodes(flow(), { intent: "node.add", key: "bye", type: "hangup", name: "挂断" });
    expect(keys(edited)).toEqual(["start", "ask", "end", "bye"]);
    expect("nodes" in edited && edited.nodes[3]).toEqual({
      key: "bye",
      type: "hangup",
      name: "挂断",
      prompt: "",
      next: "",
      intents: [],
      branches: [],
      otherNext: "",
    });
    expect("toast" in edited && edited.toast).toBe("已添加节点「挂断」，请填写它的话术和去向");
    expect(editNodes(flow(), { intent: "node.add", key: "ask", type: "speak", name: "重复" })).toEqual({
      refused: { fieldErrors: { key: ["节点编号「ask」已存在"] } },
    });
  });

  test("a node made the first moves to the front; an unknown key changes nothing", () => {
    expect(keys(editNodes(flow(), { intent: "node.first", key: "end" }))).toEqual(["end", "start", "ask"]);
    const unknown = editNodes(flow(), { intent: "node.first", key: "gone" });
    expect(keys(unknown)).toEqual(["start", "ask", "end"]);
    expect("toast" in unknown && unknown.toast).toBe("「gone」已设为开始节点");
  });

  test("a deleted node leaves the list, links to it stay for the design check; the last node cannot go", () => {
    const edited = editNodes(flow(), { intent: "node.delete", key: "ask" });
    expect(keys(edited)).toEqual(["start", "end"]);
    expect("nodes" in edited && edited.nodes[0].next).toBe("ask");
    expect("toast" in edited && edited.toast).toBe("节点「询问」已删除");
    expect(editNodes([node("only", "唯一")], { intent: "node.delete", key: "only" })).toEqual({
      refused: { formErrors: ["流程至少需要一个节点"] },
    });
  });
});

describe("nodeName", () => {
  test("the node's name, or its key when there is no such node", () => {
    expect(nodeName(flow(), "end")).toBe("结束");
    expect(nodeName(flow(), "gone")).toBe("gone");
  });
});
