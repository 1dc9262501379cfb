import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { Refused } from "#upstream/domain/refused";
import { failure } from "#upstream/http";

/**
 * Every failure leaves as `{ code: <status>, msg: <Chinese message> }` with status 400, 401, 403,
 * 404, 409, 429 or 500, and nothing else: no stack, no internal message. A `Refused` (domain/refused.ts)
 * thrown anywhere below a route answers here with its own status and message, so no route maps
 * one. Unexpected errors are logged here.
 */
export function errorsPlugin(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof Refused) {
      return reply.code(error.status).send(failure(error.status, error.message));
    }
    if (error instanceof ZodError) {
      return reply.code(400).send(failure(400, error.issues[0]?.message));
    }
    // Fastify's own client errors (bad JSON, unsupported content type, body too large, ...).
    const status = "statusCode" in error ? error.statusCode : undefined;
    if (status !== undefined && status >= 400 && status < 500) {
      const mapped = status === 401 || status === 403 || status === 404 ? status : 400;
      return reply.code(mapped).send(failure(mapped));
    }
    // PostgreSQL's data exceptions (class 22: a NUL byte, a number out of range, text too long, a
    // date that is none) are input no schema caught: the caller's mistake, not the platform's.
    const sqlState = (error as { code?: unknown }).code;
    if (typeof sqlState === "string" && /^22[0-9A-Z]{3}$/.test(sqlState)) {
      request.log.warn({ err: error }, "input refused by the database");
      return reply.code(400).send(failure(400, "请求参数超出允许的范围或包含无效字符"));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(failure(500));
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(failure(404, "接口不存在")));
}
