import type pg from "pg";
import { poolOf, type Db } from "#upstream/db";

/**
 * The advisory lock whose holder owns the CTI and the simulators (decision 037). Advisory locks are
 * per database, so clusters on other databases of the same server do not meet.
 */
const OWNER_LOCK = 35_035;
/** How often a process that does not own tries to, and how long it trusts who it read owns. */
const ELECTION_MS = 1_000;

/**
 * Which platform process holds the CTI's memory (phones, calls) and runs the dialer and the
 * simulators, so that a cluster has one of each. On PostgreSQL the owner is the holder of a
 * session advisory lock on a connection of its own: the lock goes when that connection does (the
 * process stopped or died), and another process takes it within ELECTION_MS. The owner names itself
 * in its connection's application_name (its URL), which the others read to forward to it. On PGlite
 * (one process) this process owns from the start.
 */
export interface Ownership {
  /** This process's own URL, as the others reach it. */
  readonly selfUrl: string;
  isOwner(): boolean;
  /** The owner's URL, or null while nobody owns (a take-over under way). */
  ownerUrl(): Promise<string | null>;
  /** Forgets who owns (a forward to it failed): the next question reads it again. */
  forgetOwner(): void;
  /** Runs `duties` once this process owns: if it owns now (always on PGlite), before this answers. */
  whenOwner(duties: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** The single process of a PGlite database, or a test's app on its own: always the owner. */
export function soleOwner(selfUrl = ""): Ownership {
  return {
    selfUrl,
    isOwner: () => true,
    ownerUrl: async () => selfUrl,
    forgetOwner: () => undefined,
    whenOwner: (duties) => duties(),
    stop: async () => undefined,
  };
}

/**
 * Takes part in the election on `db` (the sole owner on PGlite). `onLost` is called if the owning
 * connection fails: the lock may be someone else's by then, so the process must stop owning at
 * once (the server exits and is restarted).
 */
export async function electOwner(db: Db, selfUrl: string, onLost: (error: unknown) => void): Promise<Ownership> {
  const pool = poolOf(db);
  if (!pool) return soleOwner(selfUrl);
  const client: pg.PoolClient = await pool.connect();
  let owning = false;
  let stopped = false;
  let duties: (() => Promise<void>) | null = null;
  let known: { url: string | null; until: number } | null = null;
  let timer: NodeJS.Timeout | undefined;

  const end = () => {
    if (stopped) return false;
    stopped = true;
    clearTimeout(timer);
    // Releasing the connection with an error ends its session, and with it the lock.
    client.release(true);
    return true;
  };
  client.on("error", (error) => {
    if (end() && owning) onLost(error);
  });

  const tryToOwn = async () => {
    if (stopped || owning) return;
    try {
      const { rows } = await client.query<{ owns: boolean }>("SELECT pg_try_advisory_lock($1) AS owns", [OWNER_LOCK]);
      if (rows[0]?.owns) {
        await client.query("SELECT set_config('application_name', $1, false)", [selfUrl.slice(0, 63)]);
        owning = true;
        known = null;
        await duties?.().catch((error: unknown) => console.error("cluster: the owner's duties failed to start", error));
        return;
      }
    } catch (error) {
      if (!stopped) console.error("cluster: the owner election failed; trying again", error);
    }
    if (!stopped) timer = setTimeout(() => void tryToOwn(), ELECTION_MS);
  };

  const ownership: Ownership = {
    selfUrl,
    isOwner: () => owning,
    async ownerUrl() {
      if (owning) return selfUrl;
      if (known && known.until > Date.now()) return known.url;
      const { rows } = await pool.query<{ url: string }>(
        `SELECT a.application_name AS url FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [OWNER_LOCK],
      );
      known = { url: rows[0]?.url || null, until: Date.now() + ELECTION_MS };
      return known.url;
    },
    forgetOwner: () => (known = null),
    async whenOwner(start) {
      duties = start;
      if (owning) await start();
    },
    async stop() {
      end();
    },
  };
  await tryToOwn();
  return ownership;
}
