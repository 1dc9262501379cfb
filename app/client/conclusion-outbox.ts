import { createOutbox, type OutboxItem, type OutboxStorage, type SendResult } from "./outbox";

/**
 * A call's result is never lost: each conclusion goes through an outbox (./outbox.ts) kept in
 * localStorage, so it survives a closed browser too; its key is the idempotency key the platform
 * honours. Drafts (the form as typed, per call) and the call still to conclude live beside it in
 * the same storage until the conclusion is submitted.
 */
export type ConclusionDraft = {
  ctiCallId: string;
  phone: string;
  callResult: string;
  intent: string;
  remark: string;
  fields: Record<string, string>;
  /** When the call started and how it came, to name it in the outbox (absent in drafts stored before). */
  startedAt?: string;
  origin?: string;
};
export type ConclusionItem = OutboxItem<ConclusionDraft>;

/** A call whose result the agent still has to write: its number as shown, when, and how it came. */
export type CallToConclude = { ctiCallId: string; phone: string; startedAt: string; origin: string };

const OUTBOX_KEY = "sb-conclusion-outbox";
const DRAFT_PREFIX = "sb-conclusion-draft:";
/** The calls whose result is still to be written, oldest first, so a reload still shows their forms. */
const OPEN_KEY = "sb-conclusion-open";
/** Saved conclusions stay listed (the last few), so the agent sees they went. */
const KEEP_SAVED = 20;

export function createConclusionOutbox(options: {
  storage: OutboxStorage;
  send: (item: ConclusionItem) => Promise<SendResult>;
  newKey: () => string;
  now?: () => number;
}) {
  const { storage } = options;
  const outbox = createOutbox<ConclusionDraft>({ ...options, storageKey: OUTBOX_KEY, keepSaved: KEEP_SAVED });
  const listeners = new Set<(calls: CallToConclude[]) => void>();

  function openCalls(): CallToConclude[] {
    try {
      const stored = JSON.parse(storage.getItem(OPEN_KEY) ?? "[]") as unknown;
      return Array.isArray(stored) ? (stored as CallToConclude[]) : [];
    } catch {
      return [];
    }
  }
  function notifyCalls(calls: CallToConclude[]): void {
    for (const listener of listeners) listener(calls);
  }
  function writeOpen(calls: CallToConclude[]): void {
    try {
      storage.setItem(OPEN_KEY, JSON.stringify(calls));
    } catch {
      // Storage full or refused: the page still shows the forms it has.
    }
    notifyCalls(calls);
  }

  /**
   * Adds a call to conclude (once: a call seen again keeps its place and its draft). A call another
   * tab already added is shown here too: every tab of the agent shows the same forms.
   */
  function open(call: CallToConclude): void {
    const calls = openCalls();
    if (calls.some((c) => c.ctiCallId === call.ctiCallId)) return notifyCalls(calls);
    if (outbox.items().some((i) => i.payload.ctiCallId === call.ctiCallId && i.state !== "failed")) return;
    // Only what names the call: a refused conclusion reopened is passed whole, and what it carried
    // must not come back over the agent's corrections when the form is submitted.
    const { ctiCallId, phone, startedAt, origin } = call;
    writeOpen([...calls, { ctiCallId, phone, startedAt, origin }]);
  }

  function saveDraft(draft: ConclusionDraft): void {
    try {
      storage.setItem(DRAFT_PREFIX + draft.ctiCallId, JSON.stringify(draft));
    } catch {
      // Storage full or refused: the form still holds what was typed.
    }
  }

  return {
    ...outbox,

    /** Queues a conclusion (a corrected one replaces its refused one); the call's form and draft close. */
    submit(draft: ConclusionDraft): ConclusionItem {
      outbox.drop((i) => i.payload.ctiCallId === draft.ctiCallId && i.state === "failed");
      const item = outbox.add(draft);
      storage.removeItem(DRAFT_PREFIX + draft.ctiCallId);
      writeOpen(openCalls().filter((c) => c.ctiCallId !== draft.ctiCallId));
      return item;
    },

    open,

    /** Takes a refused conclusion back into its form, with what was typed, to be corrected. */
    reopen(item: ConclusionItem, call: CallToConclude): void {
      saveDraft(item.payload);
      outbox.drop((i) => i.key === item.key);
      open(call);
    },

    /** The call is no longer the agent's to conclude (they handed it on): its form and draft close. */
    forget(ctiCallId: string): void {
      storage.removeItem(DRAFT_PREFIX + ctiCallId);
      writeOpen(openCalls().filter((c) => c.ctiCallId !== ctiCallId));
    },

    /** The calls whose result is still to be written, oldest first. */
    openCalls,

    /** Another tab changed the storage: this page shows the forms and results stored now. */
    refresh(): void {
      outbox.refresh();
      notifyCalls(openCalls());
    },

    /** The storage keys whose change in another tab calls for `refresh`. */
    sharedKeys: [OUTBOX_KEY, OPEN_KEY] as const,

    subscribeCalls(listener: (calls: CallToConclude[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    saveDraft,

    loadDraft(ctiCallId: string): ConclusionDraft | null {
      try {
        const raw = storage.getItem(DRAFT_PREFIX + ctiCallId);
        return raw ? (JSON.parse(raw) as ConclusionDraft) : null;
      } catch {
        return null;
      }
    },
  };
}

export type ConclusionOutbox = ReturnType<typeof createConclusionOutbox>;
