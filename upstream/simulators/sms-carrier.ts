import type { Db } from "#upstream/db";
import { markSms, pendingSms } from "#upstream/repositories/sms-outbox";

/**
 * The SMS carrier simulator: what the operators' gateway does with the outbox. A queued message is
 * handed over (sent) on the next tick, and reported delivered after DELIVERY_MS, or failed with
 * the operator's reason. Failures are decided by the number, so demos and tests can ask for one:
 * a number ending in 0000 does not exist, one ending in 4444 is switched off.
 */
export const DELIVERY_MS = 1_500;

export function carrierVerdict(phone: string): { delivered: true } | { delivered: false; reason: string } {
  if (phone.endsWith("0000")) return { delivered: false, reason: "空号" };
  if (phone.endsWith("4444")) return { delivered: false, reason: "用户关机" };
  return { delivered: true };
}

export function createSmsCarrier(db: Db, { tickMs = 500 }: { tickMs?: number } = {}) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | null = null;

  /** Moves every pending message one step as of `now`. */
  async function tick(now = new Date()): Promise<void> {
    for (const message of await pendingSms(db)) {
      const id = Number(message.id);
      if (message.status === "queued") {
        await markSms(db, id, "queued", { status: "sent" }, now);
      } else if (message.sent_at && now.getTime() - message.sent_at.getTime() >= DELIVERY_MS) {
        const verdict = carrierVerdict(message.phone);
        await markSms(db, id, "sent", verdict.delivered ? { status: "delivered" } : { status: "failed", reason: verdict.reason }, now);
      }
    }
  }

  return {
    tick,
    start() {
      timer ??= setInterval(() => {
        // One tick at a time: a slow database must not pile ticks up.
        running ??= tick()
          .catch((error) => console.error("sms carrier:", error))
          .finally(() => (running = null));
      }, tickMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
