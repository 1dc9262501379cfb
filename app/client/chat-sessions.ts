import type { ChatCustomer, ChatDialog, ChatRole } from "#contracts/chat";

/**
 * The text workbench's sessions, as spec §4 "Text chat session" says, in one pure reducer:
 * - A new session is added. A duplicate add is ignored.
 * - An update appends dialogs. An unread mark (isDot) is set when the user speaks in a session
 *   that is not open, otherwise it is cleared.
 * - The agent can close a session. It leaves the current list and is recorded as closed.
 * - An update or delete for an unknown session is ignored.
 * Our additions: dialogs are appended once (a replayed event carries ones already shown) and kept
 * in the platform's order, and an agent's message waits as `pending`, last, until the platform has it.
 */

export type WorkbenchDialog = ChatDialog & { pending?: boolean };

export type WorkbenchSession = {
  sessionId: string;
  /** Who spoke last. */
  role: ChatRole;
  dialogs: WorkbenchDialog[];
  /** The unread marker. */
  isDot: boolean;
  customer: ChatCustomer;
  createdAt: string;
};

export type SessionsState = {
  sessions: WorkbenchSession[];
  openId: string | null;
  /** Sessions the agent closed, most recent last. */
  closedIds: string[];
};

export type SessionAction =
  | { type: "add"; session: WorkbenchSession }
  | { type: "update"; sessionId: string; role: ChatRole; dialogs: WorkbenchDialog[] }
  | { type: "open"; sessionId: string }
  | { type: "close"; sessionId: string }
  | { type: "delete"; sessionId: string }
  /** The platform stored a pending message: it replaces the pending copy. */
  | { type: "sent"; sessionId: string; dialog: ChatDialog }
  /** The platform refused a pending message: it goes (its text returns to the reply box). */
  | { type: "unsent"; sessionId: string; clientId: string };

export function initialSessions(sessions: WorkbenchSession[]): SessionsState {
  return { sessions, openId: sessions[0]?.sessionId ?? null, closedIds: [] };
}

const sameDialog = (a: WorkbenchDialog, b: WorkbenchDialog) => a.id === b.id || (!!a.clientId && a.clientId === b.clientId);

function appendDialogs(existing: WorkbenchDialog[], incoming: WorkbenchDialog[]): WorkbenchDialog[] {
  let dialogs = existing;
  for (const dialog of incoming) {
    const at = dialogs.findIndex((d) => sameDialog(d, dialog));
    if (at === -1) dialogs = [...dialogs, dialog];
    // The stored copy of a message still shown as pending takes its place.
    else if (dialogs[at].pending && !dialog.pending) dialogs = dialogs.map((d, i) => (i === at ? dialog : d));
  }
  // The platform's order (by time) for what it has stored, whatever order events came in;
  // messages still pending come last.
  return [...dialogs].sort((a, b) => Number(!!a.pending) - Number(!!b.pending) || (a.pending ? 0 : a.at.localeCompare(b.at)));
}

function withoutSession(state: SessionsState, sessionId: string): SessionsState {
  const index = state.sessions.findIndex((s) => s.sessionId === sessionId);
  const sessions = state.sessions.filter((s) => s.sessionId !== sessionId);
  // Closing the open session opens its neighbour, so the agent can go on without a click.
  const openId = state.openId === sessionId ? (sessions[Math.min(index, sessions.length - 1)]?.sessionId ?? null) : state.openId;
  return { ...state, sessions, openId };
}

/** The open session is being read: its marker goes. */
function markRead(sessions: WorkbenchSession[], openId: string | null): WorkbenchSession[] {
  return sessions.map((s) => (s.sessionId === openId && s.isDot ? { ...s, isDot: false } : s));
}

export function sessionsReducer(state: SessionsState, action: SessionAction): SessionsState {
  const known = "sessionId" in action ? state.sessions.some((s) => s.sessionId === action.sessionId) : true;
  switch (action.type) {
    case "add": {
      if (state.sessions.some((s) => s.sessionId === action.session.sessionId)) return state;
      const sessions = [...state.sessions, action.session];
      return { ...state, sessions, openId: state.openId ?? action.session.sessionId };
    }
    case "update": {
      if (!known) return state;
      return {
        ...state,
        sessions: state.sessions.map((s) =>
          s.sessionId === action.sessionId
            ? {
                ...s,
                role: action.role,
                dialogs: appendDialogs(s.dialogs, action.dialogs),
                isDot: action.role === "user" && s.sessionId !== state.openId,
              }
            : s,
        ),
      };
    }
    case "open":
      if (!known) return state;
      return { ...state, openId: action.sessionId, sessions: markRead(state.sessions, action.sessionId) };
    case "close": {
      if (!known) return state;
      const next = withoutSession(state, action.sessionId);
      return {
        ...next,
        sessions: markRead(next.sessions, next.openId),
        closedIds: state.closedIds.includes(action.sessionId) ? state.closedIds : [...state.closedIds, action.sessionId],
      };
    }
    case "delete": {
      if (!known) return state;
      const next = withoutSession(state, action.sessionId);
      return { ...next, sessions: markRead(next.sessions, next.openId) };
    }
    case "sent":
      if (!known) return state;
      return {
        ...state,
        sessions: state.sessions.map((s) =>
          s.sessionId === action.sessionId ? { ...s, dialogs: appendDialogs(s.dialogs, [action.dialog]) } : s,
        ),
      };
    case "unsent":
      if (!known) return state;
      return {
        ...state,
        sessions: state.sessions.map((s) =>
          s.sessionId === action.sessionId ? { ...s, dialogs: s.dialogs.filter((d) => !(d.pending && d.clientId === action.clientId)) } : s,
        ),
      };
  }
}

/** Sessions with a marker: the page title shows how many. */
export function unreadCount(state: SessionsState): number {
  return state.sessions.filter((s) => s.isDot).length;
}

/** The session `step` places after (1) or before (-1) the open one, wrapping round. */
export function neighbourId(state: SessionsState, step: 1 | -1): string | null {
  if (state.sessions.length === 0) return null;
  const at = state.sessions.findIndex((s) => s.sessionId === state.openId);
  const next = at === -1 ? 0 : (at + step + state.sessions.length) % state.sessions.length;
  return state.sessions[next].sessionId;
}
