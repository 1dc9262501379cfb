import { describe, expect, it } from "vitest";
import { readDrafts, writeDrafts } from "./chat-drafts";

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
