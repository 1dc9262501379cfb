import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { readRows } from "#upstream/domain/contact-file";
import { actorOf, writeAudit } from "#upstream/repositories/audit-log";
import { CONTACT_FILE_LIMIT } from "#contracts/uploads";
import { ok, parseInput, readSpreadsheetUpload, spreadsheetMultipart } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { startImport, type ImportOutcome } from "#upstream/repositories/contact-imports";
import type { ImportResult } from "#contracts/outbound";

/** A file above this (about 60,000 rows) is read in the background; so is one posted with background=1. */
const BACKGROUND_BYTES = 2 * 1024 * 1024;
const FieldsSchema = z.object({ campaignId: z.coerce.number().int().positive(), background: z.enum(["0", "1"]).optional() });

/**
 * POST /api/file/upload (multipart: campaignId, optional background, then file): a campaign's
 * contact list, CSV or XLSX. A small list answers its outcome; a large one answers at once with
 * status "running" and is read in the background (its progress in GET /outbound/campaign/imports).
 */
export const fileUploadRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, spreadsheetMultipart(CONTACT_FILE_LIMIT));

  app.post("/api/file/upload", async (request) => {
    const user = requireUser(request);
    const { fields, file } = await readSpreadsheetUpload(request, CONTACT_FILE_LIMIT);
    // The spooled file is removed once read (or refused): here for a small list, when the
    // background import ends for a large one.
    let keptForBackground = false;
    try {
      const { campaignId, background } = parseInput(FieldsSchema, fields);
      const fileName = file.name.slice(0, 120);
      const audit = (summary: string, detail: Record<string, unknown>) =>
        writeAudit(app.db, actorOf(user), { action: "campaign.import", target: { type: "campaign", id: campaignId }, summary, detail });
      const ended = (outcome: ImportOutcome) =>
        audit(`活动 ${campaignId}：导入名单「${fileName}」，成功 ${outcome.accepted} 条，失败 ${outcome.rejected} 条`, {
          importId: outcome.importId,
          accepted: outcome.accepted,
          rejected: outcome.rejected,
        });
      const started = await startImport(app.db, user.tenantId, campaignId, fileName, readRows(file, file.name), app.dialer.clock.now());
      if (background === "1" || file.size > BACKGROUND_BYTES) {
        keptForBackground = true;
        started.finished
          .then(ended, (error: unknown) =>
            audit(`活动 ${campaignId}：导入名单「${fileName}」失败`, { importId: started.importId, error: String(error) }),
          )
          .catch((error: unknown) => app.log.error(error, "writing an import's audit row failed"))
          .finally(() => file.remove());
        return ok<ImportResult>({
          importId: started.importId,
          status: "running",
          batchId: started.batchId,
          accepted: 0,
          rejected: 0,
          errors: [],
        });
      }
      const outcome = await started.finished;
      await ended(outcome);
      return ok<ImportResult>({ ...outcome, status: "done" });
    } finally {
      if (!keptForBackground) await file.remove();
    }
  });
};
