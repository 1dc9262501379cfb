import { sql } from "kysely";
import { normaliseMobile } from "#contracts/outbound";
import type { Db } from "#upstream/db";
import { createBatch } from "./task-batches";

const PHONE_HEADERS = ["phone", "手机号", "手机号码", "电话", "电话号码"];
const NAME_HEADERS = ["name", "姓名", "客户姓名"];
/** How many rejected rows the upload answer shows; all of them are in the error export. */
const ERRORS_SHOWN = 20;
/** Rows per insert statement: 8 parameters a row stays well under PostgreSQL's 65,535. */
const CHUNK = 5000;
const ANALYZE_AFTER = 10_000;

export type ImportOutcome = {
  importId: number;
  batchId: number | null;
  accepted: number;
  rejected: number;
  errors: Array<{ rowNo: number; phone: string; customerName: string; reason: string }>;
};
export class ImportRefused extends Error {}

/**
 * Imports a campaign's contacts: every row validated (mainland mobile format, duplicates in the
 * file or the campaign, the tenant blacklist); good rows become the calls of a new batch,
 * rejected rows are kept with their reason. All in one transaction: nothing is half-saved.
 * Row numbers count the header as row 1, as a spreadsheet shows them.
 */
export async function importContacts(
  db: Db,
  tenantId: number,
  campaignId: number,
  fileName: string,
  rows: AsyncIterable<string[]>,
  at: Date,
): Promise<ImportOutcome> {
  const iterator = rows[Symbol.asyncIterator]();
  const header = (await iterator.next()).value as string[] | undefined;
  if (!header) throw new ImportRefused("文件为空");
  const columns = header.map((h) => h.trim());
  const phoneAt = columns.findIndex((h) => PHONE_HEADERS.includes(h.toLowerCase()));
  const nameAt = columns.findIndex((h) => NAME_HEADERS.includes(h.toLowerCase()));
  if (phoneAt < 0) throw new ImportRefused(`文件缺少手机号列（表头应为：${PHONE_HEADERS.slice(0, 3).join("、")}之一）`);

  const outcome = await db.transaction().execute(async (trx) => {
    const campaign = await trx
      .selectFrom("campaigns")
      .select(["id"])
      .where("tenant_id", "=", tenantId)
      .where("id", "=", campaignId)
      .forUpdate()
      .executeTakeFirst();
    if (!campaign) throw new ImportRefused("活动不存在");
    const [blacklisted, existing] = await Promise.all([
      trx.selectFrom("blacklist").select("phone").where("tenant_id", "=", tenantId).execute(),
      trx.selectFrom("task_calls").select("phone").where("campaign_id", "=", campaignId).execute(),
    ]);
    const blacklist = new Set(blacklisted.map((r) => r.phone));
    const inCampaign = new Set(existing.map((r) => r.phone));
    const seen = new Set<string>();

    const imported = await trx
      .insertInto("contact_imports")
      .values({ tenant_id: tenantId, campaign_id: campaignId, file_name: fileName, accepted: 0, rejected: 0, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const batchId = await createBatch(trx, tenantId, campaignId, fileName.replace(/\.(csv|xlsx)$/i, ""), 0, at);

    type Good = { phone: string; name: string; data: Record<string, string> };
    type Bad = { rowNo: number; phone: string; customerName: string; reason: string };
    let good: Good[] = [];
    let bad: Bad[] = [];
    const shown: Bad[] = [];
    let accepted = 0;
    let rejected = 0;
    const flush = async () => {
      if (good.length > 0) {
        await trx
          .insertInto("task_calls")
          .values(
            good.map((g) => ({
              tenant_id: tenantId,
              campaign_id: campaignId,
              batch_id: batchId,
              phone: g.phone,
              customer_name: g.name || null,
              user_data: JSON.stringify(g.data),
              created_at: at,
              updated_at: at,
            })),
          )
          .execute();
      }
      if (bad.length > 0) {
        await trx
          .insertInto("contact_import_errors")
          .values(
            bad.map((b) => ({ import_id: imported.id, row_no: b.rowNo, phone: b.phone, customer_name: b.customerName, reason: b.reason })),
          )
          .execute();
      }
      good = [];
      bad = [];
    };

    let rowNo = 1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rowNo++;
      const cells = next.value;
      if (cells.every((c) => c.trim() === "")) continue;
      const raw = (cells[phoneAt] ?? "").trim();
      const name = nameAt >= 0 ? (cells[nameAt] ?? "").trim().slice(0, 64) : "";
      const phone = normaliseMobile(raw);
      const reason = !raw
        ? "缺少手机号码"
        : !phone
          ? "手机号码格式不正确"
          : seen.has(phone)
            ? "号码在文件中重复"
            : inCampaign.has(phone)
              ? "号码已在活动名单中"
              : blacklist.has(phone)
                ? "号码在黑名单中"
                : null;
      if (reason || !phone) {
        const row = { rowNo, phone: raw.slice(0, 32), customerName: name, reason: reason ?? "" };
        bad.push(row);
        if (shown.length < ERRORS_SHOWN) shown.push(row);
        rejected++;
      } else {
        seen.add(phone);
        const data: Record<string, string> = {};
        columns.forEach((column, i) => {
          if (i !== phoneAt && i !== nameAt && column && cells[i]) data[column] = cells[i].slice(0, 500);
        });
        good.push({ phone, name, data });
        accepted++;
      }
      if (good.length + bad.length >= CHUNK) await flush();
    }
    await flush();
    if (accepted === 0) {
      await trx.deleteFrom("task_batches").where("id", "=", batchId).execute();
    } else {
      await trx.updateTable("task_batches").set({ total: accepted }).where("id", "=", batchId).execute();
    }
    await trx
      .updateTable("contact_imports")
      .set({ accepted, rejected, batch_id: accepted === 0 ? null : batchId })
      .where("id", "=", imported.id)
      .execute();
    return { importId: imported.id, batchId: accepted === 0 ? null : batchId, accepted, rejected, errors: shown };
  });
  // A large import changes the table's shape at once; fresh statistics keep its list pages on
  // their indexes (PGlite has no autovacuum to do it later).
  if (outcome.accepted >= ANALYZE_AFTER) await sql`analyze task_calls`.execute(db);
  return outcome;
}

export async function listImports(db: Db, tenantId: number, campaignId: number) {
  const rows = await db
    .selectFrom("contact_imports")
    .select(["id", "batch_id", "file_name", "accepted", "rejected", "created_at"])
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .orderBy("id", "desc")
    .limit(20)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    batchId: r.batch_id,
    fileName: r.file_name,
    accepted: r.accepted,
    rejected: r.rejected,
    createdAt: r.created_at.toISOString(),
  }));
}

/** The rejected rows of one import (check `importBelongs` first), a chunk at a time. */
export async function* importErrors(db: Db, importId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("contact_import_errors")
      .select(["row_no", "phone", "customer_name", "reason"])
      .where("import_id", "=", importId)
      .where("row_no", ">", after)
      .orderBy("row_no")
      .limit(CHUNK)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].row_no;
  }
}

export async function importBelongs(db: Db, tenantId: number, campaignId: number, importId: number): Promise<boolean> {
  const row = await db
    .selectFrom("contact_imports")
    .select(sql<number>`1`.as("one"))
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .where("id", "=", importId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isBlacklisted(db: Db, tenantId: number, phone: string): Promise<boolean> {
  return (
    (await db.selectFrom("blacklist").select("phone").where("tenant_id", "=", tenantId).where("phone", "=", phone).executeTakeFirst()) !==
    undefined
  );
}
