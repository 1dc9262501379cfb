import { Readable } from "node:stream";
import ExcelJS from "exceljs";

/**
 * The rows of an uploaded contact file, CSV (UTF-8, optional BOM) or XLSX (first sheet), as arrays
 * of cell texts; the first row is the header. XLSX is read as a stream so a large file does not
 * build a whole workbook in memory.
 */
export async function* readRows(file: Buffer, fileName: string): AsyncGenerator<string[]> {
  if (/\.xlsx$/i.test(fileName)) {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(file), { sharedStrings: "cache", worksheets: "emit" });
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row as ExcelJS.Row).values as unknown[];
        yield values.slice(1).map((v) => cellText(v));
      }
      return; // the first sheet only
    }
    return;
  }
  yield* csvRows(file.toString("utf8").replace(/^\uFEFF/, ""));
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

/** A CSV line, quoting what needs it (exports). */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells
    .map((cell) => {
      const text = cell === null || cell === undefined ? "" : String(cell);
      // A leading = + - @ would be a formula in a spreadsheet: neutralise it.
      const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(",")}\r\n`;
}
