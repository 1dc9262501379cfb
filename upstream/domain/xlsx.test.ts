import ExcelJS from "exceljs";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeXlsx } from "./xlsx";

/** Writes a workbook to memory and reads it back as a spreadsheet program would. */
async function roundTrip(book: Parameters<typeof writeXlsx>[1]): Promise<ExcelJS.Workbook> {
  const out = new PassThrough();
  const bytes: Buffer[] = [];
  out.on("data", (chunk: Buffer) => bytes.push(chunk));
  await writeXlsx(out, book);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from(Buffer.concat(bytes)));
  return workbook;
}

const row = (r: number, name: string) =>
  `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${name}</t></is></c><c r="B${r}" t="s"><v>${r % 2}</v></c><c r="C${r}"><v>${r * 10}</v></c></row>`;
const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>名称</t></is></c></row>';

describe("streaming XLSX", () => {
  it("writes a workbook spreadsheet readers open: inline text, shared strings, numbers", async () => {
    async function* rows() {
      yield { data: Buffer.from(row(2, "张三 &amp; 李四") + row(3, "王五")), count: 2 }; // as COPY batches come
    }
    const workbook = await roundTrip({ sheetName: "通话记录", header, sharedStrings: ["已接通", "未接通"], rows: rows() });
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["通话记录"]);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, "名称"]);
    expect(sheet.getRow(2).values).toEqual([undefined, "张三 & 李四", "已接通", 20]);
    expect(sheet.getRow(3).values).toEqual([undefined, "王五", "未接通", 30]);
  });

  it("continues on a new sheet, header first, when a sheet is full", async () => {
    async function* rows() {
      for (let i = 0; i < 5; i++) yield { data: row(2 + (i % 2), `第${i}行`), count: 1 };
    }
    const workbook = await roundTrip({ sheetName: "通话记录", header, sharedStrings: ["a", "b"], rows: rows(), sheetRows: 2 });
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["通话记录1", "通话记录2", "通话记录3"]);
    expect(workbook.worksheets.map((s) => s.actualRowCount)).toEqual([3, 3, 2]);
    expect(workbook.worksheets[2].getRow(1).values).toEqual([undefined, "名称"]);
    expect(workbook.worksheets[2].getRow(2).getCell(1).value).toBe("第4行");
  });

  it("writes an empty workbook as a header alone", async () => {
    async function* rows() {}
    const workbook = await roundTrip({ sheetName: "通话记录", header, sharedStrings: [], rows: rows() });
    expect(workbook.worksheets[0].actualRowCount).toBe(1);
  });
});
