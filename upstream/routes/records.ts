import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { FastifyPluginAsync } from "fastify";
import { byteRange } from "#common/byte-range";
import { z } from "zod";
import { RecordingRequestSchema } from "#contracts/records";
import { recordingPath, recordingType } from "#upstream/domain/recordings";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { callReaderOf, findRecordingFile } from "#upstream/repositories/call-records";

const ParamsSchema = z.object({ callId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The recordings service: POST /records/records/{callId} with body { tenantID } (spec §7). */
export const recordsRoutes: FastifyPluginAsync = async (app) => {
  app.post("/records/records/:callId", async (request, reply) => {
    const user = requireUser(request);
    const params = parseInput(ParamsSchema, request.params);
    const body = parseInput(RecordingRequestSchema, request.body);
    // Another tenant's id answers exactly like an unknown one.
    const file = body.tenantID === user.tenantId ? await findRecordingFile(app.db, callReaderOf(user), params.callId) : undefined;
    if (file === undefined) throw new HttpError(404, "通话记录不存在");
    if (file === null) return ok(null); // JSON: the call has no recording
    const filePath = recordingPath(file);
    const size = await stat(filePath).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) return ok(null);
    // Seeking in a long recording asks for a range: only those bytes are read and sent.
    const range = byteRange(request.headers.range, size);
    reply.header("Content-Type", recordingType(file)).header("Accept-Ranges", "bytes");
    if (range === "unsatisfiable") return reply.code(416).header("Content-Range", `bytes */${size}`).send();
    if (range === null) return reply.header("Content-Length", size).send(createReadStream(filePath));
    return reply
      .code(206)
      .header("Content-Range", `bytes ${range.start}-${range.end}/${size}`)
      .header("Content-Length", range.end - range.start + 1)
      .send(createReadStream(filePath, { start: range.start, end: range.end }));
  });
};
