import { describe, expect, it } from "vitest";
import { initialSessions, neighbourId, sessionsReducer, unreadCount, type SessionsState, type WorkbenchSession } from "./chat-sessions";

const customer = { name: "客户", phone: "13800000000", channel: "网页", region: "上海" };
const dialog = (id: string, role: "user" | "agent" = "user", extra = {}) => ({
  id,
  role,
  content: `话${id}`,
  at: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const session = (sessionId: string, dialogs = [dialog(`${sessionId}-1`)]): WorkbenchSession => ({
  sessionId,
  role: "user",
  dialogs,
  isDot: false,
  customer,
  createdAt: "2026-01-01T00:00:00.000Z",
});
const two = (): SessionsState => initialSessions([session("a"), session("b")]);
const ids = (state: SessionsState) => state.sessions.map((s) => s.sessionId);

describe("spec §4 text chat session rules", () => {
  it("a new session is added", () => {
    const state = sessionsReducer(two(), { type: "add", session: session("c") });
    expect(ids(state)).toEqual(["a", "b", "c"]);
    // The first session to arrive opens by itself.
    expect(sessionsReducer(initialSessions([]), { type: "add", session: session("c") }).openId).toBe("c");
  });

  it("a duplicate add is ignored", () => {
    const before = two();
    const state = sessionsReducer(before, { type: "add", session: session("a", []) });
    expect(state).toBe(before);
    expect(state.sessions[0].dialogs).toHaveLength(1);
  });

  it("an update appends dialogs", () => {
    const state = sessionsReducer(two(), { type: "update", sessionId: "a", role: "user", dialogs: [dialog("a-2"), dialog("a-3")] });
    expect(state.sessions[0].dialogs.map((d) => d.id)).toEqual(["a-1", "a-2", "a-3"]);
    // A replayed event carries dialogs already shown: they are not shown twice.
    const again = sessionsReducer(state, { type: "update", sessionId: "a", role: "user", dialogs: [dialog("a-3")] });
    expect(again.sessions[0].dialogs).toHaveLength(3);
  });

  it("an unread mark is set when the user speaks in a session that is not open", () => {
    const state = sessionsReducer(two(), { type: "update", sessionId: "b", role: "user", dialogs: [dialog("b-2")] });
    expect(state.openId).toBe("a");
    expect(state.sessions[1].isDot).toBe(true);
    expect(unreadCount(state)).toBe(1);
  });

  it("otherwise the unread mark is cleared", () => {
    const marked = sessionsReducer(two(), { type: "update", sessionId: "b", role: "user", dialogs: [dialog("b-2")] });
    // The agent speaking in it clears it ...
    const agentSpoke = sessionsReducer(marked, { type: "update", sessionId: "b", role: "agent", dialogs: [dialog("b-3", "agent")] });
    expect(agentSpoke.sessions[1].isDot).toBe(false);
    // ... the user speaking in the open session sets none ...
    const inOpen = sessionsReducer(two(), { type: "update", sessionId: "a", role: "user", dialogs: [dialog("a-2")] });
    expect(inOpen.sessions[0].isDot).toBe(false);
    // ... and opening the session reads it.
    const opened = sessionsReducer(marked, { type: "open", sessionId: "b" });
    expect(opened.sessions[1].isDot).toBe(false);
    expect(unreadCount(opened)).toBe(0);
  });

  it("the agent can close a session: it leaves the current list and is recorded as closed", () => {
    const state = sessionsReducer(two(), { type: "close", sessionId: "a" });
    expect(ids(state)).toEqual(["b"]);
    expect(state.closedIds).toEqual(["a"]);
    // The neighbour of the closed open session opens.
    expect(state.openId).toBe("b");
    const none = sessionsReducer(state, { type: "close", sessionId: "b" });
    expect(none.openId).toBeNull();
    expect(none.closedIds).toEqual(["a", "b"]);
  });

  it("an update for an unknown session is ignored", () => {
    const before = two();
    expect(sessionsReducer(before, { type: "update", sessionId: "zz", role: "user", dialogs: [dialog("z")] })).toBe(before);
  });

  it("a delete for an unknown session is ignored", () => {
    const before = two();
    expect(sessionsReducer(before, { type: "delete", sessionId: "zz" })).toBe(before);
    // A known one leaves the list without being recorded as closed by the agent.
    const state = sessionsReducer(before, { type: "delete", sessionId: "b" });
    expect(ids(state)).toEqual(["a"]);
    expect(state.closedIds).toEqual([]);
  });
});

describe("working fast", () => {
  it("a pending message is replaced by its stored copy, once", () => {
    const pending = sessionsReducer(two(), {
      type: "update",
      sessionId: "a",
      role: "agent",
      dialogs: [dialog("local-1", "agent", { clientId: "c1", pending: true })],
    });
    const stored = dialog("99", "agent", { clientId: "c1" });
    const sent = sessionsReducer(pending, { type: "sent", sessionId: "a", dialog: stored });
    // The platform's own event for it arrives too: still one copy.
    const echoed = sessionsReducer(sent, { type: "update", sessionId: "a", role: "agent", dialogs: [stored] });
    expect(echoed.sessions[0].dialogs.map((d) => [d.id, d.pending ?? false])).toEqual([
      ["a-1", false],
      ["99", false],
    ]);
  });

  it("keeps the platform's order when a replay arrives after a pending message was stored", () => {
    const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
    let state = sessionsReducer(two(), {
      type: "update",
      sessionId: "a",
      role: "agent",
      dialogs: [{ ...dialog("local", "agent", { clientId: "c1", pending: true }), at: at(5) }],
    });
    // The reply is stored (at 4) before the replay brings the customer's line said offline (at 3).
    state = sessionsReducer(state, { type: "sent", sessionId: "a", dialog: { ...dialog("12", "agent", { clientId: "c1" }), at: at(4) } });
    state = sessionsReducer(state, { type: "update", sessionId: "a", role: "user", dialogs: [{ ...dialog("11"), at: at(3) }] });
    expect(state.sessions[0].dialogs.map((d) => d.id)).toEqual(["a-1", "11", "12"]);
  });

  it("a refused pending message leaves the conversation", () => {
    const pending = sessionsReducer(two(), {
      type: "update",
      sessionId: "a",
      role: "agent",
      dialogs: [dialog("local-1", "agent", { clientId: "c1", pending: true })],
    });
    const refused = sessionsReducer(pending, { type: "unsent", sessionId: "a", clientId: "c1" });
    expect(refused.sessions[0].dialogs.map((d) => d.id)).toEqual(["a-1"]);
  });

  it("moves between sessions, wrapping round", () => {
    const state = initialSessions([session("a"), session("b"), session("c")]);
    expect(neighbourId(state, 1)).toBe("b");
    expect(neighbourId(state, -1)).toBe("c");
    expect(neighbourId(initialSessions([]), 1)).toBeNull();
  });
});
