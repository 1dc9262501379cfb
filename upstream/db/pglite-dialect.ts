import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import { PreparedStatements } from "./pglite-statements";

/**
 * A Kysely dialect over an embedded PGlite instance.
 *
 * PGlite is PostgreSQL compiled to WASM, so everything except the driver is Kysely's own
 * PostgreSQL machinery. PGlite has exactly one session: a transaction begun by one request must
 * not see another request's statements, so the driver hands out its single connection to one
 * holder at a time (a mutex held from acquire to release, which spans a whole Kysely transaction).
 * Consequence: inside `db.transaction().execute(trx => ...)` use `trx`, never `db`, or the
 * inner query waits for the transaction that waits for it.
 */
export class PGliteDialect implements Dialect {
  constructor(readonly pglite: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  // Kysely's Dialect interface fixes this parameter type.
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/** A FIFO lock: `lock()` resolves when the caller holds it; `unlock()` passes it on. */
class Mutex {
  #held = false;
  #waiters: Array<() => void> = [];

  async lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}

class PGliteDriver implements Driver {
  readonly #pglite: PGlite;
  readonly #connection: PGliteConnection;
  readonly #mutex = new Mutex();

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.#pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // PGlite runs a statement on this thread and answers it without ever giving the event loop a
    // turn: 500 statements awaited one after another held every request and stream of the
    // platform for 0.7 s. Each holder first lets waiting I/O run, so a long chain of statements (a
    // floor's state changes, a batch of presence touches) is interleaved with requests instead.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.#mutex.lock();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = "begin";
    if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) statement += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(name)}`));
  }

  /** The dialect owns the PGlite instance, as Kysely's PostgresDriver owns its pool. */
  async destroy(): Promise<void> {
    if (!this.#pglite.closed) await this.#pglite.close();
  }
}

const MUTATING_COMMANDS = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite;
  readonly #statements: PreparedStatements;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#statements = new PreparedStatements(pglite);
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = PreparedStatements.preparable(compiledQuery.sql)
      ? await this.#statements.query<R>(compiledQuery.sql, compiledQuery.parameters)
      : await this.#pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      // Same rule as Kysely's pg driver, so `numAffectedRows` means the same on both backends.
      numAffectedRows: result.command && MUTATING_COMMANDS.has(result.command) ? BigInt(result.affectedRows ?? 0) : undefined,
      rows: result.rows,
    };
  }

  /**
   * PGlite has no client-side cursor, so the rows are read at once and handed out in chunks.
   * Memory is not flat here; large exports page with keyset queries instead of `.stream()`.
   */
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error("chunkSize must be a positive integer");
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let start = 0; start < rows.length; start += chunkSize) {
      yield { rows: rows.slice(start, start + chunkSize) };
    }
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
