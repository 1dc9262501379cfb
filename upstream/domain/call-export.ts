import { once } from "node:events";
import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import {
  CALL_KINDS,
  CAMPAIGN_TYPES,
  CONNECTED_FLAGS,
  HANGUP_PARTIES,
  INTENT_LABELS,
  OUTCOME_CODES,
  QUALITY_CHECK_STATUSES,
  labelOf,
} from "../../contracts/codes";
import type { CallRecordRow } from "../../contracts/contact";

/** The export's columns: header and cell, labels from the one code module. */
const COLUMNS: Array<[string, (row: CallRecordRow) => string | number]> = [
  ["通话ID", (r) => r.ctiCallId],
  ["呼叫时间", (r) => formatTime(r.callTime)],
  ["电话号码", (r) => r.phone],
  ["活动名称", (r) => r.campaignName ?? ""],
  ["活动类型", (r) => (r.campaignType === null ? "" : labelOf(CAMPAIGN_TYPES, r.campaignType))],
  ["呼叫类型", (r) => labelOf(CALL_KINDS, r.callKind)],
  ["是否接通", (r) => labelOf(CONNECTED_FLAGS, r.isAnswer)],
  ["外呼结果", (r) => (r.outboundResult ? labelOf(OUTCOME_CODES, r.outboundResult) : "")],
  ["结果码", (r) => r.callResult],
  ["结果说明", (r) => r.callResultName],
  ["意向标签", (r) => (r.intent ? labelOf(INTENT_LABELS, r.intent) : "")],
  ["质检状态", (r) => labelOf(QUALITY_CHECK_STATUSES, r.qcStatus)],
  ["挂机方", (r) => (r.hangupParty === null ? "" : labelOf(HANGUP_PARTIES, r.hangupParty))],
  ["坐席", (r) => r.agentName ?? ""],
  ["通话时长（秒）", (r) => Math.round(r.callDuration / 1000)],
];

/** China Standard Time, as the console shows it (no DST, so a fixed offset is exact). */
function formatTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

export function exportFileName(format: "csv" | "xlsx"): string {
  return `call-records-${new Date().toISOString().slice(0, 10)}.${format}`;
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

/** CSV with a BOM so spreadsheet programs read the Chinese as UTF-8. */
export async function writeCsv(chunks: AsyncIterable<CallRecordRow[]>, out: Writable): Promise<void> {
  await write(out, `\uFEFF${COLUMNS.map(([header]) => header).join(",")}\r\n`);
  for await (const chunk of chunks) {
    let text = "";
    for (const row of chunk) text += `${COLUMNS.map(([, cell]) => csvCell(cell(row))).join(",")}\r\n`;
    await write(out, text);
  }
  out.end();
}

/** XLSX through exceljs' streaming writer: rows are committed as they come. */
export async function writeXlsx(chunks: AsyncIterable<CallRecordRow[]>, out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet("通话记录");
  sheet.addRow(COLUMNS.map(([header]) => header)).commit();
  for await (const chunk of chunks) {
    for (const row of chunk) sheet.addRow(COLUMNS.map(([, cell]) => cell(row))).commit();
    // Let the stream drain between chunks.
    if (out.writableNeedDrain) await once(out, "drain");
  }
  sheet.commit();
  await workbook.commit();
}
