import { parse, protocol, type PGlite, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;
type BackendMessages = Awaited<ReturnType<PGlite["execProtocolStream"]>>;

/** Statements worth keeping: the ones that read and write rows (not BEGIN, DDL, SET...). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Statement names are unique in the process, so that two keepers on one session never collide. */
let nextId = 0;

/**
 * Named prepared statements on PGlite. `PGlite.query` parses and plans every statement afresh (an
 * unnamed statement), and in WASM planning a call-list query costs about as much as running it;
 * a named statement is parsed once and, after PostgreSQL's first few custom plans, runs on a
 * cached generic plan (plan_cache_mode auto decides, as it does for any driver that prepares).
 * The messages are those `PGlite.query` sends (parse, describe, bind, describe, execute, sync),
 * with the statement named, through PGlite's public protocol API. Kysely's SQL text is the key;
 * the oldest statement is closed when `limit` are kept.
 */
export class PreparedStatements {
  readonly #pglite: PGlite;
  readonly #limit: number;
  readonly #statements = new Map<string, { name: string; paramTypes: number[] }>();

  constructor(pglite: PGlite, limit = 500) {
    this.#pglite = pglite;
    this.#limit = limit;
  }

  static preparable(sql: string): boolean {
    return PREPARABLE.test(sql);
  }

  /** How many statements are kept (tests). */
  get size(): number {
    return this.#statements.size;
  }

  async query<R>(sql: string, params: readonly unknown[]): Promise<Results<R>> {
    const messages = await this.#pglite.runExclusive(async () => {
      // Not push(...messages): a result of a few hundred thousand rows is as many messages, more
      // arguments than a call may take (RangeError: Maximum call stack size exceeded).
      let received: BackendMessages = [];
      let statement: { name: string; paramTypes: number[] } | undefined;
      try {
        const { name, paramTypes } = (statement = this.#statements.get(sql) ?? (await this.#prepare(sql)));
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const toText = this.#pglite.serializers[paramTypes[i]];
          return toText ? toText(value) : String(value);
        });
        received = received.concat(
          await this.#send(serialize.bind({ statement: name, values })),
          await this.#send(serialize.describe({ type: "P" })),
          await this.#send(serialize.execute({})),
        );
      } catch (error) {
        await this.#send(serialize.sync());
        // A table changed under a kept plan (0A000: "cached plan must not change result type"):
        // this statement fails, as any driver's prepared one would; the next is prepared afresh.
        // (After an error the server ignores messages until Sync, so the Close comes after it.)
        if (statement && (error as { code?: string }).code === "0A000") {
          await this.#forget(sql);
          await this.#send(serialize.sync());
        }
        throw error;
      }
      return received.concat(await this.#send(serialize.sync()));
    });
    await this.#pglite.syncToFs();
    return parse.parseResults(messages, this.#pglite.parsers)[0] as Results<R>;
  }

  async #prepare(sql: string) {
    if (this.#statements.size >= this.#limit) await this.#forget(this.#statements.keys().next().value!);
    const name = `sb_${nextId++}`;
    await this.#send(serialize.parse({ name, text: sql }));
    const paramTypes = parse.parseDescribeStatementResults(await this.#send(serialize.describe({ type: "S", name })));
    const statement = { name, paramTypes };
    this.#statements.set(sql, statement);
    return statement;
  }

  async #forget(sql: string) {
    const statement = this.#statements.get(sql);
    if (!statement) return;
    this.#statements.delete(sql);
    await this.#send(serialize.close({ type: "S", name: statement.name }));
  }

  #send(message: Uint8Array): Promise<BackendMessages> {
    return this.#pglite.execProtocolStream(message, { syncToFs: false });
  }
}
