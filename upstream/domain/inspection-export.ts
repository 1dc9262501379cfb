import type { Writable } from "node:stream";
import { INTENT_LABELS, QC_APPEAL_STATES, QC_INFLUENCES, QUALITY_CHECK_STATUSES, labelOf } from "#contracts/codes";
import type { InspectionRow } from "#contracts/inspection";
import { writeTo, writeXlsx } from "./xlsx";

/**
 * The inspection list's export (CSV and XLSX, decision 018): rows come in keyset batches from
 * the repository and are written as they come, so memory holds one batch whatever the size.
 */

const cst = (ms: number | null) => (ms === null ? "" : new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " "));
/** Text people typed (names, remarks) must not start a formula in a spreadsheet. */
const notAFormula = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const COLUMNS: Array<{ header: string; value: (r: InspectionRow) => string | number }> = [
  { header: "通话ID", value: (r) => r.ctiCallId },
  { header: "呼叫时间", value: (r) => cst(r.callTime) },
  { header: "电话号码", value: (r) => r.phone },
  { header: "坐席", value: (r) => notAFormula(r.agentName ?? "") },
  { header: "活动名称", value: (r) => notAFormula(r.campaignName ?? "") },
  { header: "通话时长（秒）", value: (r) => Math.round(r.callDuration / 1000) },
  { header: "意向标签", value: (r) => (r.intent ? labelOf(INTENT_LABELS, r.intent) : "") },
  { header: "质检状态", value: (r) => labelOf(QUALITY_CHECK_STATUSES, r.qcStatus) },
  { header: "影响", value: (r) => (r.influence === null ? "" : labelOf(QC_INFLUENCES, r.influence)) },
  { header: "质检得分", value: (r) => r.score ?? "" },
  { header: "质检员", value: (r) => notAFormula(r.inspectorName ?? "") },
  { header: "质检备注", value: (r) => notAFormula(r.remark ?? "") },
  { header: "质检时间", value: (r) => cst(r.checkedAt) },
  { header: "申诉", value: (r) => (r.appealState ? labelOf(QC_APPEAL_STATES, r.appealState) : "") },
];

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function writeInspectionCsv(batches: AsyncIterable<InspectionRow[]>, out: Writable): Promise<void> {
  await writeTo(out, `\uFEFF${COLUMNS.map((c) => csvCell(c.header)).join(",")}\r\n`);
  for await (const rows of batches) {
    await writeTo(out, rows.map((r) => `${COLUMNS.map((c) => csvCell(c.value(r))).join(",")}\r\n`).join(""));
  }
  out.end();
}

const xml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const letter = (i: number) => String.fromCharCode(65 + i);
const cell = (column: number, row: number, value: string | number) =>
  typeof value === "number"
    ? `<c r="${letter(column)}${row}"><v>${value}</v></c>`
    : `<c r="${letter(column)}${row}" t="inlineStr"><is><t>${xml(value)}</t></is></c>`;

export async function writeInspectionXlsx(batches: AsyncIterable<InspectionRow[]>, out: Writable): Promise<void> {
  const header = `<row r="1">${COLUMNS.map((c, i) => cell(i, 1, c.header)).join("")}</row>`;
  let at = 1;
  async function* rows() {
    for await (const batch of batches) {
      const data = batch.map((r) => `<row r="${++at}">${COLUMNS.map((c, i) => cell(i, at, c.value(r))).join("")}</row>`).join("");
      yield { data, count: batch.length };
    }
  }
  // One sheet: the list is exported up to EXPORT_LIMIT rows, well under a sheet's million.
  await writeXlsx(out, { sheetName: "质检结果", header, sharedStrings: [], rows: rows(), sheetRows: Number.MAX_SAFE_INTEGER });
}
