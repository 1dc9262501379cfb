/**
 * A text agent's unsent replies, kept across a reload of the tab. sessionStorage, not
 * localStorage: drafts never outlive the tab, so they never reach the next person at a shared desk.
 */
export const DRAFTS_KEY = "sb-chat-drafts";

/** The stored drafts of the sessions still open; closed sessions' drafts and bad data are dropped. */
export function readDrafts(stored: string | null, openIds: readonly string[]): Record<string, string> {
  try {
    const all: unknown = JSON.parse(stored ?? "{}");
    if (!all || typeof all !== "object") return {};
    return Object.fromEntries(Object.entries(all).filter(([id, text]) => openIds.includes(id) && typeof text === "string" && text !== ""));
  } catch {
    return {};
  }
}

/** What to store: the drafts that have text. */
export const writeDrafts = (drafts: Record<string, string>): string => JSON.stringify(Object.fromEntries(Object.entries(drafts).filter(([, text]) => text !== "")));
