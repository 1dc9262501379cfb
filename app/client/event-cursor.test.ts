import { describe, expect, it } from "vitest";
import { createEventCursor } from "./event-cursor";

const event = (id: number) => ({ id, type: "chat.message", at: "", payload: {} });

describe("event cursor", () => {
  it("accepts new events in order and remembers the newest id", () => {
    const cursor = createEventCursor(10);
    expect([11, 12, 13].map((id) => cursor.accept(event(id)))).toEqual([true, true, true]);
    expect(cursor.lastId).toBe(13);
  });
  it("drops events already seen, so a replay never shows a message twice", () => {
    const cursor = createEventCursor(10);
    cursor.accept(event(11));
    cursor.accept(event(12));
    expect([11, 12, 13].map((id) => cursor.accept(event(id)))).toEqual([false, false, true]);
  });
  it("drops events from before the page was rendered", () => {
    expect(createEventCursor(10).accept(event(9))).toBe(false);
  });
});
