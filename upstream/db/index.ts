import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, type LogEvent, type Transaction } from "kysely";
import pg from "pg";
import { sqlSpans } from "./sql-spans";
import { PGliteDialect } from "./pglite-dialect";
import type { Database } from "./schema";
import { sharedParsers } from "./type-parsers";

export type Db = Kysely<Database>;
/** The database or one of its transactions: what a repository function takes, so it joins its caller's transaction or runs alone. */
export type Trx = Transaction<Database> | Db;
export type { Database } from "./schema";

export interface OpenDatabaseOptions {
  /** Directory for PGlite's files; created if missing. */
  dataDir?: string;
  /** A PostgreSQL URL; when given, PGlite is not used. */
  databaseUrl?: string;
  /** PGlite with nothing on disk (tests). */
  inMemory?: boolean;
  /** A PGlite data directory dump to start from instead of running initdb (tests; see testing.ts). */
  pgliteTemplate?: Blob;
  /** Told of each statement once it has answered, with its time on the connection (the bench counts them). */
  onStatement?: (event: LogEvent) => void;
}

export interface OpenedDatabase {
  db: Db;
  /** Ends the pool or closes PGlite (flushing it to disk). */
  close(): Promise<void>;
}

/**
 * Opens the platform's database: PostgreSQL when a URL is given, otherwise embedded PGlite
 * (on disk in `dataDir`, or in memory). Both speak the same SQL and parse rows the same way.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const pool = options.databaseUrl ? postgresPool(options.databaseUrl) : undefined;
  const dialect = pool
    ? new PostgresDialect({ pool })
    : await pgliteDialect(options.inMemory ? undefined : options.dataDir, options.pgliteTemplate);
  // Each statement of a traced request is a span (only while tracing is on).
  const spans = sqlSpans();
  const { onStatement } = options;
  const log = spans && onStatement ? (event: LogEvent) => (spans(event), onStatement(event)) : (spans ?? onStatement);
  const db = new Kysely<Database>({ dialect, log });
  if (pool) pools.set(db, pool);
  if (dialect instanceof PGliteDialect) pglites.set(db, dialect.pglite);
  return { db, close: () => db.destroy() };
}

// What sits under a database, for what Kysely cannot do, such as COPY.
const pools = new WeakMap<Db, pg.Pool>();
const pglites = new WeakMap<Db, PGlite>();
/** The pool under a PostgreSQL database (none under PGlite). */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);
/** The PGlite instance under an embedded database; use it only while holding its one connection (`db.connection()`). */
export const pgliteOf = (db: Db): PGlite | undefined => pglites.get(db);

function postgresPool(connectionString: string): pg.Pool {
  return new pg.Pool({
    connectionString,
    // Dates and times as text in ISO form whatever the server's default (PGlite's is ISO): the
    // `date` parser below and the exports' times (domain/call-export.ts) read them so.
    options: "-c DateStyle=ISO",
    types: { getTypeParser: (oid, format) => sharedParsers[oid] ?? pg.types.getTypeParser(oid, format) },
  });
}

/**
 * PGlite's buffer cache lives in the platform's own memory, and initdb sizes it at 128 MB, every
 * byte of which the platform then holds (start RSS 353 MB with a million call records). Its files
 * are read through the operating system's cache anyway, so 16 MB costs nothing measurable: the
 * scale bench's pages and exports ran as fast, and the platform started at 235 MB.
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];

async function pgliteDialect(dataDir: string | undefined, template: Blob | undefined): Promise<PGliteDialect> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: template,
    // The contacts' keyword search (migration 240) uses trigram indexes.
    extensions: { pg_trgm },
    parsers: sharedParsers,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  return new PGliteDialect(pglite);
}
