import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { FileUnreadable, readRows } from "#upstream/domain/contact-file";
import { actorOf, writeAudit } from "#upstream/repositories/audit-log";
import { HttpError, ok, readSpreadsheetUpload } from "#upstream/http";
import { CAMPAIGN_ADMIN_ONLY, requireRole, requireUser } from "#upstream/plugins/auth";
import { ImportRefused, importContacts } from "#upstream/repositories/contact-imports";

/** 100,000 contacts with a few extra columns fit comfortably. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const FieldsSchema = z.object({ campaignId: z.coerce.number().int().positive() });

/** POST /api/file/upload (multipart: campaignId, then file): a campaign's contact list, CSV or XLSX. */
export const fileUploadRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5 } });

  app.post("/api/file/upload", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CAMPAIGN_ADMIN_ONLY);
    const { fields, file } = await readSpreadsheetUpload(request, MAX_FILE_BYTES / 1024 / 1024);
    const { campaignId } = FieldsSchema.parse(fields);
    try {
      const result = await importContacts(
        app.db,
        user.tenantId,
        campaignId,
        file.name.slice(0, 120),
        readRows(file.content, file.name),
        app.dialer.clock.now(),
      );
      await writeAudit(app.db, actorOf(user), {
        action: "campaign.import",
        target: { type: "campaign", id: campaignId },
        summary: `活动 ${campaignId}：导入名单「${file.name.slice(0, 120)}」，成功 ${result.accepted} 条，失败 ${result.rejected} 条`,
        detail: { importId: result.importId, accepted: result.accepted, rejected: result.rejected },
      });
      return ok(result);
    } catch (error) {
      if (error instanceof ImportRefused) throw new HttpError(error.message === "活动不存在" ? 404 : 400, error.message);
      if (error instanceof FileUnreadable) throw new HttpError(400, error.message);
      throw error;
    }
  });
};
