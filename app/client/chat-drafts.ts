/**
 * What a text agent has written and the platform has not stored yet, kept across a reload of the
 * tab: the replies being written, and the replies sent while the platform could not be reached.
 * sessionStorage, not localStorage: none of it outlives the tab, so it never reaches the next
 * person at a shared desk.
 */
export const DRAFTS_KEY = "sb-chat-drafts";
export const PENDING_KEY = "sb-chat-pending";

function parse(stored: string | null): unknown {
  try {
    return JSON.parse(stored ?? "null");
  } catch {
    return null;
  }
}

/** The stored drafts of the sessions still open; closed sessions' drafts and bad data are dropped. */
export function readDrafts(stored: string | null, openIds: readonly string[]): Record<string, string> {
  const all = parse(stored);
  if (!all || typeof all !== "object") return {};
  return Object.fromEntries(Object.entries(all).filter(([id, text]) => openIds.includes(id) && typeof text === "string" && text !== ""));
}

/** What to store: the drafts that have text. */
export const writeDrafts = (drafts: Record<string, string>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(drafts).filter(([, text]) => text !== "")));

/** A reply sent but not yet stored by the platform; resent with its client id, it is stored once. */
export type PendingReply = { sessionId: string; clientId: string; content: string; at: string };

const isPendingReply = (item: unknown): item is PendingReply =>
  !!item &&
  typeof item === "object" &&
  ["sessionId", "clientId", "content", "at"].every((key) => typeof (item as Record<string, unknown>)[key] === "string");

/**
 * The stored pending replies, in the order they were sent, of the sessions still open and not
 * already stored by the platform (the answer to a send can be lost to a reload).
 */
export function readPendingReplies(
  stored: string | null,
  open: ReadonlyArray<{ sessionId: string; storedClientIds: readonly string[] }>,
): PendingReply[] {
  const all = parse(stored);
  if (!Array.isArray(all)) return [];
  return all.filter(isPendingReply).filter((reply) => {
    const session = open.find((s) => s.sessionId === reply.sessionId);
    return session !== undefined && !session.storedClientIds.includes(reply.clientId);
  });
}

export const writePendingReplies = (replies: readonly PendingReply[]): string => JSON.stringify(replies);
