/**
 * An island's outbox: what the user did that must reach the platform (a call's conclusion, a chat
 * reply) is written to the browser's storage BEFORE it is sent, then sent until the console
 * answers that it is saved. A reload, a dropped network or a platform outage only delays it; the
 * platform deduplicates by the item's key (an idempotency key, a client id), so a retry after a
 * lost answer saves nothing twice. One outbox per kind of thing, each in its own storage key.
 */

export type OutboxState = "pending" | "sending" | "saved" | "failed";

export type OutboxItem<T> = {
  key: string;
  payload: T;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: number;
  error: string | null;
};

/** What sending answered: saved, worth retrying (network, outage), or refused for good (invalid). */
export type SendResult = { kind: "saved" } | { kind: "retry"; message: string } | { kind: "refused"; message: string };

export type OutboxStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const MAX_BACKOFF_MS = 30_000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, attempts - 1));
}

export const OUTBOX_STATE_LABELS: Record<OutboxState, string> = {
  pending: "等待发送",
  sending: "发送中",
  saved: "已保存",
  failed: "保存失败",
};

export function createOutbox<T>(options: {
  storage: OutboxStorage;
  storageKey: string;
  send: (item: OutboxItem<T>) => Promise<SendResult>;
  newKey: () => string;
  now?: () => number;
  /** Items leave in order: one waiting to be retried holds back those after it (chat replies). */
  ordered?: boolean;
  /** Saved items are shown for a while (the last `keepSaved`), then forgotten. */
  keepSaved?: number;
}) {
  const now = options.now ?? Date.now;
  const keepSaved = options.keepSaved ?? 0;
  const listeners = new Set<(items: OutboxItem<T>[]) => void>();
  let flushing: Promise<void> | null = null;

  /**
   * The storage is the truth: another tab of the same browser shares it (a second workbench tab),
   * so every change is made to what is stored now, never to this page's older copy. Where storage
   * refuses writes, the page's own copy is all there is.
   */
  let storageWorks = true;
  const read = (): OutboxItem<T>[] => {
    try {
      const stored = JSON.parse(options.storage.getItem(options.storageKey) ?? "[]") as OutboxItem<T>[];
      return Array.isArray(stored) ? stored : [];
    } catch {
      return [];
    }
  };
  let items: OutboxItem<T>[] = [];
  const current = () => (storageWorks ? read() : items);
  const notify = () => {
    for (const listener of listeners) listener(items);
  };

  const write = (change: (items: OutboxItem<T>[]) => OutboxItem<T>[]) => {
    const next = change(current());
    const saved = next.filter((i) => i.state === "saved");
    items = [...next.filter((i) => i.state !== "saved"), ...(keepSaved > 0 ? saved.slice(-keepSaved) : [])];
    try {
      options.storage.setItem(options.storageKey, JSON.stringify(items));
    } catch {
      // Storage full or refused: the page still holds the items and sends them.
      storageWorks = false;
    }
    notify();
  };
  const update = (key: string, change: Partial<OutboxItem<T>>) => write((all) => all.map((i) => (i.key === key ? { ...i, ...change } : i)));
  // An item caught mid-send by a reload (or by a tab that closed) is simply pending again.
  write((all) => all.map((item) => (item.state === "sending" ? { ...item, state: "pending" } : item)));

  async function flushOnce(): Promise<void> {
    for (const item of items.filter((i) => i.state === "pending")) {
      // Another tab may have sent it meanwhile.
      if (current().find((i) => i.key === item.key)?.state !== "pending") continue;
      if (item.nextAttemptAt > now()) {
        if (options.ordered) return;
        continue;
      }
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
      else {
        update(item.key, { state: "pending", attempts, error: result.message, nextAttemptAt: now() + backoffMs(attempts) });
        if (options.ordered) return;
      }
    }
  }

  return {
    items: () => items,

    subscribe(listener: (items: OutboxItem<T>[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Queues a payload (its key made now, or given) and keeps it across reloads. */
    add(payload: T, key = options.newKey()): OutboxItem<T> {
      const item: OutboxItem<T> = { key, payload, state: "pending", attempts: 0, nextAttemptAt: 0, error: null };
      write((all) => [...all, item]);
      return item;
    },

    /** Forgets the items `predicate` picks (refused ones once shown, ones the platform already has). */
    drop(predicate: (item: OutboxItem<T>) => boolean): void {
      write((all) => all.filter((item) => !predicate(item)));
    },

    /** Sends what is due; concurrent calls share one pass. `force` ignores the backoff (network back). */
    flush(force = false): Promise<void> {
      if (force) write((all) => all.map((i) => (i.state === "pending" ? { ...i, nextAttemptAt: 0 } : i)));
      flushing ??= flushOnce().finally(() => (flushing = null));
      return flushing;
    },

    /** Another tab changed the storage (its `storage` event): this page shows what is stored now. */
    refresh(): void {
      if (!storageWorks) return;
      items = read();
      notify();
    },

    /** Whether something waits to be retried (the island says the platform cannot be reached). */
    waiting: () => items.some((i) => i.state === "pending" && i.attempts > 0),
  };
}

export type Outbox<T> = ReturnType<typeof createOutbox<T>>;
