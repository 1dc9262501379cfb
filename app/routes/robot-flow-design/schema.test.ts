import { parseWithZod } from "@conform-to/zod";
import { describe, expect, test } from "vitest";
import { NodeFormSchema } from "./schema";

/** A node form as the browser posts it: conform's names for the rows (`intents[0].intent`). */
const posted = (fields: Record<string, string>) => {
  const form = new FormData();
  const all = {
    intent: "node.save",
    versionId: "3",
    updatedAt: "2026-01-01T00:00:00Z",
    key: "ask",
    type: "listen",
    name: "询问",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  return parseWithZod(form, { schema: NodeFormSchema });
};

describe("NodeFormSchema", () => {
  test("the rows posted become the node's routes, empty rows dropped", () => {
    const submission = posted({
      "intents[0].intent": "",
      "intents[0].keywords": "",
      "intents[0].next": "",
      "intents[1].intent": "CONFIRM",
      "intents[1].keywords": "办理，好的",
      "intents[1].next": "end",
      otherNext: "ask",
    });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.node).toMatchObject({
      key: "ask",
      intents: [{ intent: "CONFIRM", keywords: ["办理", "好的"], next: "end" }],
      otherNext: "ask",
    });
  });

  test("a refused row's error is on that row's field, and the reply gives back every row as typed", () => {
    const submission = posted({ "intents[0].intent": "", "intents[1].intent": "BOGUS", "intents[1].keywords": "好的" });
    expect(submission.status).toBe("error");
    const reply = submission.reply();
    expect(reply.error).toEqual({ "intents[1].intent": ["意图无效"] });
    // Empty fields come back empty (conform leaves them out): the row is still there, blank.
    expect(reply.initialValue?.intents).toEqual([undefined, { intent: "BOGUS", keywords: "好的" }]);
  });
});
