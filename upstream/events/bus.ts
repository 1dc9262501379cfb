import { EventEmitter } from "node:events";
import { sql } from "kysely";
import type { AgentEvent } from "#contracts/events";
import type { Db } from "#upstream/db";

/** How long events stay replayable: long enough for a laptop to sleep through a break. */
export const EVENT_RETENTION_SECONDS = 60 * 60;
export const HEARTBEAT_MS = 15_000;

type Row = { id: number; type: string; payload: unknown; created_at: Date };
const toEvent = (row: Row): AgentEvent => ({ id: Number(row.id), type: row.type, payload: row.payload, at: row.created_at.toISOString() });

/**
 * Events for one user: stored first (so they can be replayed by id), then pushed to whoever
 * listens live. The CTI and chat services publish; the event stream route subscribes.
 */
export function createEventBus(db: Db) {
  const live = new EventEmitter();
  live.setMaxListeners(0);

  return {
    async publish(target: { tenantId: number; userId: number }, type: string, payload: unknown): Promise<AgentEvent> {
      const row = await db
        .insertInto("agent_events")
        .values({ tenant_id: target.tenantId, user_id: target.userId, type, payload: JSON.stringify(payload ?? {}) })
        .returning(["id", "type", "payload", "created_at"])
        .executeTakeFirstOrThrow();
      const event = toEvent(row as Row);
      live.emit(String(target.userId), event);
      return event;
    },

    /** Every event of this user after `afterId`, oldest first. */
    async replay(userId: number, afterId: number, limit = 1_000): Promise<AgentEvent[]> {
      const rows = await db
        .selectFrom("agent_events")
        .select(["id", "type", "payload", "created_at"])
        .where("user_id", "=", userId)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
      return (rows as Row[]).map(toEvent);
    },

    /** The newest id of this user's events (0 when none): where a fresh client starts. */
    async latestId(userId: number): Promise<number> {
      const row = await db
        .selectFrom("agent_events")
        .select(sql<number>`coalesce(max(id), 0)`.as("id"))
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    subscribe(userId: number, listener: (event: AgentEvent) => void): () => void {
      live.on(String(userId), listener);
      return () => live.off(String(userId), listener);
    },

    async prune(olderThanSeconds = EVENT_RETENTION_SECONDS): Promise<void> {
      await db
        .deleteFrom("agent_events")
        .where("created_at", "<", sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .execute();
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
