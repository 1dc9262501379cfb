/**
 * The browser's side of an island's event stream, apart from the schemas of contracts/events.ts
 * (which re-exports it): an island that imports only this loads no zod for its stream (decision 049).
 */

/** One notification on an event stream (RealtimeNotificationSchema in contracts/events.ts checks it). */
export type RealtimeNotification = { id: number; type: string; at: string; payload?: unknown };

/** The event name of keep-alive frames: they carry no id, so they never move the replay point. */
export const HEARTBEAT_EVENT = "heartbeat";

/**
 * Whether a frame's data is a notification. The console relays only notifications it has checked
 * against RealtimeNotificationSchema (app/services/events.server.ts); the browser checks what its
 * replay cursor and handlers rely on.
 */
export function isNotification(value: unknown): value is RealtimeNotification {
  if (typeof value !== "object" || value === null) return false;
  const { id, type, at } = value as Record<string, unknown>;
  return Number.isInteger(id) && (id as number) > 0 && typeof type === "string" && type !== "" && typeof at === "string";
}
