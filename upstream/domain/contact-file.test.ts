import ExcelJS from "exceljs";
import fc from "fast-check";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvLine, csvRows, FileUnreadable, readRows } from "./contact-file";

const collect = async (rows: AsyncIterable<string[]>) => {
  const all: string[][] = [];
  for await (const row of rows) all.push(row);
  return all;
};
async function* chunksOf(text: string, cuts: number[]) {
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield text.slice(at, cut);
    at = Math.max(at, cut);
  }
  yield text.slice(at);
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "contact-file-test-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("reading an uploaded contact file as a stream", () => {
  it("reads the same rows however the text is cut into chunks, even inside a doubled quote or a CR LF", async () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "张", ",", '"', "\r\n", "\n", " ", "1"), maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(200)),
        async (rows, cuts) => {
          // Written the way a spreadsheet writes it: every field quoted where it needs to be.
          const text = rows.map((row) => row.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(",")).join("\r\n");
          expect(await collect(csvRows(chunksOf(text, cuts)))).toEqual(rows);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads a large CSV from disk: a BOM dropped, Chinese split across read chunks kept whole, NUL removed", async () => {
    const path = join(directory, "big.csv");
    const rows = Array.from({ length: 30_000 }, (_, i) => [`客户${i}号张三李四`, `138${String(i).padStart(8, "0")}`]);
    await writeFile(path, `\uFEFF姓名,手机号\r\n${rows.map((r) => r.join(",")).join("\r\n")}\u0000\r\n`);
    const read = await collect(readRows({ path }, "big.csv"));
    expect(read[0]).toEqual(["姓名", "手机号"]);
    expect(read.slice(1)).toEqual(rows);
  });

  it("reads the first sheet of an XLSX from disk, and calls a broken one unreadable", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("名单");
    sheet.addRow(["姓名", "手机号"]);
    sheet.addRow(["王五", "13800000001"]);
    book.addWorksheet("另一页").addRow(["不读"]);
    const path = join(directory, "list.xlsx");
    await book.xlsx.writeFile(path);
    expect(await collect(readRows({ path }, "list.xlsx"))).toEqual([
      ["姓名", "手机号"],
      ["王五", "13800000001"],
    ]);
    await writeFile(join(directory, "broken.xlsx"), "这不是一个表格文件");
    await expect(collect(readRows({ path: join(directory, "broken.xlsx") }, "broken.xlsx"))).rejects.toBeInstanceOf(FileUnreadable);
  });

  it("reads a file kept as bytes the same way", async () => {
    expect(await collect(readRows(Buffer.from(csvLine(["a", "=1"]) + csvLine(["b", 'x"y'])), "kept.csv"))).toEqual([
      ["a", "'=1"],
      ["b", 'x"y'],
    ]);
  });
});
