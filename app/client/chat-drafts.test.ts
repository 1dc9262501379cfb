import { describe, expect, it } from "vitest";
import { readDrafts, readPendingReplies, writeDrafts, writePendingReplies, type PendingReply } from "./chat-drafts";

describe("chat drafts kept across a reload", () => {
  it("stores only drafts with text and gives back those of sessions still open", () => {
    const stored = writeDrafts({ a: "您好，请稍候", b: "", c: "已结束的会话" });
    expect(JSON.parse(stored)).toEqual({ a: "您好，请稍候", c: "已结束的会话" });
    expect(readDrafts(stored, ["a", "b"])).toEqual({ a: "您好，请稍候" });
  });

  it("treats nothing stored or damaged data as no drafts", () => {
    expect(readDrafts(null, ["a"])).toEqual({});
    expect(readDrafts("{not json", ["a"])).toEqual({});
    expect(readDrafts("[1,2]", ["0"])).toEqual({});
    expect(readDrafts(JSON.stringify({ a: 42 }), ["a"])).toEqual({});
  });
});

describe("pending replies kept across a reload", () => {
  const reply = (sessionId: string, clientId: string, content: string): PendingReply => ({
    sessionId,
    clientId,
    content,
    at: "2026-11-22T08:00:00.000Z",
  });

  it("gives back, in order, the replies of open sessions that the platform has not stored", () => {
    const stored = writePendingReplies([
      reply("a", "1", "第一句"),
      reply("b", "2", "已结束的会话"),
      reply("a", "3", "第二句"),
      reply("a", "4", "已送达"),
    ]);
    const open = [{ sessionId: "a", storedClientIds: ["4"] }];
    expect(readPendingReplies(stored, open)).toEqual([reply("a", "1", "第一句"), reply("a", "3", "第二句")]);
  });

  it("treats nothing stored or damaged data as nothing pending", () => {
    const open = [{ sessionId: "a", storedClientIds: [] }];
    expect(readPendingReplies(null, open)).toEqual([]);
    expect(readPendingReplies("{not json", open)).toEqual([]);
    expect(readPendingReplies(JSON.stringify({ a: 1 }), open)).toEqual([]);
    expect(readPendingReplies(JSON.stringify([{ sessionId: "a", clientId: 1, content: "x", at: "t" }, null]), open)).toEqual([]);
  });
});
