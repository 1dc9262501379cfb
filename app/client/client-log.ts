import { fitClientLog, type ClientLogEntry } from "#contracts/client-log-entry";

/** At most this many reports per page load: an error in a timer must not flood the log. */
const MAX_REPORTS = 5;
let reports = 0;

/** Sends one line of the browser's log to the console (GET /clientLog, then the platform's /api/log). */
export function reportToLog(level: ClientLogEntry["level"], message: string, data?: string): void {
  if (reports >= MAX_REPORTS) return;
  reports += 1;
  const entry = fitClientLog({ level, message: message.slice(0, 500) || "未知错误", page: location.pathname.slice(0, 500), data });
  const query = new URLSearchParams({ level: entry.level, message: entry.message, page: entry.page });
  if (entry.data !== undefined) query.set("data", entry.data);
  // keepalive: the report still leaves when the error ends in a reload.
  fetch(`/clientLog?${query.toString()}`, { credentials: "same-origin", keepalive: true }).catch(() => undefined);
}

/** Reports what the hydrated screens throw and nobody catches. */
export function installClientLog(): void {
  window.addEventListener("error", (event) => {
    reportToLog("error", String(event.message), event.error instanceof Error ? event.error.stack : undefined);
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason: unknown = event.reason;
    reportToLog("error", reason instanceof Error ? reason.message : String(reason), reason instanceof Error ? reason.stack : undefined);
  });
}
