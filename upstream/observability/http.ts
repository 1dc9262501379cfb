import type { FastifyInstance, FastifyServerOptions, RawRequestDefaultExpression } from "fastify";
import { sql } from "kysely";
import { logDestination, logOptions } from "#common/observability/log";
import { pathLabel } from "#common/observability/metrics";
import { newRequestContext, runInRequest } from "#common/observability/request-context";
import { startRequestSpan } from "#common/observability/tracing";
import { httpRequestDuration, transfersInProgress } from "./metrics";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Readiness (GET /ready): `started` once migrated and listening, `draining` from SIGTERM on;
     * `inFlight` requests being answered; `streams` the open event streams' ends, called on drain.
     */
    readiness: { started: boolean; draining: boolean; inFlight: number; streams: Set<() => void> };
  }
  interface FastifyContextConfig {
    /** An import or an export route: counted in transfers_in_progress while it runs. */
    transfer?: "import" | "export";
  }
}

/** The platform's JSON log (common/observability/log.ts) as Fastify's logger options, at `level`. */
export function platformLogger(level: string): FastifyServerOptions["logger"] {
  return { ...logOptions("platform", { ...process.env, LOG_LEVEL: level }), stream: logDestination() };
}

/** Request ids are the console's: the trace id of its `traceparent`, so one user action has one id in both processes' lines. */
export const requestIdOf = (request: RawRequestDefaultExpression): string => newRequestContext(request.headers.traceparent).id;

/**
 * Per request: one log line and one latency observation when it ends, labelled by its route
 * pattern; imports and exports counted while they run; the request id available to everything
 * the request does (the bus, the SQL) through the request context, with its span when tracing is
 * on. Plus GET /ready.
 */
export function observabilityPlugin(app: FastifyInstance): void {
  app.decorate("readiness", { started: false, draining: false, inFlight: 0, streams: new Set<() => void>() });

  app.addHook("onRoute", (route) => {
    const url = route.url ?? "";
    const transfer = /export/i.test(url) ? "export" : route.method === "POST" && /import|upload/i.test(url) ? "import" : undefined;
    if (transfer) route.config = { ...route.config, transfer };
  });

  app.addHook("onRequest", (request, reply, done) => {
    const transfer = request.routeOptions.config.transfer;
    if (transfer) transfersInProgress.inc({ direction: transfer, route: request.routeOptions.url });
    app.readiness.inFlight += 1;
    const context = { id: request.id, spanId: newRequestContext().spanId };
    const route = request.routeOptions.url;
    const span = startRequestSpan(context, `${request.method} ${route ?? "(unmatched)"}`, request.headers.traceparent, {
      "http.request.method": request.method,
      "http.route": route,
    });
    request.raw.once("close", () => (app.readiness.inFlight -= 1));
    if (span) reply.raw.once("close", () => span.end({ "http.response.status_code": reply.statusCode }, reply.statusCode >= 500));
    runInRequest(context, done);
  });

  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? "(unmatched)" : pathLabel(request.url));
    const seconds = reply.elapsedTime / 1000;
    httpRequestDuration.observe({ route, method: request.method, status: reply.statusCode }, seconds);
    const transfer = request.routeOptions.config.transfer;
    if (transfer) {
      transfersInProgress.dec({ direction: transfer, route });
      if (transfer === "import") request.log.info({ event: "import end", route, status: reply.statusCode });
    }
    request.log.info({
      method: request.method,
      path: request.url.split("?")[0],
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
    done();
  });

  /**
   * GET /ready: 200 once the database is migrated and this process listens, while the database
   * answers; 503 before, while it does not, and from SIGTERM on. /health stays liveness.
   */
  app.get("/ready", async (_request, reply) => {
    let reason = !app.readiness.started ? "starting" : app.readiness.draining ? "draining" : "";
    if (!reason) {
      try {
        await sql`select 1`.execute(app.db);
      } catch {
        reason = "database unreachable";
      }
    }
    reply.code(reason ? 503 : 200).header("Cache-Control", "no-store");
    return reason ? { status: "unavailable", reason } : { status: "ready" };
  });
}
