/**
 * The conclusion outbox: a call's result is never lost. A submission is written to storage
 * (localStorage in the browser) with its idempotency key BEFORE it is sent, then sent until the
 * console answers that it is saved; a reload, a dropped network or a platform outage only delays
 * it. The platform honours the key, so a retry after a lost answer saves nothing twice.
 * Drafts (the form as typed, per call) live in the same storage until submitted.
 */

export type ConclusionDraft = {
  ctiCallId: string;
  phone: string;
  callResult: string;
  intent: string;
  remark: string;
  fields: Record<string, string>;
};

export type OutboxState = "pending" | "sending" | "saved" | "failed";

export type OutboxItem = {
  key: string;
  draft: ConclusionDraft;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: number;
  error: string | null;
};

/** What sending answered: saved, worth retrying (network, outage), or refused for good (invalid). */
export type SendResult = { kind: "saved" } | { kind: "retry"; message: string } | { kind: "refused"; message: string };

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const OUTBOX_KEY = "sb-conclusion-outbox";
const DRAFT_PREFIX = "sb-conclusion-draft:";
/** The call whose conclusion is still to be written, so a reload after the call still shows its form. */
const OPEN_KEY = "sb-conclusion-open";
/** Saved items are shown for a while, then forgotten. */
const KEEP_SAVED = 20;
const MAX_BACKOFF_MS = 30_000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, attempts - 1));
}

export function createOutbox(options: {
  storage: Store;
  send: (item: OutboxItem) => Promise<SendResult>;
  newKey: () => string;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const listeners = new Set<(items: OutboxItem[]) => void>();
  let flushing: Promise<void> | null = null;

  const read = (): OutboxItem[] => {
    try {
      const items = JSON.parse(options.storage.getItem(OUTBOX_KEY) ?? "[]") as OutboxItem[];
      // An item caught mid-send by a reload is simply pending again.
      return items.map((item) => (item.state === "sending" ? { ...item, state: "pending" } : item));
    } catch {
      return [];
    }
  };
  let items = read();

  const write = (next: OutboxItem[]) => {
    const saved = next.filter((i) => i.state === "saved");
    items = [...next.filter((i) => i.state !== "saved"), ...saved.slice(-KEEP_SAVED)];
    options.storage.setItem(OUTBOX_KEY, JSON.stringify(items));
    for (const listener of listeners) listener(items);
  };
  const update = (key: string, change: Partial<OutboxItem>) => write(items.map((i) => (i.key === key ? { ...i, ...change } : i)));

  async function flushOnce(): Promise<void> {
    for (const item of items.filter((i) => i.state === "pending" && i.nextAttemptAt <= now())) {
      update(item.key, { state: "sending" });
      let result: SendResult;
      try {
        result = await options.send(item);
      } catch (error) {
        result = { kind: "retry", message: error instanceof Error ? error.message : "发送失败" };
      }
      const attempts = item.attempts + 1;
      if (result.kind === "saved") update(item.key, { state: "saved", attempts, error: null });
      else if (result.kind === "refused") update(item.key, { state: "failed", attempts, error: result.message });
      else update(item.key, { state: "pending", attempts, error: result.message, nextAttemptAt: now() + backoffMs(attempts) });
    }
  }

  function openCall(): { ctiCallId: string; phone: string } | null {
    try {
      return JSON.parse(options.storage.getItem(OPEN_KEY) ?? "null") as { ctiCallId: string; phone: string } | null;
    } catch {
      return null;
    }
  }

  return {
    items: () => items,

    subscribe(listener: (items: OutboxItem[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Queues a conclusion (its key made now, kept across reloads) and forgets the call's draft. */
    submit(draft: ConclusionDraft): OutboxItem {
      const item: OutboxItem = { key: options.newKey(), draft, state: "pending", attempts: 0, nextAttemptAt: 0, error: null };
      write([...items.filter((i) => !(i.draft.ctiCallId === draft.ctiCallId && i.state === "failed")), item]);
      options.storage.removeItem(DRAFT_PREFIX + draft.ctiCallId);
      if (openCall()?.ctiCallId === draft.ctiCallId) options.storage.removeItem(OPEN_KEY);
      return item;
    },

    /** Sends what is due; concurrent calls share one pass. `force` ignores the backoff (network back). */
    flush(force = false): Promise<void> {
      if (force) write(items.map((i) => (i.state === "pending" ? { ...i, nextAttemptAt: 0 } : i)));
      flushing ??= flushOnce().finally(() => (flushing = null));
      return flushing;
    },

    /** Remembers the call to conclude (a new call replaces an older one; its draft stays stored). */
    open(call: { ctiCallId: string; phone: string }): void {
      options.storage.setItem(OPEN_KEY, JSON.stringify(call));
    },

    openCall,

    saveDraft(draft: ConclusionDraft): void {
      options.storage.setItem(DRAFT_PREFIX + draft.ctiCallId, JSON.stringify(draft));
    },

    loadDraft(ctiCallId: string): ConclusionDraft | null {
      try {
        const raw = options.storage.getItem(DRAFT_PREFIX + ctiCallId);
        return raw ? (JSON.parse(raw) as ConclusionDraft) : null;
      } catch {
        return null;
      }
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

export const OUTBOX_STATE_LABELS: Record<OutboxState, string> = {
  pending: "等待发送",
  sending: "发送中",
  saved: "已保存",
  failed: "保存失败",
};
