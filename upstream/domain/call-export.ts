import type { Writable } from "node:stream";
import { sql, type RawBuilder } from "kysely";
import {
  CALL_KINDS,
  CAMPAIGN_TYPES,
  CONNECTED_FLAGS,
  HANGUP_PARTIES,
  INTENT_LABELS,
  OUTCOME_CODES,
  QUALITY_CHECK_STATUSES,
  type CodeTable,
} from "#contracts/codes";
import { SHEET_ROWS, writeTo, writeXlsx } from "./xlsx";

/**
 * The call-record export (CSV and XLSX). Each record is formatted by the database and comes out of
 * COPY (`exportCallRecords` in repositories/call-records.ts): a million rows never become a
 * million JavaScript objects, which is what kept exports at a tenth of their target speed.
 */

/** Records per COPY batch: big enough that writes are few, a divisor of a sheet's rows. */
export const EXPORT_CHUNK_ROWS = 5_000;
if (SHEET_ROWS % EXPORT_CHUNK_ROWS !== 0) throw new Error("EXPORT_CHUNK_ROWS must divide SHEET_ROWS");

type Sql = RawBuilder<string>;
type CodeColumn = { column: string; table: CodeTable<string | number>; none: string };
/**
 * A column's value: `text` (the platform's own ids, phone numbers and result names), `name` (a
 * name people type, which may hold anything: written by the format's `name` once per campaign or
 * agent, see RecordFormat; null when none), `code` (a label of the one code module; `none` when
 * null), or `number`/`time`, which never need escaping.
 */
type Value = { text: Sql } | { name: Sql } | { code: CodeColumn } | { number: Sql } | { time: Sql };
type Column = { header: string; value: Value };

/** A column of the record being exported (alias `r`, see exportQuery in repositories/call-records.ts). */
const ref = (name: string) => sql<string>`${sql.ref(`r.${name}`)}`;
const code = (column: string, table: CodeTable<string | number>, none = "") => ({ code: { column, table, none } });

/**
 * notAFormula (domain/contact-file.ts) in SQL, for the names people type. Phone numbers are the
 * platform's validated digits (a leading + of +86 is a number, not a formula), so they stay as they are.
 */
const notAFormulaSql = (value: Sql) =>
  sql<string>`CASE WHEN left(${value}, 1) IN ('=', '+', '-', '@', E'\t', E'\r') THEN '''' || ${value} ELSE ${value} END`;

/** The export's columns, in order. */
const COLUMNS: Column[] = [
  { header: "通话ID", value: { text: ref("cti_call_id") } },
  // China Standard Time, as the console shows it (no DST, so a fixed offset is exact), to the
  // second: a timestamp's own text in DateStyle ISO, which both stores use (db/index.ts). to_char
  // wrote the same text at twice the cost (0.47 against 0.22 µs a record).
  {
    header: "呼叫时间",
    value: { time: sql<string>`date_trunc('second', (r.call_time AT TIME ZONE 'UTC') + interval '8 hours')::text` },
  },
  { header: "电话号码", value: { text: ref("phone") } },
  { header: "活动名称", value: { name: ref("campaign_name") } },
  { header: "活动类型", value: code("campaign_type", CAMPAIGN_TYPES) },
  { header: "呼叫类型", value: code("call_kind", CALL_KINDS, "未知") },
  { header: "是否接通", value: code("is_answer", CONNECTED_FLAGS, "未知") },
  { header: "外呼结果", value: code("outbound_result", OUTCOME_CODES) },
  { header: "结果码", value: { number: sql<string>`r.call_result::text` } },
  { header: "结果说明", value: { text: ref("call_result_name") } },
  { header: "意向标签", value: code("intent", INTENT_LABELS) },
  { header: "质检状态", value: code("qc_status", QUALITY_CHECK_STATUSES, "未知") },
  { header: "挂机方", value: code("hangup_party", HANGUP_PARTIES) },
  { header: "坐席", value: { name: ref("agent_name") } },
  // Whole seconds, halves rounded up (integer arithmetic: durations are never negative).
  { header: "通话时长（秒）", value: { number: sql<string>`((r.call_duration_ms + 500) / 1000)::text` } },
];
const EXPORT_HEADERS = COLUMNS.map((c) => c.header);

/** A code column mapped to what `to` makes of each label (and of `none` and unknown codes). */
function byCode({ column, table, none }: CodeColumn, to: (label: string) => string | number | null): RawBuilder<unknown> {
  const cases = table.map((entry) => sql`WHEN ${sql.lit(entry.code)} THEN ${sql.lit(to(entry.label))}`);
  return sql`CASE WHEN ${ref(column)} IS NULL THEN ${sql.lit(to(none))} ELSE CASE ${ref(column)} ${sql.join(cases, sql` `)} ELSE ${sql.lit(to("未知"))} END END`;
}

/**
 * How an export writes its records, as SQL: `cells`, the values of a record's output columns
 * over the record `r` (see exportQuery in repositories/call-records.ts); `name`, how the names
 * people type are written, once per campaign and agent rather than once per record; `position`,
 * how a record's 0-based place in the export is written (`r.position`), once per record.
 */
export type RecordFormat = {
  cells: RawBuilder<unknown>[];
  name: (value: Sql) => Sql;
  position?: (zeroBased: RawBuilder<number>) => RawBuilder<unknown>;
};

// Escaping is paid only by the values that need it: a cheap test guards each rewrite.
function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
/**
 * CSV cells for `COPY … (FORMAT csv)`, which quotes them itself as csvCell does the header: only
 * values holding a comma, a quote or a line break. COPY quotes an empty string, so an empty label
 * is NULL.
 */
export const CSV_CELLS: RecordFormat = {
  cells: COLUMNS.map(({ value: v }) =>
    "code" in v
      ? byCode(v.code, (label) => label || null)
      : "text" in v
        ? v.text
        : "name" in v
          ? v.name
          : "number" in v
            ? v.number
            : v.time,
  ),
  name: (value) => notAFormulaSql(value),
};

function xmlText(value: string): string {
  // Characters XML 1.0 cannot carry are dropped; the rest escaped.
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
const xmlEscape = (value: Sql) =>
  sql<string>`CASE WHEN strpos(${value}, '&') + strpos(${value}, '<') + strpos(${value}, '>') = 0 THEN ${value} ELSE replace(replace(replace(${value}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;') END`;
/** Every C0 control character but tab, LF and CR, as a PostgreSQL escape string. */
const CONTROL_CHARACTERS = sql.raw(
  `E'${Array.from({ length: 31 }, (_, i) => i + 1)
    .filter((c) => c !== 9 && c !== 10 && c !== 13)
    .map((c) => `\\x${c.toString(16).padStart(2, "0")}`)
    .join("")}'`,
);

/**
 * Every label of the code columns, once: the workbook's shared strings, so a label cell is its
 * index rather than the text on every row.
 */
const SHARED_LABELS = [
  ...new Set(COLUMNS.flatMap(({ value: v }) => ("code" in v ? [v.code.none, "未知", ...v.code.table.map((e) => e.label)] : []))),
];

/**
 * One worksheet `<row>` per record: labels as shared strings, text inline, numbers as numbers.
 * Rows and cells carry their place (readers require it): the header is row 1 of a sheet.
 */
function xlsxRow(): Sql {
  const row = ref("position"); // the row's number in its sheet, see XLSX_ROWS
  const cells = COLUMNS.map(({ value: v }, i) => {
    const at = sql`'<c r="${sql.raw(columnLetter(i))}', ${row}`;
    if ("code" in v) return sql`${at}, '" t="s"><v>', ${byCode(v.code, (label) => SHARED_LABELS.indexOf(label))}, '</v></c>'`;
    if ("number" in v) return sql`${at}, '"><v>', ${v.number}, '</v></c>'`;
    // Ids, phone numbers and result names are the platform's own or validated: no control characters.
    const text = "time" in v ? v.time : "text" in v ? xmlEscape(v.text) : v.name;
    return sql`${at}, '" t="inlineStr"><is><t>', ${text}, '</t></is></c>'`;
  });
  return sql<string>`concat('<row r="', ${row}, '">', ${sql.join(cells, sql`, `)}, '</row>')`;
}
export const XLSX_ROWS: RecordFormat = {
  cells: [xlsxRow()],
  // Inline strings are text to every spreadsheet program, never formulas: no apostrophe here.
  name: (value) => xmlEscape(sql`translate(${value}, ${CONTROL_CHARACTERS}, '')`),
  // Below the header, on the sheet it falls in.
  position: (zeroBased) => sql`(${zeroBased} % ${sql.lit(SHEET_ROWS)} + 2)::text`,
};

/** A, B, … Z: the export has fewer than 27 columns. */
function columnLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

export function exportFileName(format: "csv" | "xlsx"): string {
  return `call-records-${new Date().toISOString().slice(0, 10)}.${format}`;
}

/** A chunk of formatted records and how many there are. */
type Chunks = AsyncIterable<{ data: string | Buffer; count: number }>;

/** CSV with a BOM so spreadsheet programs read the Chinese as UTF-8, then the records' lines. */
export async function writeCsv(lines: Chunks, out: Writable): Promise<void> {
  await writeTo(out, `\uFEFF${EXPORT_HEADERS.map(csvCell).join(",")}\r\n`);
  for await (const chunk of lines) await writeTo(out, chunk.data);
  out.end();
}

/** XLSX of XLSX_ROWS, with the header row first. */
export async function writeCallXlsx(rows: Chunks, out: Writable): Promise<void> {
  const header = `<row r="1">${EXPORT_HEADERS.map((h, i) => `<c r="${columnLetter(i)}1" t="inlineStr"><is><t>${xmlText(h)}</t></is></c>`).join("")}</row>`;
  await writeXlsx(out, { sheetName: "通话记录", header, sharedStrings: SHARED_LABELS.map(xmlText), rows });
}
