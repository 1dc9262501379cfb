import { Readable } from "node:stream";
import ExcelJS from "exceljs";

/**
 * The rows of an uploaded contact file, CSV (UTF-8, optional BOM) or XLSX (first sheet), as arrays
 * of cell texts; the first row is the header. XLSX is read as a stream so a large file does not
 * build a whole workbook in memory.
 */
export async function* readRows(file: Buffer, fileName: string): AsyncGenerator<string[]> {
  if (/\.xlsx$/i.test(fileName)) {
    yield* xlsxRows(file);
    return;
  }
  // NUL cannot be stored (PostgreSQL text) and is in no real contact list.
  yield* csvRows(
    file
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .replaceAll("\u0000", ""),
  );
}

/** A file that is not the spreadsheet its name says: the uploader's problem, said in Chinese. */
export class FileUnreadable extends Error {
  constructor() {
    super("文件无法读取，请检查文件格式（另存为 CSV 或 XLSX 后重试）");
  }
}

async function* xlsxRows(file: Buffer): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(file), { sharedStrings: "cache", worksheets: "emit" });
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
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && "text" in value) return String((value as { text: unknown }).text);
  if (typeof value === "object" && "result" in value) return String((value as { result: unknown }).result);
  return String(value);
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function* csvRows(text: string): Generator<string[]> {
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      yield row;
      row = [];
      field = "";
    } else field += ch;
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
