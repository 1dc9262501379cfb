import { describe, expect, it } from "vitest";
import { createOutbox, type SendResult } from "./outbox";

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe("an ordered outbox (chat replies)", () => {
  function setup(answers: Record<string, SendResult[]>, storage = memoryStorage()) {
    let clock = 0;
    const sent: string[] = [];
    const outbox = createOutbox<string>({
      storage,
      storageKey: "replies",
      ordered: true,
      newKey: () => "unused",
      now: () => clock,
      send: async (item) => {
        sent.push(item.payload);
        return answers[item.key]?.shift() ?? { kind: "saved" };
      },
    });
    return { outbox, storage, sent, tick: (ms: number) => (clock += ms) };
  }

  it("sends in order, and a reply waiting to be retried holds back the ones after it", async () => {
    const { outbox, sent, tick } = setup({ a: [{ kind: "retry", message: "网络已断开" }] });
    outbox.add("第一句", "a");
    outbox.add("第二句", "b");
    await outbox.flush();
    expect(sent).toEqual(["第一句"]);
    expect(outbox.waiting()).toBe(true);
    tick(1_000);
    await outbox.flush();
    expect(sent).toEqual(["第一句", "第一句", "第二句"]);
    expect(outbox.items()).toEqual([]);
  });

  it("keeps what is not sent across a reload, and forgets what the caller drops", async () => {
    const storage = memoryStorage();
    const first = setup({ a: [{ kind: "retry", message: "网络已断开" }] }, storage);
    first.outbox.add("第一句", "a");
    first.outbox.add("已结束的会话", "z");
    await first.outbox.flush();
    const next = setup({}, storage);
    expect(next.outbox.items().map((i) => [i.key, i.state])).toEqual([
      ["a", "pending"],
      ["z", "pending"],
    ]);
    next.outbox.drop((item) => item.key === "z");
    await next.outbox.flush(true);
    expect(next.sent).toEqual(["第一句"]);
  });

  it("treats nothing stored or damaged data as nothing pending", () => {
    const storage = memoryStorage();
    storage.setItem("replies", "{not json");
    expect(setup({}, storage).outbox.items()).toEqual([]);
    storage.setItem("replies", JSON.stringify({ a: 1 }));
    expect(setup({}, storage).outbox.items()).toEqual([]);
  });
});
