import type { PGlite } from "@electric-sql/pglite";
import { PostgresQueryCompiler, type Compilable } from "kysely";
import pg, { type Connection, type Pool, type Submittable } from "pg";

/**
 * `COPY (query) TO STDOUT` on PostgreSQL, streamed in batches of rows. node-postgres has no
 * CopyOut of its own (pg-copy-streams is the package that adds one), so this is a Submittable:
 * PostgreSQL sends one CopyData message per row (the protocol promises it), each is copied into
 * the current batch, and while a batch waits to be written the socket is paused, so the server
 * waits (TCP backpressure) instead of rows piling up in memory. PGlite cannot send COPY to a
 * client; `copyToBlob` reads one bounded COPY at a time there.
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

function copyStatement(query: Compilable, format: CopyFormat, target: "STDOUT" | "'/dev/blob'"): string {
  const inner = new InlineValues().compileQuery(query.compile().query, { queryId: "copy-out" }).sql;
  return `COPY (${inner}) TO ${target} (FORMAT ${format})`;
}

/** How COPY writes (see CopyFormat) and what ends each row instead of its "\n". */
export type CopyOptions = { format: CopyFormat; rowEnd: string };

/**
 * The rows of `COPY (query) TO STDOUT (FORMAT format)`, `batchRows` rows per batch, each row's
 * closing "\n" replaced by `rowEnd`; `text` values are unescaped back to what the query made.
 */
export async function* copyOut(pool: Pool, query: Compilable, options: CopyOptions & { batchRows: number }): AsyncGenerator<CopyBatch> {
  const reader = new CopyReader(copyStatement(query, options.format, "STDOUT"), options);
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

/**
 * The rows of `COPY (query) TO '/dev/blob' (FORMAT format)` on PGlite, which cannot send COPY to a
 * client: the device gathers the whole output, so `query` must bound its rows. Each row is ended
 * as copyOut ends it. The caller holds PGlite's one connection (see pgliteOf in db/index.ts).
 */
export async function copyToBlob(pglite: PGlite, query: Compilable, options: CopyOptions): Promise<CopyBatch> {
  const { blob } = await pglite.query(copyStatement(query, options.format, "'/dev/blob'"));
  const rows = new RowBatch(options);
  if (!blob) return rows.take();
  const source = Buffer.from(await blob.arrayBuffer());
  rows.reserve(source.length + (source.length >> 4));
  // A "\n" ends a row, except inside a quoted CSV value (text escapes its line breaks); a row
  // needs unescaping only if it holds a backslash. Both searched once for the whole output.
  let quote = options.format === "csv" ? source.indexOf(0x22) : -1;
  let slash = options.format === "text" ? source.indexOf(0x5c) : -1;
  let quoted = false;
  for (let start = 0, from = 0; start < source.length;) {
    const end = source.indexOf(0x0a, from);
    if (end === -1) throw new Error("COPY output ends inside a row");
    for (; quote !== -1 && quote < end; quote = source.indexOf(0x22, quote + 1)) quoted = !quoted;
    from = end + 1;
    if (quoted) continue;
    while (slash !== -1 && slash < start) slash = source.indexOf(0x5c, start);
    rows.add(source, start, end, slash !== -1 && slash < end);
    start = from;
  }
  return rows.take();
}

/** Rows copied into one buffer, each without its "\n" and followed by `rowEnd`, `text` rows unescaped. */
class RowBatch {
  private data: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private count = 0;
  private size = 256 * 1024;
  private readonly rowEnd: Buffer;
  private readonly format: CopyFormat;

  constructor(options: CopyOptions) {
    this.rowEnd = Buffer.from(options.rowEnd, "utf8");
    this.format = options.format;
  }

  get rows(): number {
    return this.count;
  }

  /** `source[start, end)` as the next row; `escaped` when it holds a backslash (unescaping only ever shortens a row). */
  add(source: Buffer, start: number, end: number, escaped: boolean): void {
    this.reserve(end - start + this.rowEnd.length);
    if (this.format === "text" && escaped) this.used += unescapeText(source, start, end, this.data, this.used);
    else this.used += source.copy(this.data, this.used, start, end);
    this.used += this.rowEnd.copy(this.data, this.used);
    this.count++;
  }

  /** The rows so far; the next rows go to a new buffer, as big, made when needed (the last one may still be being written). */
  take(): CopyBatch {
    const batch = { data: this.data.subarray(0, this.used), count: this.count };
    this.size = Math.max(this.size, this.data.length);
    this.data = Buffer.allocUnsafe(0);
    this.used = 0;
    this.count = 0;
    return batch;
  }

  /** Room for `bytes` more. */
  reserve(bytes: number): void {
    if (this.used + bytes <= this.data.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.size, 2 * (this.used + bytes)));
    this.data.copy(grown, 0, 0, this.used);
    this.data = grown;
  }
}

class CopyReader implements Submittable {
  private connection?: Connection;
  private readonly batch: RowBatch;
  private readonly ready: CopyBatch[] = [];
  private done = false;
  private error?: Error;
  private wake?: () => void;

  constructor(
    private readonly text: string,
    private readonly options: CopyOptions & { batchRows: number },
  ) {
    this.batch = new RowBatch(options);
  }

  submit(connection: Connection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  /**
   * The next full batch (undefined at the end). The socket reads on while no batch waits: the
   * next one is read while the caller writes this one, so the server and the response's writes
   * overlap instead of taking turns, and at most two batches are held.
   */
  async next(): Promise<CopyBatch | undefined> {
    for (;;) {
      if (this.error) throw this.error;
      const batch = this.ready.shift();
      // Nothing else waits to be written: read on (and leave the socket flowing for the pool at the end).
      if (this.ready.length === 0) this.connection?.stream.resume();
      if (batch) return batch;
      if (this.done) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  abandon(): void {
    this.connection?.stream.destroy();
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const row = message.chunk;
    this.batch.add(row, 0, row.length - 1, this.options.format === "text" && row.indexOf(0x5c) !== -1);
    if (this.batch.rows === this.options.batchRows) this.flush();
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

  private flush(): void {
    if (this.batch.rows === 0) return;
    this.ready.push(this.batch.take());
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

/** Writes `source[start, end)` unescaped into `out` at `at`; returns the bytes written. */
function unescapeText(source: Buffer, start: number, end: number, out: Buffer, at: number): number {
  let written = 0;
  for (let i = start; i < end; i++) {
    let byte = source[i];
    if (byte === 0x5c && i + 1 < end) byte = UNESCAPED[source[++i]] ?? source[i];
    out[at + written++] = byte;
  }
  return written;
}
