import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { sql } from "kysely";
import { z } from "zod";
import type pg from "pg";
import type { RealtimeNotification } from "#contracts/events";
import type { StreamScope } from "#contracts/events";
import { RevocationSchema, type Revocation } from "#contracts/uaa";
import { poolOf, type Db } from "#upstream/db";
import { HttpError } from "#upstream/http";
import type { AuthUser } from "#upstream/repositories/users";
import { notificationDeliveryLag } from "#upstream/observability/metrics";

/** How long notifications stay replayable: long enough for a laptop to sleep through a break. */
export const EVENT_RETENTION_SECONDS = 60 * 60;
export const HEARTBEAT_MS = 15_000;
/** How long open streams' heartbeats gather before their presence is written in one statement. */
const PRESENCE_BATCH_MS = 1_000;

/** Who a notification is for: one user, or the supervisors of a tenant (about one queue, if any). */
export type Audience = { tenantId: number; userId: number } | { tenantId: number; supervisors: true; queueName?: string | null };

/** What a stream follows: a user's own notifications, or a tenant's (optionally one queue's). */
export type Subscription = { kind: "user"; userId: number } | { kind: "tenant"; tenantId: number; queueName?: string };

/**
 * What a caller's stream follows: their own notifications, or (supervisors and administrators)
 * their tenant's, optionally one queue's. Agents asking for the tenant's are refused.
 */
export function subscriptionOf(user: AuthUser, scope: StreamScope): Subscription {
  if (scope.scope === "user") return { kind: "user", userId: user.id };
  if (user.role === "agent") throw new HttpError(403, "仅主管或管理员可以查看坐席实时状态");
  return { kind: "tenant", tenantId: user.tenantId, queueName: scope.queue };
}

type Row = {
  id: number | string;
  type: string;
  payload: unknown;
  created_at: Date;
  tenant_id: number;
  user_id: number | null;
  queue_name: string | null;
};
/** The columns a Row holds, as every read and insert of the bus returns them. */
const ROW_COLUMNS = ["id", "type", "payload", "created_at", "tenant_id", "user_id", "queue_name"] as const;
const toNotification = (row: Row): RealtimeNotification => ({
  id: Number(row.id),
  type: row.type,
  payload: row.payload,
  at: row.created_at.toISOString(),
});

/** A row as its NOTIFY carries it (`row_to_json`); anything else is read from the table instead. */
const HeardRowSchema = z.object({
  id: z.number(),
  type: z.string(),
  payload: z.unknown(),
  created_at: z.coerce.date(),
  tenant_id: z.number(),
  user_id: z.number().nullable(),
  queue_name: z.string().nullable(),
});
const rowHeard = (text: string): Row | undefined => {
  try {
    const parsed = HeardRowSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ...parsed.data, payload: parsed.data.payload } : undefined;
  } catch {
    return undefined;
  }
};

const channelOf = (row: Pick<Row, "tenant_id" | "user_id">) => (row.user_id === null ? `tenant:${row.tenant_id}` : `user:${row.user_id}`);
const channelFor = (subscription: Subscription) =>
  subscription.kind === "user" ? `user:${subscription.userId}` : `tenant:${subscription.tenantId}`;

/** The PostgreSQL channels every platform process listens on (see `listenAcrossProcesses`). */
const PG_CHANNEL = "switchboard_notifications";
const REVOCATION_CHANNEL = "switchboard_revocations";
/** How long a lost listening connection waits before trying again. */
const RELISTEN_MS = 1_000;
/**
 * On PostgreSQL a notification's id is taken under this transaction advisory lock, held until the
 * row commits (one statement): ids then become visible in their order, whichever process or connection took them.
 * A stream's cursor (Last-Event-ID, a page's start) means "everything up to here" only so.
 */
const PUBLISH_LOCK = 35_036;
/** The most notifications one catch-up read delivers before reading again. */
const CATCH_UP_ROWS = 1_000;
/** How long a publish waits for its own NOTIFY before reading what was stored instead. */
const NOTIFY_WAIT_MS = 1_000;
/** A NOTIFY's payload must stay under 8,000 bytes: a larger row is announced empty and read. */
const NOTIFY_ROW_BYTES = 7_900;

/**
 * The notification bus: a notification is stored first (so it can be replayed by id), then
 * delivered to whoever listens live in this process. On PostgreSQL, where several platform
 * processes (and each process's pool of connections) publish at once, ids are taken in commit
 * order (PUBLISH_LOCK) and every process delivers in id order. A listening process delivers each
 * row as its NOTIFY brings it (PostgreSQL hands a listener notifications in commit order, which
 * the lock makes id order), its own publishes included, with no read; a row too large for a
 * NOTIFY, a listening connection that comes back, and a process that does not listen read what
 * was stored after the last notification delivered (`catchUp`). Delivering each row as its own
 * insert answered let a later id overtake an earlier one, and a stream, which sends each id once
 * and in order, then dropped the earlier. (PGlite is one process's database and one connection:
 * its order is the insert order.)
 */
export function createNotificationBus(db: Db) {
  const live = new EventEmitter();
  live.setMaxListeners(0);
  // Revocations are not stored: each process forgets what it keeps of a session when it hears one.
  const revocations = new EventEmitter();
  revocations.setMaxListeners(0);
  const origin = randomUUID();
  const shared = poolOf(db) !== undefined;

  // On PGlite this process is the only writer: the newest id of each subscription is known here
  // once read or published, so a fresh client's start needs no query (which on PGlite would wait
  // behind every other statement).
  const newest = new Map<string, number>();
  const newestKey = (subscription: Subscription) =>
    subscription.kind === "tenant" && subscription.queueName
      ? `${channelFor(subscription)}|${subscription.queueName}`
      : channelFor(subscription);
  const deliver = (row: Row) => {
    if (!shared) {
      const keys = [channelOf(row), ...(row.user_id === null && row.queue_name ? [`${channelOf(row)}|${row.queue_name}`] : [])];
      for (const key of keys) if (newest.has(key)) newest.set(key, Math.max(newest.get(key)!, Number(row.id)));
    }
    delivered = Math.max(delivered ?? 0, Number(row.id));
    const notification = toNotification(row);
    notificationDeliveryLag.observe(Math.max(0, Date.now() - row.created_at.getTime()) / 1000);
    live.emit(channelOf(row), notification, row.queue_name);
    for (const waiter of awaiting) {
      if (waiter.id > delivered) continue;
      awaiting.delete(waiter);
      waiter.resolve();
    }
  };
  const scoped = (subscription: Subscription) => {
    let query = db.selectFrom("notifications").select(ROW_COLUMNS);
    if (subscription.kind === "user") return query.where("user_id", "=", subscription.userId);
    query = query.where("tenant_id", "=", subscription.tenantId).where("audience", "=", "tenant");
    return subscription.queueName ? query.where("queue_name", "=", subscription.queueName) : query;
  };

  const columnsOf = (audience: Audience, type: string, payload: unknown) => {
    const forUser = "userId" in audience;
    return {
      tenant_id: audience.tenantId,
      user_id: forUser ? audience.userId : null,
      audience: forUser ? ("user" as const) : ("tenant" as const),
      queue_name: forUser ? null : (audience.queueName ?? null),
      type,
      payload: JSON.stringify(payload ?? {}),
    };
  };
  const newestStored = async () =>
    Number(
      (
        await db
          .selectFrom("notifications")
          .select(sql<string>`coalesce(max(id), 0)`.as("id"))
          .executeTakeFirst()
      )?.id ?? 0,
    );

  // The last id delivered here (ids are delivered in order: on PGlite in insert order, on
  // PostgreSQL in the order NOTIFYs are heard or by catchUp), first the newest stored when the bus
  // is made, before any stream subscribes, so none misses what follows. One catch-up at a time.
  let delivered: number | undefined;
  const starting = newestStored().then(
    (id) => void (delivered ??= id),
    (error) => console.error("notifications: reading the newest notification failed", error),
  );
  let catchingUp: Promise<void> | undefined;
  let more = false;
  /** Delivers every notification stored after the last one delivered, in id order; resolves once none is left. */
  const catchUp = (): Promise<void> => {
    more = true;
    catchingUp ??= (async () => {
      try {
        await starting;
        while (more) {
          more = false;
          delivered ??= await newestStored();
          const rows = (await db
            .selectFrom("notifications")
            .select(ROW_COLUMNS)
            .where("id", ">", delivered)
            .orderBy("id")
            .limit(CATCH_UP_ROWS)
            .execute()) as Row[];
          for (const row of rows) deliver(row);
          if (rows.length === CATCH_UP_ROWS) more = true;
        }
      } finally {
        catchingUp = undefined;
      }
    })();
    return catchingUp;
  };
  const catchUpLogged = () => catchUp().catch((error) => console.error("notifications: delivering stored notifications failed", error));
  /** Whether this process hears every NOTIFY (`listenAcrossProcesses`), its own publishes' included. */
  let listening = false;
  /** What the listening connection hears, handled one at a time in the order heard. */
  let heard = Promise.resolve();
  const inTurn = (task: () => Promise<void> | void) => {
    heard = heard.then(task).catch((error) => console.error("notifications: delivering a notification failed", error));
  };
  /** This process's publishes waiting for their own NOTIFY to deliver them. */
  const awaiting = new Set<{ id: number; resolve: () => void }>();
  const delivery = (id: number) =>
    id <= (delivered ?? 0)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const waiter = { id, resolve };
          awaiting.add(waiter);
          // A NOTIFY that does not come back (a listening connection lost unnoticed) is read instead.
          setTimeout(() => awaiting.has(waiter) && inTurn(catchUp), NOTIFY_WAIT_MS).unref();
        });

  type Presence = { user_id: number; tenant_id: number; last_seen_at: Date };
  const writePresence = (rows: Presence[]) =>
    db
      .insertInto("user_presence")
      .values(rows)
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ last_seen_at: sql<Date>`excluded.last_seen_at` }))
      .execute();
  const heartbeats = new Map<number, Presence>();
  let presenceTimer: NodeJS.Timeout | undefined;

  const bus = {
    async publish(audience: Audience, type: string, payload: unknown): Promise<RealtimeNotification> {
      const [published] = await bus.publishAll([{ audience, type, payload }]);
      return published!;
    },

    /**
     * Several notifications in one statement, stored and delivered in the order given (an
     * agent's change is told to the agent and to the supervisors at once: on PGlite every
     * statement waits its turn behind the others).
     */
    async publishAll(items: ReadonlyArray<{ audience: Audience; type: string; payload: unknown }>): Promise<RealtimeNotification[]> {
      const values = items.map((item) => columnsOf(item.audience, item.type, item.payload));
      if (!shared) {
        const rows = (await db.insertInto("notifications").values(values).returning(ROW_COLUMNS).execute()) as Row[];
        rows.sort((a, b) => Number(a.id) - Number(b.id));
        for (const row of rows) deliver(row);
        return rows.map(toNotification);
      }
      // One statement, so the lock is held for no round trip: the lock, then the ids (the rows come
      // out of the locked select, in the order given), a NOTIFY a row (sent after the sort, so in
      // id order) at commit, the lock gone at commit.
      const given = sql.join(
        values.map(
          (v, i) =>
            sql`(${i}::int, ${v.tenant_id}::int, ${v.user_id}::int, ${v.audience}::text, ${v.queue_name}::text, ${v.type}::text, ${v.payload}::jsonb)`,
        ),
      );
      const { rows } = await sql<Row>`
        WITH stored AS (
          INSERT INTO notifications (tenant_id, user_id, audience, queue_name, type, payload)
          SELECT v.tenant_id, v.user_id, v.audience, v.queue_name, v.type, v.payload
          FROM (SELECT pg_advisory_xact_lock(${PUBLISH_LOCK})) AS locked,
               (VALUES ${given}) AS v(ord, tenant_id, user_id, audience, queue_name, type, payload)
          ORDER BY v.ord
          RETURNING id, type, payload, created_at, tenant_id, user_id, queue_name),
        told AS (SELECT stored.*, row_to_json(stored)::text AS row FROM stored)
        SELECT id, type, payload, created_at, tenant_id, user_id, queue_name,
               pg_notify(${PG_CHANNEL}, CASE WHEN octet_length(row) < ${NOTIFY_ROW_BYTES} THEN row ELSE '' END)
        FROM told ORDER BY id`.execute(db);
      // Delivered here, in order, when their NOTIFYs come back; read if this process does not listen.
      if (listening) await delivery(Math.max(...rows.map((row) => Number(row.id))));
      else await catchUpLogged();
      return rows.map(toNotification);
    },

    /**
     * Where a stream subscribed here starts "from now": every notification up to this id has
     * reached this process's subscribers, every later one will. Reading the newest stored id
     * instead counted rows another process had committed but this one not yet delivered, and a
     * stream starting there dropped them when they came.
     */
    async deliveredUpTo(): Promise<number> {
      await starting;
      return (delivered ??= await newestStored());
    },

    /** Every notification of a subscription after `afterId`, oldest first. */
    async replay(subscription: Subscription, afterId: number, limit = 1_000): Promise<RealtimeNotification[]> {
      const rows = await scoped(subscription).where("id", ">", afterId).orderBy("id").limit(limit).execute();
      return (rows as Row[]).map(toNotification);
    },

    /** The newest id of a subscription's notifications (0 when none): where a fresh client starts. */
    async latestId(subscription: Subscription): Promise<number> {
      const key = newestKey(subscription);
      const known = newest.get(key);
      if (known !== undefined) return known;
      const row = await scoped(subscription)
        .clearSelect()
        .select(sql<number>`coalesce(max(id), 0)`.as("id"))
        .executeTakeFirst();
      const id = Number(row?.id ?? 0);
      // Published meanwhile (deliver only raises what is already known): the larger stands.
      if (!shared) newest.set(key, Math.max(newest.get(key) ?? 0, id));
      return id;
    },

    subscribe(subscription: Subscription, listener: (notification: RealtimeNotification) => void): () => void {
      const channel = channelFor(subscription);
      const queue = subscription.kind === "tenant" ? subscription.queueName : undefined;
      const filtered = (notification: RealtimeNotification, queueName: string | null) => {
        if (queue === undefined || queue === queueName) listener(notification);
      };
      live.on(channel, filtered);
      return () => live.off(channel, filtered);
    },

    /** When a user's real-time stream was last seen open (the monitor's 失联 rule reads it). */
    async touchPresence(user: { id: number; tenantId: number }, at = new Date()): Promise<void> {
      await writePresence([{ user_id: user.id, tenant_id: user.tenantId, last_seen_at: at }]);
    },

    /**
     * `touchPresence` for an open stream's heartbeat: written with every other heartbeat of the
     * next PRESENCE_BATCH_MS in one statement, so a floor of open streams costs the database a
     * statement a second, not one per stream (the 失联 rule allows minutes).
     */
    keepPresent(user: { id: number; tenantId: number }): void {
      heartbeats.set(user.id, { user_id: user.id, tenant_id: user.tenantId, last_seen_at: new Date() });
      presenceTimer ??= setTimeout(() => {
        presenceTimer = undefined;
        const rows = [...heartbeats.values()];
        heartbeats.clear();
        writePresence(rows).catch((error) => console.error("notifications: recording presence failed", error));
      }, PRESENCE_BATCH_MS).unref();
    },

    async prune(olderThanSeconds = EVENT_RETENTION_SECONDS): Promise<void> {
      await db
        .deleteFrom("notifications")
        .where("created_at", "<", sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .execute();
    },

    /**
     * Ends sessions in every platform process (decision 037): this one's listeners hear it at
     * once, before this answers; on PostgreSQL every other process hears it through NOTIFY.
     */
    async revoke(revocation: Revocation): Promise<void> {
      revocations.emit("revocation", revocation);
      if (shared) await sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${JSON.stringify({ origin, revocation })})`.execute(db);
    },

    /** Calls `listener` with each revocation of any process (see `revoke`). Answers the unsubscribing. */
    onRevocation(listener: (revocation: Revocation) => void): () => void {
      revocations.on("revocation", listener);
      return () => revocations.off("revocation", listener);
    },

    /**
     * On PostgreSQL: listen for the other processes' notifications and revocations on a
     * connection of its own and deliver them here. A lost connection is opened again; since
     * revocations may have been missed meanwhile, its return is heard as `everything`.
     * Answers the way to stop listening.
     */
    async listenAcrossProcesses(): Promise<() => Promise<void>> {
      const pool = poolOf(db);
      if (!pool) return async () => undefined;
      // Whatever another process publishes once this answers is delivered: the cursor is read.
      await starting;
      let client: pg.PoolClient | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const onMessage = (message: pg.Notification) => {
        if (message.channel === REVOCATION_CHANNEL) {
          const { origin: from, revocation } = JSON.parse(message.payload ?? "{}") as { origin?: string; revocation?: unknown };
          const heard = RevocationSchema.safeParse(revocation);
          if (from !== origin && heard.success) revocations.emit("revocation", heard.data);
          return;
        }
        // A stored notification, this process's or another's, in commit (so id) order: its row,
        // or nothing when the row was too large to carry, so it is read.
        const row = message.payload ? rowHeard(message.payload) : undefined;
        inTurn(() => (row ? void (Number(row.id) > (delivered ?? 0) && deliver(row)) : catchUp()));
      };
      const lost = (error: unknown) => {
        if (stopped || !client) return;
        console.error("notifications: the listening connection was lost; listening again", error);
        client.release(true);
        client = null;
        retry = setTimeout(() => void listen(true), RELISTEN_MS);
      };
      const listen = async (again: boolean): Promise<void> => {
        try {
          const connection = await pool.connect();
          connection.on("notification", onMessage);
          connection.on("error", lost);
          client = connection;
          await connection.query(`LISTEN ${PG_CHANNEL}; LISTEN ${REVOCATION_CHANNEL}`);
          listening = true;
          if (!again) return;
          revocations.emit("revocation", { kind: "everything" } satisfies Revocation);
          // What was stored while nobody here listened reaches the open streams now.
          inTurn(catchUp);
        } catch (error) {
          if (!again) throw error;
          if (client) lost(error);
          else if (!stopped) retry = setTimeout(() => void listen(true), RELISTEN_MS);
        }
      };
      await listen(false);
      return async () => {
        stopped = true;
        listening = false;
        clearTimeout(retry);
        // Publishes waiting for their NOTIFY are delivered by reading.
        await catchUpLogged();
        if (!client) return;
        await client.query(`UNLISTEN *`).catch(() => undefined);
        client.release();
      };
    },
  };
  return bus;
}

export type NotificationBus = ReturnType<typeof createNotificationBus>;
