/**
 * What a text agent has written and the platform has not stored yet is kept across a reload of
 * the tab: the replies being written (here), and the replies sent while the platform could not be
 * reached (the chat's outbox, in text-work-bench/use-chat-outbox.ts). sessionStorage, not
 * localStorage: none of it outlives the tab, so it never reaches the next person at a shared desk.
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
