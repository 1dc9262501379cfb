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
};
export type ConclusionItem = OutboxItem<ConclusionDraft>;

const OUTBOX_KEY = "sb-conclusion-outbox";
const DRAFT_PREFIX = "sb-conclusion-draft:";
/** The call whose conclusion is still to be written, so a reload after the call still shows its form. */
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

  function openCall(): { ctiCallId: string; phone: string } | null {
    try {
      return JSON.parse(storage.getItem(OPEN_KEY) ?? "null") as { ctiCallId: string; phone: string } | null;
    } catch {
      return null;
    }
  }

  return {
    ...outbox,

    /** Queues a conclusion (a corrected one replaces its refused one) and forgets the call's draft. */
    submit(draft: ConclusionDraft): ConclusionItem {
      outbox.drop((i) => i.payload.ctiCallId === draft.ctiCallId && i.state === "failed");
      const item = outbox.add(draft);
      storage.removeItem(DRAFT_PREFIX + draft.ctiCallId);
      if (openCall()?.ctiCallId === draft.ctiCallId) storage.removeItem(OPEN_KEY);
      return item;
    },

    /** Remembers the call to conclude (a new call replaces an older one; its draft stays stored). */
    open(call: { ctiCallId: string; phone: string }): void {
      storage.setItem(OPEN_KEY, JSON.stringify(call));
    },

    openCall,

    saveDraft(draft: ConclusionDraft): void {
      storage.setItem(DRAFT_PREFIX + draft.ctiCallId, JSON.stringify(draft));
    },

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
