import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkedPayloads } from "./event-stream.server";

const at = "2026-11-28T12:00:00.000Z";
const shown = checkedPayloads({ "chat.session.close": z.object({ sessionId: z.string() }) });

describe("checkedPayloads: what an island's stream relays, checked by the console", () => {
  it("relays a payload its type's schema reads, as parsed", () => {
    const close = { id: 1, type: "chat.session.close", at, payload: { sessionId: "s-1", extra: "dropped" } };
    expect(shown(close)).toEqual({ ...close, payload: { sessionId: "s-1" } });
  });

  it("drops a payload its type's schema refuses", () => {
    expect(shown({ id: 2, type: "chat.session.close", at, payload: { sessionId: 7 } })).toBeNull();
  });

  it("relays a type it has no schema for as it is", () => {
    const other = { id: 3, type: "chat.message", at, payload: { text: "您好" } };
    expect(shown(other)).toBe(other);
  });
});
