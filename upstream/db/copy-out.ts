import { PostgresQueryCompiler, type Compilable } from "kysely";
import pg, { type Connection, type Pool, type Submittable } from "pg";

/**
 * `COPY (query) TO STDOUT` on PostgreSQL, streamed in batches of rows. node-postgres has no
 * CopyOut of its own (pg-copy-streams is the package that adds one), so this is a Submittable:
 * PostgreSQL sends one CopyData message per row (the protocol promises it), each is copied into
 * the current batch, and while a batch waits to be written the socket is paused, so the server
 * waits (TCP backpressure) instead of rows piling up in memory.
 */

/** What comes out: `csv` (PostgreSQL writes and quotes the cells) or `text` (one value per row). */
export type CopyFormat = "csv" | "text";
export type CopyBatch = { data: Buffer; count: number };

/** Compiles with every value written into the SQL as a literal: COPY takes no parameters. */
class InlineValues extends PostgresQueryCompiler {
  protected override appendValue(value: unknown): void {
    if (typeof value === "string") this.append(pg.escapeLiteral(value));
    else if (value instanceof Date) this.append(pg.escapeLiteral(value.toISOString()));
    else if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "bigint") this.append(String(value));
    else throw new Error(`COPY cannot carry the value ${String(value)}`);
  }
}

function copyStatement(query: Compilable, format: CopyFormat): string {
  const inner = new InlineValues().compileQuery(query.compile().query, { queryId: "copy-out" }).sql;
  return `COPY (${inner}) TO STDOUT (FORMAT ${format})`;
}

/**
 * The rows of `COPY (query) TO STDOUT (FORMAT format)`, `batchRows` rows per batch, each row's
 * closing "\n" replaced by `rowEnd`; `text` values are unescaped back to what the query made.
 */
export async function* copyOut(
  pool: Pool,
  query: Compilable,
  options: { format: CopyFormat; batchRows: number; rowEnd: string },
): AsyncGenerator<CopyBatch> {
  const reader = new CopyReader(copyStatement(query, options.format), options);
  const client = await pool.connect();
  let finished = false;
  try {
    client.query(reader);
    for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      yield batch;
    }
    finished = true;
  } finally {
    // A reader that stopped early (a failed write, a closed response) must not leave the server
    // sending the rest: the connection is dropped, which ends the query, and leaves the pool.
    if (finished) client.release();
    else {
      reader.abandon();
      client.release(new Error("COPY abandoned"));
    }
  }
}

class CopyReader implements Submittable {
  private connection?: Connection;
  private batch: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private count = 0;
  private readonly ready: CopyBatch[] = [];
  private done = false;
  private error?: Error;
  private wake?: () => void;
  private readonly rowEnd: Buffer;

  constructor(
    private readonly text: string,
    private readonly options: { format: CopyFormat; batchRows: number; rowEnd: string },
  ) {
    this.rowEnd = Buffer.from(options.rowEnd, "utf8");
  }

  submit(connection: Connection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  /** The next full batch (undefined at the end); the socket reads on only while none waits. */
  async next(): Promise<CopyBatch | undefined> {
    for (;;) {
      if (this.error) throw this.error;
      const batch = this.ready.shift();
      if (batch) return batch;
      // Nothing waits to be written: read on (and leave the socket flowing for the pool at the end).
      this.connection?.stream.resume();
      if (this.done) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  abandon(): void {
    this.connection?.stream.destroy();
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const row = message.chunk;
    // The row without its "\n", then rowEnd (unescaping only ever shortens a row).
    const length = row.length - 1;
    this.reserve(length + this.rowEnd.length);
    if (this.options.format === "text" && row.indexOf(0x5c, 0) !== -1) this.used += unescapeText(row, length, this.batch, this.used);
    else this.used += row.copy(this.batch, this.used, 0, length);
    this.used += this.rowEnd.copy(this.batch, this.used);
    if (++this.count === this.options.batchRows) this.flush();
  }

  handleCommandComplete(): void {
    this.flush();
  }

  handleReadyForQuery(): void {
    this.done = true;
    this.signal();
  }

  handleError(error: Error): void {
    this.error ??= error;
    this.signal();
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  /** Room for `bytes` more in the batch (batches are new buffers: the last one may still be being written). */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.batch.length) return;
    const grown = Buffer.allocUnsafe(Math.max(256 * 1024, 2 * (this.used + bytes)));
    this.batch.copy(grown, 0, 0, this.used);
    this.batch = grown;
  }

  private flush(): void {
    if (this.count === 0) return;
    this.ready.push({ data: this.batch.subarray(0, this.used), count: this.count });
    this.batch = Buffer.allocUnsafe(this.batch.length);
    this.used = 0;
    this.count = 0;
    // Stop reading until the batch is taken: the server waits instead of memory growing.
    this.connection?.stream.pause();
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** COPY's text format escapes: `\\`, and \b \f \n \r \t \v as two characters. */
const UNESCAPED: Record<number, number> = { 0x5c: 0x5c, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x76: 0x0b };

/** Writes `row[0, length)` unescaped into `out` at `at`; returns the bytes written. */
function unescapeText(row: Buffer, length: number, out: Buffer, at: number): number {
  let written = 0;
  for (let i = 0; i < length; i++) {
    let byte = row[i];
    if (byte === 0x5c && i + 1 < length) byte = UNESCAPED[row[++i]] ?? row[i];
    out[at + written++] = byte;
  }
  return written;
}
