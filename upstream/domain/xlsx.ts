import { once } from "node:events";
import type { Writable } from "node:stream";
import { createDeflateRaw, crc32, type DeflateRaw } from "node:zlib";

/**
 * A streaming XLSX writer: the smallest package spreadsheet programs open (content types, the
 * workbook, its sheets), written as a ZIP whose entries carry their sizes in data descriptors, so
 * nothing is held in memory but the chunk being compressed. Rows arrive as ready `<row>` XML.
 * A sheet takes at most SHEET_ROWS rows (Excel's limit is 1,048,576); more rows continue on the
 * next sheet. Entries stay below 4 GiB, so ZIP64 is not needed; an archive that would pass 4 GiB
 * is refused rather than written corrupt.
 */

export const SHEET_ROWS = 1_000_000;
const LIMIT = 0xffff_ffff;

/**
 * Writes to `out`, then waits while it is full; fails once `out` is closed (the client went
 * away), so that an abandoned export stops instead of waiting for a drain that never comes.
 */
export async function writeTo(out: Writable, data: string | Buffer): Promise<void> {
  if (out.destroyed) throw new Error("the export's response was closed");
  if (out.write(data)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = () => {
      out.off("drain", settle);
      out.off("close", settle);
      if (out.destroyed) reject(new Error("the export's response was closed"));
      else resolve();
    };
    out.on("drain", settle);
    out.on("close", settle);
  });
}

type Entry = { name: Buffer; offset: number; crc: number; compressed: number; size: number };

class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  constructor(private readonly out: Writable) {}

  private async raw(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.offset > LIMIT) throw new Error("导出文件超过 4 GB，请缩小筛选范围");
    await writeTo(this.out, bytes);
  }

  /** Starts a deflated entry; write its text with `write`, then `close` it before the next. */
  async open(name: string): Promise<EntryWriter> {
    const entry: Entry = { name: Buffer.from(name, "utf8"), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(DOS_TIME, 10);
    header.writeUInt16LE(entry.name.length, 26);
    await this.raw(Buffer.concat([header, entry.name]));
    return new EntryWriter(this, entry);
  }

  /** Compressed bytes of the open entry. */
  async data(entry: Entry, bytes: Buffer): Promise<void> {
    entry.compressed += bytes.length;
    await this.raw(bytes);
  }

  async closeEntry(entry: Entry): Promise<void> {
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.raw(descriptor);
    this.entries.push(entry);
  }

  /** The central directory and its end record; ends the stream. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4); // made by 2.0
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt32LE(DOS_TIME, 12);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt32LE(entry.offset, 42);
      await this.raw(Buffer.concat([record, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(end);
    this.out.end();
  }
}

/** 1980-01-01 00:00 as a DOS date (high half: day 1, month 1) and time: entries need one, nobody reads it. */
const DOS_TIME = 0x0021_0000;

class EntryWriter {
  // Level 1: exports are read once; speed matters more than the last 20 % of size.
  private readonly deflate: DeflateRaw = createDeflateRaw({ level: 1 });
  private readonly flushed: Promise<void>;
  constructor(
    private readonly zip: ZipWriter,
    private readonly entry: Entry,
  ) {
    this.flushed = (async () => {
      for await (const bytes of this.deflate) await this.zip.data(this.entry, bytes as Buffer);
    })();
    // A failed write (the size limit, a closed response) also fails a `write` waiting for drain.
    this.flushed.catch((error: Error) => this.deflate.destroy(error));
  }

  async write(data: string | Buffer): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    this.entry.crc = crc32(bytes, this.entry.crc);
    this.entry.size += bytes.length;
    if (this.entry.size > LIMIT) throw new Error("导出文件超过 4 GB，请缩小筛选范围");
    if (!this.deflate.write(bytes)) await once(this.deflate, "drain");
  }

  async close(): Promise<void> {
    this.deflate.end();
    await this.flushed;
    await this.zip.closeEntry(this.entry);
  }
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_HEAD = `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = "</sheetData></worksheet>";

/**
 * Writes a workbook of `rows` (chunks of `<row>` elements with their count) under a `header` row
 * repeated at the top of every sheet; cells of type "s" index `sharedStrings` (escaped XML text).
 * Chunks are never split: their sizes must divide the rows of a sheet (`sheetRows`, SHEET_ROWS).
 */
export async function writeXlsx(
  out: Writable,
  book: {
    sheetName: string;
    header: string;
    sharedStrings: string[];
    rows: AsyncIterable<{ data: string | Buffer; count: number }>;
    sheetRows?: number;
  },
): Promise<void> {
  const sheetRows = book.sheetRows ?? SHEET_ROWS;
  const zip = new ZipWriter(out);
  let sheets = 0;
  const openSheet = async () => {
    const entry = await zip.open(`xl/worksheets/sheet${++sheets}.xml`);
    await entry.write(SHEET_HEAD + book.header);
    return entry;
  };
  const closeSheet = async (entry: EntryWriter) => {
    await entry.write(SHEET_TAIL);
    await entry.close();
  };
  let sheet = await openSheet();
  let inSheet = 0;
  for await (const chunk of book.rows) {
    if (inSheet + chunk.count > sheetRows) {
      await closeSheet(sheet);
      sheet = await openSheet();
      inSheet = 0;
    }
    await sheet.write(chunk.data);
    inSheet += chunk.count;
  }
  await closeSheet(sheet);

  const numbers = Array.from({ length: sheets }, (_, i) => i + 1);
  const name = (n: number) => escapeAttribute(sheets === 1 ? book.sheetName : `${book.sheetName}${n}`);
  const files: Array<[string, string]> = [
    [
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>${numbers
        .map(
          (n) =>
            `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join("")}</Types>`,
    ],
    [
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${numbers
        .map((n) => `<sheet name="${name(n)}" sheetId="${n}" r:id="rId${n}"/>`)
        .join("")}</sheets></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${numbers
        .map(
          (n) =>
            `<Relationship Id="rId${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n}.xml"/>`,
        )
        .join(
          "",
        )}<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    [
      "xl/sharedStrings.xml",
      `${XML_HEAD}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${book.sharedStrings.length}" uniqueCount="${book.sharedStrings.length}">${book.sharedStrings
        .map((text) => `<si><t xml:space="preserve">${text}</t></si>`)
        .join("")}</sst>`,
    ],
  ];
  for (const [path, text] of files) {
    const entry = await zip.open(path);
    await entry.write(text);
    await entry.close();
  }
  await zip.finish();
}
