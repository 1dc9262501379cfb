import { PassThrough } from "node:stream";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { CallExportSchema, CallFilterSchema, type CallDetail, type CallRecordPage } from "#contracts/contact";
import type { CopyFormat } from "#upstream/db/copy-out";
import {
  CSV_CELLS,
  EXPORT_CHUNK_ROWS,
  XLSX_ROWS,
  exportFileName,
  writeCallXlsx,
  writeCsv,
  type RecordFormat,
} from "#upstream/domain/call-export";
import { HttpError, ok } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { exportCallRecords, findCallDetail, listCallRecords, callReaderOf, type CallScope } from "#upstream/repositories/call-records";
import type { AuthUser } from "#upstream/repositories/users";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Agents' histories hold their own calls; supervisors and administrators see the tenant's. */
function ownCalls(user: AuthUser): CallScope {
  return user.role === "agent" ? { agentUserId: user.id } : {};
}

/** The tenant-wide inbound list shows an agent what they may read: see CallReader. */
function readableCalls(user: AuthUser): CallScope {
  return user.role === "agent" ? { readerAgentUserId: user.id } : {};
}

function parse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new HttpError(400, `请求参数错误：${parsed.error.issues[0]?.path.join(".") || "参数"}`);
  return parsed.data;
}

/** The contact service's call records (endpoints.md, R rows). */
export const contactRoutes: FastifyPluginAsync = async (app) => {
  const list = (request: FastifyRequest, source: unknown, scope: CallScope) => {
    const user = requireUser(request);
    return listCallRecords(app.db, user.tenantId, scope, parse(CallFilterSchema, source)).then((page) => ok<CallRecordPage>(page));
  };

  app.get("/contact/business/callhistory", async (request) => list(request, request.query, ownCalls(requireUser(request))));

  app.get("/contact/income/calls/history", async (request) =>
    list(request, request.query, { direction: "inbound", ...ownCalls(requireUser(request)) }),
  );

  app.post("/contact/income/calls", async (request) =>
    list(request, request.body, { direction: "inbound", ...readableCalls(requireUser(request)) }),
  );

  // The outbound call log: supervisors' and administrators' (外呼通话记录, decision 044), the whole tenant's.
  app.post("/contact/campaign/record/list", async (request) => list(request, request.body, { direction: "outbound" }));

  // The call-detail dialog of every list reads here, inbound or outbound (decision 005).
  app.get("/contact/income/calls/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parse(IdParamsSchema, request.params);
    const detail = await findCallDetail(app.db, callReaderOf(user), id);
    if (!detail) throw new HttpError(404, "通话记录不存在");
    return ok<CallDetail>(detail);
  });

  // Streams the whole filtered list as the database formats it: memory stays flat at any size.
  app.post("/contact/campaign/record/export", async (request, reply) => {
    const user = requireUser(request);
    const { format, ...filter } = parse(CallExportSchema, request.body);
    const scope: CallScope = { direction: "outbound" };
    const records = (recordFormat: RecordFormat, copyFormat: CopyFormat) =>
      exportCallRecords(app.db, user.tenantId, scope, filter, recordFormat, { format: copyFormat, batchRows: EXPORT_CHUNK_ROWS });
    const body = new PassThrough();
    const writing = format === "xlsx" ? writeCallXlsx(records(XLSX_ROWS, "text"), body) : writeCsv(records(CSV_CELLS, "csv"), body);
    writing.catch((error: unknown) => {
      // A client that went away closed the body already: nothing failed on our side.
      if (body.destroyed) return;
      request.log.error({ err: error }, "export failed");
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return reply
      .header(
        "Content-Type",
        format === "xlsx" ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "text/csv; charset=utf-8",
      )
      .header("Content-Disposition", `attachment; filename="${exportFileName(format)}"`)
      .send(body);
  });
};
