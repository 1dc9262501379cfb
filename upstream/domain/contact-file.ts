import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { Refused } from "./refused";

/** An uploaded file: kept on disk while it is read (a spooled upload), or bytes (a file kept in the database). */
export type FileSource = { path: string } | Buffer;

const streamOf = (source: FileSource): Readable =>
  Buffer.isBuffer(source) ? Readable.from([source]) : createReadStream(source.path, { highWaterMark: 256 * 1024 });

/**
 * The rows of an uploaded contact file, CSV (UTF-8, optional BOM) or XLSX (first sheet), as arrays
 * of cell texts; the first row is the header. Both are read as streams, a chunk at a time, so a
 * large file is never held whole in memory.
 */
export async function* readRows(source: FileSource, fileName: string): AsyncGenerator<string[]> {
  if (/\.xlsx$/i.test(fileName)) {
    yield* xlsxRows(streamOf(source));
    return;
  }
  yield* csvRows(utf8Text(streamOf(source)));
}

/** The file's text a chunk at a time; a character split between chunks is joined; no BOM and no NUL (PostgreSQL text holds none, and no real list has one). */
async function* utf8Text(stream: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let first = true;
  for await (const chunk of stream) {
    let text = decoder.decode(chunk as Buffer, { stream: true });
    if (first && text) {
      text = text.replace(/^\uFEFF/, "");
      first = false;
    }
    yield text.replaceAll("\u0000", "");
  }
  yield decoder.decode().replaceAll("\u0000", "");
}

/** A file that is not the spreadsheet its name says: the uploader's problem, said in Chinese. */
export class FileUnreadable extends Refused {
  constructor() {
    super(400, "文件无法读取，请检查文件格式（另存为 CSV 或 XLSX 后重试）");
  }
}

async function* xlsxRows(stream: Readable): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, { sharedStrings: "cache", worksheets: "emit" });
  const rows: AsyncIterator<string[]> = (async function* () {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row as ExcelJS.Row).values as unknown[];
        yield values.slice(1).map((v) => cellText(v).replaceAll("\u0000", ""));
      }
      return; // the first sheet only
    }
  })();
  // Whatever exceljs throws on a broken file (zip errors, missing parts, bad XML) is that file's fault.
  try {
    for (;;) {
      let next: IteratorResult<string[]>;
      try {
        next = await rows.next();
      } catch {
        throw new FileUnreadable();
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A reader stopped early (a refused header) lets go of the file.
    stream.destroy();
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && "text" in value) return String((value as { text: unknown }).text);
  if (typeof value === "object" && "result" in value) return String((value as { result: unknown }).result);
  return String(value);
}

/**
 * RFC 4180 CSV from text that arrives in chunks: quoted fields may hold commas, quotes ("") and
 * line breaks, and a chunk may end anywhere, even between the two characters of "" or CR LF.
 */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  let row: string[] = [];
  let field = "";
  let quoted = false;
  /** A quote inside a quoted field: an escaped quote if another follows, else the field's end. */
  let quoteSeen = false;
  /** A CR ended a row: a LF right after it belongs to the same line break. */
  let crSeen = false;
  for await (const text of chunks) {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (crSeen) {
        crSeen = false;
        if (ch === "\n") continue;
      }
      if (quoteSeen) {
        quoteSeen = false;
        if (ch === '"') {
          field += '"';
          continue;
        }
        quoted = false;
      }
      if (quoted) {
        if (ch === '"') quoteSeen = true;
        else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") {
        row.push(field);
        field = "";
      } else if (ch === "\n" || ch === "\r") {
        crSeen = ch === "\r";
        row.push(field);
        yield row;
        row = [];
        field = "";
      } else field += ch;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    yield row;
  }
}

/**
 * A cell a spreadsheet would read as a formula (starting with = + - @, a TAB or a CR) is written
 * with a leading apostrophe, so `=HYPERLINK(…)` typed as a name stays text (OWASP "CSV injection").
 */
export function notAFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A CSV line, quoting what needs it (exports). */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells
    .map((cell) => {
      const text = cell === null || cell === undefined ? "" : String(cell);
      const safe = notAFormula(text);
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(",")}\r\n`;
}
