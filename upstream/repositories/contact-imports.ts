import { sql } from "kysely";
import { IMPORT_HEADERS, namesColumn } from "#contracts/customers";
import { normaliseMobile } from "#contracts/outbound";
import type { Db } from "#upstream/db";
import { FileUnreadable } from "#upstream/domain/contact-file";
import { writeAudit, type Actor, type AuditWrite } from "./audit-log";
import { createBatch } from "./task-batches";
import { Refused } from "#upstream/domain/refused";

/** How many rejected rows the upload answer shows; all of them are in the error export. */
const ERRORS_SHOWN = 20;
/** Rows per insert statement: 8 parameters a row stays well under PostgreSQL's 65,535. */
const CHUNK = 5000;
const ANALYZE_AFTER = 10_000;
/** An import whose chunks stopped coming this long ago was cut off (a chunk takes well under 1 s). */
export const STALLED_SECONDS = 120;

export type ImportOutcome = {
  importId: number;
  batchId: number | null;
  accepted: number;
  rejected: number;
  errors: Array<{ rowNo: number; phone: string; customerName: string; reason: string }>;
};
export class ImportRefused extends Refused {}

/** An import under way: its ids at once, its outcome when every row is read. */
export type StartedImport = { importId: number; batchId: number; finished: Promise<ImportOutcome> };

/**
 * Starts a campaign's contact import: every row validated (mainland mobile format, duplicates in
 * the file or the campaign, the tenant blacklist); good rows become the calls of a new batch,
 * rejected rows are kept with their reason. Row numbers count the header as row 1, as a
 * spreadsheet shows them.
 *
 * What can be refused before a row is read (an empty file, no phone column, no such campaign, an
 * import of the campaign already running) is refused here. The rows are then saved CHUNK at a
 * time, each chunk its own transaction, so a file of 600,000 rows never holds the database (on
 * PGlite, the whole platform) in one transaction, and the import row says how far it has come.
 * Its batch stays 准备中 and the dialer leaves it alone until the import is done. If a chunk
 * fails, what was saved is removed again and the import is marked failed with the reason: a
 * failed import leaves no half batch, and the next import of the campaign works.
 */
export async function startImport(
  db: Db,
  tenantId: number,
  campaignId: number,
  fileName: string,
  rows: AsyncIterable<string[]>,
  at: Date,
): Promise<StartedImport> {
  const iterator = rows[Symbol.asyncIterator]();
  const header = (await iterator.next()).value as string[] | undefined;
  if (!header) throw new ImportRefused(400, "文件为空");
  const columns = header.map((h) => h.trim());
  const phoneAt = columns.findIndex((h) => namesColumn(h, "phone"));
  const nameAt = columns.findIndex((h) => namesColumn(h, "name"));
  if (phoneAt < 0) throw new ImportRefused(400, `文件缺少手机号列（表头应为：${IMPORT_HEADERS.phone.slice(0, 3).join("、")}之一）`);

  await failStalledImports(db, tenantId, campaignId);
  const { importId, batchId } = await db.transaction().execute(async (trx) => {
    const campaign = await trx
      .selectFrom("campaigns")
      .select(["id"])
      .where("tenant_id", "=", tenantId)
      .where("id", "=", campaignId)
      .forUpdate()
      .executeTakeFirst();
    if (!campaign) throw new ImportRefused(404, "活动不存在");
    const running = await trx
      .selectFrom("contact_imports")
      .select(["file_name", "processed"])
      .where("campaign_id", "=", campaignId)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (running) throw new ImportRefused(400, `名单「${running.file_name}」正在导入（已处理 ${running.processed} 行），请等它完成后再导入`);
    const batchId = await createBatch(trx, tenantId, campaignId, fileName.replace(/\.(csv|xlsx)$/i, ""), 0, at);
    const imported = await trx
      .insertInto("contact_imports")
      .values({
        tenant_id: tenantId,
        campaign_id: campaignId,
        batch_id: batchId,
        file_name: fileName,
        accepted: 0,
        rejected: 0,
        status: "running",
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { importId: imported.id, batchId };
  });

  const finished = (async (): Promise<ImportOutcome> => {
    try {
      return await readIntoBatch(db, { tenantId, campaignId, importId, batchId, at }, iterator, { columns, phoneAt, nameAt });
    } catch (error) {
      // Our own refusals are worded for the user; a database's or a reader's error is not shown.
      await failImport(
        db,
        importId,
        error instanceof ImportRefused || error instanceof FileUnreadable ? error.message : "导入中断：平台处理出错",
      );
      throw error;
    }
  })();
  return { importId, batchId, finished };
}

/** Starts an import and waits for its outcome (lists small enough to answer at once). */
export async function importContacts(...args: Parameters<typeof startImport>): Promise<ImportOutcome> {
  return (await startImport(...args)).finished;
}

type ImportTarget = { tenantId: number; campaignId: number; importId: number; batchId: number; at: Date };
type Layout = { columns: string[]; phoneAt: number; nameAt: number };

async function readIntoBatch(db: Db, target: ImportTarget, iterator: AsyncIterator<string[]>, layout: Layout): Promise<ImportOutcome> {
  const { tenantId, campaignId, importId, batchId, at } = target;
  const { columns, phoneAt, nameAt } = layout;
  // One import per campaign runs at a time, so the campaign's numbers read now stay true.
  const [blacklisted, existing] = await Promise.all([
    db.selectFrom("blacklist").select("phone").where("tenant_id", "=", tenantId).execute(),
    db.selectFrom("task_calls").select("phone").where("campaign_id", "=", campaignId).execute(),
  ]);
  const blacklist = new Set(blacklisted.map((r) => r.phone));
  const inCampaign = new Set(existing.map((r) => r.phone));
  const seen = new Set<string>();

  type Good = { phone: string; name: string; data: Record<string, string> };
  type Bad = { rowNo: number; phone: string; customerName: string; reason: string };
  let good: Good[] = [];
  let bad: Bad[] = [];
  const shown: Bad[] = [];
  let accepted = 0;
  let rejected = 0;
  let rowNo = 1;
  const flush = async () => {
    await db.transaction().execute(async (trx) => {
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
            bad.map((b) => ({ import_id: importId, row_no: b.rowNo, phone: b.phone, customer_name: b.customerName, reason: b.reason })),
          )
          .execute();
      }
      const moved = await trx
        .updateTable("contact_imports")
        .set({ accepted, rejected, processed: rowNo - 1, updated_at: new Date() })
        .where("id", "=", importId)
        .where("status", "=", "running")
        .executeTakeFirst();
      // Failed meanwhile as stalled (its rows removed): this import stops here, its chunk undone.
      if (moved.numUpdatedRows === 0n) throw new ImportRefused(400, "导入中断：平台在导入过程中停止，请重新导入");
    });
    good = [];
    bad = [];
    // Reading rows and PGlite's statements can both resolve without giving the event loop a
    // turn: let the requests waiting meanwhile (the import's progress among them) be answered.
    await new Promise((resolve) => setImmediate(resolve));
  };

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

  await db.transaction().execute(async (trx) => {
    if (accepted === 0) await removeBatch(trx, batchId);
    else await trx.updateTable("task_batches").set({ total: accepted }).where("id", "=", batchId).execute();
    await trx
      .updateTable("contact_imports")
      .set({ status: "done", batch_id: accepted === 0 ? null : batchId, finished_at: new Date() })
      .where("id", "=", importId)
      .execute();
  });
  // A large import changes the table's shape at once; fresh statistics keep its list pages on
  // their indexes (PGlite has no autovacuum to do it later). The import is done whatever this does.
  if (accepted >= ANALYZE_AFTER)
    await sql`analyze task_calls`.execute(db).catch((error: unknown) => console.error("[platform] analyze after an import failed", error));
  return { importId, batchId: accepted === 0 ? null : batchId, accepted, rejected, errors: shown };
}

/** A batch goes with its calls and transitions (the foreign keys cascade). */
async function removeBatch(db: Db, batchId: number): Promise<void> {
  await db.deleteFrom("task_batches").where("id", "=", batchId).execute();
}

/** Ends an import that cannot finish: what it saved is removed, the reason kept (and `audit` written, in the same transaction). */
async function failImport(db: Db, importId: number, message: string, audit?: { actor: Actor; entry: AuditWrite }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Only an import still running is failed: one already ended keeps how it ended.
    const row = await trx
      .selectFrom("contact_imports")
      .select("batch_id")
      .where("id", "=", importId)
      .where("status", "=", "running")
      .forUpdate()
      .executeTakeFirst();
    if (!row) return;
    if (row.batch_id) await removeBatch(trx, row.batch_id);
    await trx.deleteFrom("contact_import_errors").where("import_id", "=", importId).execute();
    await trx
      .updateTable("contact_imports")
      .set({ status: "failed", batch_id: null, accepted: 0, rejected: 0, message, finished_at: new Date() })
      .where("id", "=", importId)
      .execute();
    if (audit) await writeAudit(trx, audit.actor, audit.entry);
  });
}

/**
 * Imports marked running whose rows stopped coming for STALLED_SECONDS were cut off (their
 * process stopped): they are failed, their rows removed, so their campaigns can import again.
 * Run before a campaign's imports are listed and before it imports again.
 */
export async function failStalledImports(db: Db, tenantId: number, campaignId: number): Promise<void> {
  const stalled = await db
    .selectFrom("contact_imports")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .where("status", "=", "running")
    .where("updated_at", "<=", sql<Date>`now() - ${`${STALLED_SECONDS} seconds`}::interval`)
    .execute();
  const actor: Actor = { id: null, name: "系统", tenantId };
  for (const { id } of stalled) {
    // Audited only when this call failed it (an import may have finished meanwhile).
    await failImport(db, id, "导入中断：平台在导入过程中停止，请重新导入", {
      actor,
      entry: {
        action: "campaign.import",
        target: { type: "campaign", id: campaignId },
        summary: `活动 ${campaignId}：导入 ${id} 超过 ${STALLED_SECONDS} 秒没有进展，已中止并撤回`,
        detail: { importId: id },
      },
    });
  }
}

export async function listImports(db: Db, tenantId: number, campaignId: number) {
  const rows = await db
    .selectFrom("contact_imports")
    .select(["id", "batch_id", "file_name", "status", "processed", "accepted", "rejected", "message", "created_at", "finished_at"])
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .orderBy("id", "desc")
    .limit(20)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    batchId: r.batch_id,
    fileName: r.file_name,
    status: r.status as "running" | "done" | "failed",
    processed: r.processed,
    accepted: r.accepted,
    rejected: r.rejected,
    message: r.message,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
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
