import { describe, expect, test } from "vitest";
import type { FlowNode } from "#contracts/robot";
import { BRANCH_ROWS, INTENT_ROWS, editNodes, nodeFormValue, nodeName, nodeOfForm, type NodeFormValue } from "./node-edits";

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

const listen: FlowNode = {
  ...node("ask", "询问意向"),
  type: "listen",
  prompt: "请问您要办理吗？",
  intents: [
    { intent: "CONFIRM", keywords: ["确认办理", "好的"], next: "agent" },
    { intent: "NO_INTENTION", keywords: [], next: "end" },
  ],
  otherNext: "ask",
};
const blankIntent = { intent: "", keywords: "", next: "" };
const blankBranch = { variable: "", value: "", next: "" };

describe("nodeFormValue", () => {
  test("the node's fields and routes, keywords joined, blank rows up to the form's count", () => {
    const value = nodeFormValue(listen);
    expect(value).toMatchObject({
      key: "ask",
      type: "listen",
      name: "询问意向",
      prompt: "请问您要办理吗？",
      otherNext: "ask",
      queueName: "",
    });
    expect(value.intents).toEqual([
      { intent: "CONFIRM", keywords: "确认办理，好的", next: "agent" },
      { intent: "NO_INTENTION", keywords: "", next: "end" },
      blankIntent,
      blankIntent,
    ]);
    expect(value.branches).toEqual(Array.from({ length: BRANCH_ROWS }, () => blankBranch));
  });

  test("a node with more routes than the form's rows shows them all", () => {
    const many = { ...listen, intents: Array.from({ length: INTENT_ROWS + 2 }, () => ({ intent: "CONFIRM", keywords: [], next: "" })) };
    expect(nodeFormValue(many).intents).toHaveLength(INTENT_ROWS + 2);
  });
});

describe("nodeOfForm", () => {
  const form = (change: Partial<NodeFormValue>): NodeFormValue => ({ ...nodeFormValue(listen), ...change });

  test("the form as shown is the node as it was", () => {
    expect(nodeOfForm(nodeFormValue(listen))).toEqual({ node: listen });
  });

  test("empty rows are no route; keywords split at commas, 、 and spaces; a queue only for a transfer", () => {
    const read = nodeOfForm(
      form({
        intents: [blankIntent, { intent: "CONFIRM", keywords: "办理, 好、行  可以", next: "end" }, blankIntent, blankIntent],
        queueName: "售后",
      }),
    );
    expect("node" in read && read.node.intents).toEqual([{ intent: "CONFIRM", keywords: ["办理", "好", "行", "可以"], next: "end" }]);
    expect("node" in read && read.node.queueName).toBeUndefined();
    const transfer = nodeOfForm(form({ type: "transfer", queueName: "售后" }));
    expect("node" in transfer && transfer.node.queueName).toBe("售后");
    const branch = nodeOfForm(
      form({
        type: "branch",
        branches: [{ variable: "level", value: "VIP", next: "agent" }, { variable: "", value: "x", next: "end" }, blankBranch],
      }),
    );
    expect("node" in branch && branch.node.branches).toEqual([{ variable: "level", value: "VIP", next: "agent" }]);
  });

  test("a problem of a route is named on its row's field, not the route's index in the node", () => {
    const read = nodeOfForm(
      form({
        name: "",
        intents: [
          blankIntent,
          blankIntent,
          { intent: "nonsense", keywords: "一二三四五六七八九十一二三四五六七八九十一", next: "" },
          blankIntent,
        ],
      }),
    );
    expect(read).toEqual({
      issues: [
        { path: ["name"], message: "请填写节点名称" },
        { path: ["intents", 2, "intent"], message: "意图无效" },
        { path: ["intents", 2, "keywords"], message: "关键词不能超过20个字符" },
      ],
    });
  });

  test("a problem of the whole route list is the form's own", () => {
    const many = form({ intents: Array.from({ length: 11 }, () => ({ intent: "CONFIRM", keywords: "", next: "" })) });
    expect(nodeOfForm(many)).toEqual({ issues: [{ path: [], message: "每个节点最多10个意图" }] });
  });
});
