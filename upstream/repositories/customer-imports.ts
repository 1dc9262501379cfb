import { sql } from "kysely";
import {
  BUILT_IN_COLUMNS,
  CONTACT_IMPORT_ERRORS_SHOWN,
  CONTACT_IMPORT_MAX_ROWS,
  CONTACT_NAME_MAX,
  checkValue,
  type ContactImportResult,
  type ContactImportUpload,
  type CustomerProperty,
  IMPORT_COLUMNS_MAX,
  IMPORT_SAMPLE_ROWS,
  IMPORT_TARGETS,
  type PropertyValue,
  namesColumn,
} from "#contracts/customers";
import { normaliseMobile } from "#contracts/outbound";
import type { Db, Trx } from "#upstream/db";
import { readRows } from "#upstream/domain/contact-file";
import { CustomerRefused, listProperties } from "./customers";

/**
 * A tenant's contacts imported from a file (decision 020): uploaded and kept for its column
 * mapping, then imported in one transaction; the rejected rows kept for their export.
 */

/** How long an uploaded file waits for its column mapping. */
const UPLOAD_KEPT_MS = 24 * 3600_000;

const CHUNK = 1000;

/**
 * Imports contacts from rows (the first is the header: 姓名, 手机号 and property names, in any
 * order). A phone already in the tenant updates that contact (values merge); a phone twice in the
 * file, a bad phone or value, a missing required value of a new contact or a clashing unique value
 * rejects the row with its reason, kept for the error export. One transaction.
 */
export async function importContacts(
  trx: Trx,
  tenantId: number,
  fileName: string,
  rows: AsyncIterable<string[]>,
  /** The column mapping chosen (a target per column, see columnTargets); by header names without one. */
  mapping?: ReadonlyArray<string>,
) {
  const iterator = rows[Symbol.asyncIterator]();
  const header = ((await iterator.next()).value as string[] | undefined)?.map((h) => h.trim().replace(/^\*/, ""));
  if (!header || header.every((h) => !h)) throw new CustomerRefused(400, "文件为空");
  const properties = await listProperties(trx, tenantId, true);
  const targets = mapping ? checkMapping(mapping, header, properties) : columnTargets(header, properties);
  const phoneAt = targets.indexOf(IMPORT_TARGETS.phone);
  const nameAt = targets.indexOf(IMPORT_TARGETS.name);
  if (phoneAt < 0) throw new CustomerRefused(400, "文件缺少「手机号」列");
  const mapped = targets.map((t) => properties.find((p) => String(p.id) === t) ?? null);
  const ignoredColumns = header.filter((h, i) => h && !targets[i]);

  // Unique values already taken: value → phone of the contact holding it.
  const taken = new Map<number, Map<string, string>>();
  for (const p of properties.filter((p) => p.unique)) {
    const held = await trx
      .selectFrom("crm_contacts")
      .select(["phone", sql<string>`properties->>${String(p.id)}`.as("v")])
      .where("tenant_id", "=", tenantId)
      .where(sql<boolean>`properties ? ${String(p.id)}`)
      .execute();
    taken.set(p.id, new Map(held.map((h) => [h.v, h.phone])));
  }

  const run = await trx
    .insertInto("crm_imports")
    .values({ tenant_id: tenantId, file_name: fileName.slice(0, 200) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const result: ContactImportResult = { importId: run.id, created: 0, updated: 0, rejected: 0, ignoredColumns, errors: [] };
  const seen = new Set<string>();
  type Parsed = { row: number; phone: string; name: string; values: Record<string, PropertyValue> };
  let chunk: Parsed[] = [];
  let bad: Array<{ row: number; phone: string; name: string; reason: string }> = [];

  const reject = (row: number, phone: string, name: string, reason: string) => {
    result.rejected++;
    bad.push({ row, phone: phone.slice(0, 32), name: name.slice(0, CONTACT_NAME_MAX), reason });
    if (result.errors.length < CONTACT_IMPORT_ERRORS_SHOWN) result.errors.push({ row, phone: phone.slice(0, 32), message: reason });
  };

  const flush = async () => {
    if (chunk.length > 0) {
      const existing = new Set(
        (
          await trx
            .selectFrom("crm_contacts")
            .select("phone")
            .where("tenant_id", "=", tenantId)
            .where(
              "phone",
              "in",
              chunk.map((c) => c.phone),
            )
            .execute()
        ).map((r) => r.phone),
      );
      const good = chunk.filter((c) => {
        const missing = existing.has(c.phone) ? undefined : properties.find((p) => p.required && c.values[String(p.id)] === undefined);
        if (missing) reject(c.row, c.phone, c.name, `请填写「${missing.name}」`);
        return !missing;
      });
      if (good.length > 0) {
        const now = new Date();
        const saved = await trx
          .insertInto("crm_contacts")
          .values(
            good.map((c) => ({
              tenant_id: tenantId,
              name: c.name,
              phone: c.phone,
              properties: JSON.stringify(c.values),
              updated_at: now,
              company: null,
              address: null,
              remark: null,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["tenant_id", "phone"]).doUpdateSet({
              name: sql`coalesce(nullif(excluded.name, ''), crm_contacts.name)`,
              properties: sql`crm_contacts.properties || excluded.properties`,
              updated_at: now,
            }),
          )
          .returning(sql<boolean>`(xmax = 0)`.as("inserted"))
          .execute();
        for (const s of saved) {
          if (s.inserted) result.created++;
          else result.updated++;
        }
      }
    }
    if (bad.length > 0)
      await trx
        .insertInto("crm_import_errors")
        .values(bad.map((b) => ({ import_id: run.id, row_no: b.row, phone: b.phone, name: b.name, reason: b.reason })))
        .execute();
    chunk = [];
    bad = [];
  };

  let rowNo = 1;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    rowNo++;
    if (rowNo > CONTACT_IMPORT_MAX_ROWS + 1) throw new CustomerRefused(400, `一次最多导入${CONTACT_IMPORT_MAX_ROWS}行，请拆分文件`);
    const cells = next.value;
    if (cells.every((c) => c.trim() === "")) continue;
    const raw = (cells[phoneAt] ?? "").trim();
    const name = nameAt >= 0 ? (cells[nameAt] ?? "").trim() : "";
    const phone = normaliseMobile(raw);
    if (!raw) reject(rowNo, raw, name, "缺少手机号");
    else if (!phone) reject(rowNo, raw, name, "手机号须为中国大陆手机号");
    else if (seen.has(phone)) reject(rowNo, raw, name, "手机号在文件中重复");
    else if (name.length > CONTACT_NAME_MAX) reject(rowNo, raw, name, `姓名不能超过${CONTACT_NAME_MAX}个字符`);
    else {
      seen.add(phone);
      const values: Record<string, PropertyValue> = {};
      let problem: string | null = null;
      for (const [i, property] of mapped.entries()) {
        if (!property || problem) continue;
        const checked = checkValue(property, cells[i] ?? "");
        if ("error" in checked) problem = checked.error;
        else if (checked.value !== null) {
          if (property.unique) {
            const holder = taken.get(property.id)!.get(String(checked.value));
            if (holder && holder !== phone) {
              problem = `「${property.name}」的值已被其他联系人使用`;
              continue;
            }
            taken.get(property.id)!.set(String(checked.value), phone);
          }
          values[String(property.id)] = checked.value;
        }
      }
      if (problem) reject(rowNo, raw, name, problem);
      else chunk.push({ row: rowNo, phone, name, values });
    }
    if (chunk.length + bad.length >= CHUNK) await flush();
  }
  await flush();
  await mergeSearchIndexes(trx);
  await trx
    .updateTable("crm_imports")
    .set({ created: result.created, updated: result.updated, rejected: result.rejected })
    .where("id", "=", run.id)
    .execute();
  return result;
}

/**
 * New rows wait in the trigram indexes' pending lists (GIN's fast update), which every keyword
 * search reads through row by row: after an import of 100,000 contacts that was 13–75 ms a search
 * at a million contacts. PGlite has no autovacuum to merge them, so an import merges them itself.
 */
export async function mergeSearchIndexes(db: Db) {
  await sql`SELECT gin_clean_pending_list('crm_contacts_name_key_idx'::regclass), gin_clean_pending_list('crm_contacts_phone_trgm_idx'::regclass)`.execute(
    db,
  );
}

/**
 * What each column of a file becomes when nothing was chosen: 姓名 and 手机号 by their usual
 * headers (the first such column), a valid property by its name, otherwise nothing ("").
 */
export function columnTargets(header: ReadonlyArray<string>, properties: ReadonlyArray<CustomerProperty>): string[] {
  const phoneAt = header.findIndex((h) => namesColumn(h, "phone"));
  const nameAt = header.findIndex((h) => namesColumn(h, "name"));
  return header.map((h, i) =>
    i === phoneAt ? IMPORT_TARGETS.phone : i === nameAt ? IMPORT_TARGETS.name : String(properties.find((p) => p.name === h)?.id ?? ""),
  );
}

/** A mapping chosen for a file, checked: one per column, 手机号 once, each target once, valid properties only. */
function checkMapping(mapping: ReadonlyArray<string>, header: ReadonlyArray<string>, properties: ReadonlyArray<CustomerProperty>) {
  if (mapping.length !== header.length) throw new CustomerRefused(400, "列对应关系与文件的列数不符，请重新上传文件");
  if (!mapping.includes(IMPORT_TARGETS.phone)) throw new CustomerRefused(400, "请为「手机号」选择一列");
  const seen = new Set<string>();
  for (const target of mapping) {
    if (!target) continue;
    const property = /^\d+$/.test(target) ? properties.find((p) => String(p.id) === target) : undefined;
    if (/^\d+$/.test(target) && !property) throw new CustomerRefused(400, "所选的客户属性不存在或已无效，请刷新后重试");
    if (seen.has(target)) {
      const label = property?.name ?? (target === IMPORT_TARGETS.phone ? BUILT_IN_COLUMNS.phone : BUILT_IN_COLUMNS.name);
      throw new CustomerRefused(400, `「${label}」只能对应一列`);
    }
    seen.add(target);
  }
  return [...mapping];
}

/** The header and first rows of an uploaded file, as the mapping step shows them. */
async function describeFile(content: Buffer, fileName: string, properties: ReadonlyArray<CustomerProperty>) {
  const iterator = readRows(content, fileName)[Symbol.asyncIterator]();
  try {
    const header = ((await iterator.next()).value as string[] | undefined)?.map((h) => h.trim().replace(/^\*/, ""));
    if (!header || header.every((h) => !h)) throw new CustomerRefused(400, "文件为空");
    if (header.length > IMPORT_COLUMNS_MAX) throw new CustomerRefused(400, `文件不能超过${IMPORT_COLUMNS_MAX}列`);
    const samples: string[][] = [];
    for (let next = await iterator.next(); !next.done && samples.length < IMPORT_SAMPLE_ROWS; next = await iterator.next())
      if (next.value.some((c) => c.trim())) samples.push(next.value);
    const targets = columnTargets(header, properties);
    return header.map((h, i) => ({ header: h, target: targets[i], samples: samples.map((row) => (row[i] ?? "").slice(0, 50)) }));
  } finally {
    await iterator.return?.(undefined);
  }
}

/**
 * Keeps an uploaded file for its mapping step and answers its columns, each with the target it
 * would have by name and a few values. The tenant's files older than a day go at the same time.
 */
export async function stageUpload(trx: Trx, tenantId: number, fileName: string, content: Buffer): Promise<ContactImportUpload> {
  const properties = await listProperties(trx, tenantId, true);
  const columns = await describeFile(content, fileName, properties);
  await trx
    .deleteFrom("crm_import_uploads")
    .where("tenant_id", "=", tenantId)
    .where("created_at", "<", new Date(Date.now() - UPLOAD_KEPT_MS))
    .execute();
  const row = await trx
    .insertInto("crm_import_uploads")
    .values({ tenant_id: tenantId, file_name: fileName, content })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { uploadId: row.id, fileName, columns };
}

async function findUpload(db: Trx, tenantId: number, id: number) {
  const row = await db
    .selectFrom("crm_import_uploads")
    .select(["file_name", "content"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .where("created_at", ">=", new Date(Date.now() - UPLOAD_KEPT_MS))
    .executeTakeFirst();
  if (!row) throw new CustomerRefused(404, "上传的文件已过期或不存在，请重新上传");
  // PGlite answers a bytea as a Uint8Array, PostgreSQL's driver as a Buffer.
  return { file_name: row.file_name, content: Buffer.from(row.content) };
}

/** An uploaded file's columns again (the mapping step shown a second time). */
export async function describeUpload(db: Trx, tenantId: number, id: number): Promise<ContactImportUpload> {
  const upload = await findUpload(db, tenantId, id);
  const columns = await describeFile(upload.content, upload.file_name, await listProperties(db, tenantId, true));
  return { uploadId: id, fileName: upload.file_name, columns };
}

/** Imports an uploaded file with the mapping chosen; the file is let go once imported. */
export async function importUpload(trx: Trx, tenantId: number, id: number, mapping: ReadonlyArray<string>) {
  const upload = await findUpload(trx, tenantId, id);
  const result = await importContacts(trx, tenantId, upload.file_name, readRows(upload.content, upload.file_name), mapping);
  await trx.deleteFrom("crm_import_uploads").where("id", "=", id).execute();
  return { fileName: upload.file_name, result };
}

export async function importBelongs(db: Db, tenantId: number, importId: number) {
  return (
    (await db.selectFrom("crm_imports").select("id").where("tenant_id", "=", tenantId).where("id", "=", importId).executeTakeFirst()) !==
    undefined
  );
}

/** The rejected rows of an import, as export rows. */
export async function* importErrorRows(db: Db, importId: number) {
  yield ["行号", BUILT_IN_COLUMNS.phone, BUILT_IN_COLUMNS.name, "原因"];
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("crm_import_errors")
      .select(["row_no", "phone", "name", "reason"])
      .where("import_id", "=", importId)
      .where("row_no", ">", after)
      .orderBy("row_no")
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    for (const r of rows) yield [String(r.row_no), r.phone, r.name, r.reason];
    after = rows[rows.length - 1].row_no;
  }
}
