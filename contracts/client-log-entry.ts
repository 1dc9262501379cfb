/**
 * The browser's log entry without zod, so the hydrated pages that send it carry no schema library
 * (contracts/client-log.ts checks it on the way in). Spec §5/§6: an entry longer than 2500
 * characters loses its data.
 */
export const CLIENT_LOG_LIMIT = 2500;
export const CLIENT_LOG_LEVELS = ["error", "warn", "info"] as const;
export type ClientLogEntry = { level: (typeof CLIENT_LOG_LEVELS)[number]; message: string; page: string; data?: string };

/** The entry as it is kept: its data dropped when the whole would pass the limit. */
export function fitClientLog<E extends ClientLogEntry>(entry: E): E & { dataDropped: boolean } {
  const length = entry.message.length + entry.page.length + (entry.data?.length ?? 0);
  if (entry.data === undefined || length <= CLIENT_LOG_LIMIT) return { ...entry, dataDropped: false };
  return { ...entry, data: undefined, dataDropped: true };
}
