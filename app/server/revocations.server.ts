import type { Revocation } from "#contracts/uaa";
import { streamRevocations } from "#app/services/uaa.server";

/** How soon a lost revocation stream is opened again. */
const RETRY_MS = 1_000;

type Listener = (revocation: Revocation) => void;
const listeners = new Set<Listener>();
let started = false;
let hearing = false;

/**
 * Whether this console hears the platform's revocations now (decision 037). What it keeps of a
 * session (the verified cookie, the menu) may be used only then: a session ended at any platform
 * process is forgotten within the second, and while the stream is down every page asks the platform.
 * The first call opens the stream.
 */
export function hearingRevocations(): boolean {
  if (!started) {
    started = true;
    void keepHearing();
  }
  return hearing;
}

/** Calls `listener` with each revocation heard, and with `everything` when the stream is lost. */
export function onRevocation(listener: Listener): void {
  listeners.add(listener);
}

function tell(revocation: Revocation): void {
  for (const listener of listeners) listener(revocation);
}

async function keepHearing(): Promise<never> {
  for (;;) {
    try {
      for await (const revocation of streamRevocations(() => (hearing = true))) tell(revocation);
    } catch (error) {
      // A platform that is not up yet fails every second: only the loss of an open stream is told.
      if (hearing) console.error("[console] the revocation stream ended; pages ask the platform until it is back", error);
    }
    hearing = false;
    tell({ kind: "everything" });
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
  }
}
