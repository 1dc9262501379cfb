import type { IncomingMessage, ServerResponse } from "node:http";
import { newRequestContext, runInRequest } from "#common/observability/request-context";
import { pathLabel, serveMetrics as serveMetricsOn } from "#common/observability/metrics";
import { startRequestSpan, startTracing as startTracingAs, stopTracing } from "#common/observability/tracing";
import { buildUrl, DEFAULT_TIMEOUT_MS } from "#app/services/upstream.server";
import { httpRequestDuration, log, registry, withRequest } from "#app/services/observability.server";

/**
 * What server.mjs needs to run the console in production (README "Running it", decision 038):
 * each request observed (its id, one log line, its latency), readiness, and draining on SIGTERM.
 * Exported through the server build's entry module, so server.mjs and the app share one instance.
 */

/**
 * Serves one request inside its context: the id (continuing the caller's `traceparent`) that
 * every log line and upstream call of it carries, answered in X-Request-Id; when it ends, one log
 * line and one latency observation, labelled by its path with ids folded (`/campaign/:id`), and
 * its span when tracing is on.
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse, serve: () => unknown): void {
  const context = newRequestContext(req.headers.traceparent);
  const started = performance.now();
  const path = (req.url ?? "/").split("?")[0];
  const span = startRequestSpan(context, `${req.method} ${pathLabel(path)}`, req.headers.traceparent, {
    "http.request.method": req.method,
  });
  res.setHeader("X-Request-Id", context.id);
  res.once("close", () => {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : 499;
    const route = status === 404 ? "(unmatched)" : pathLabel(path);
    httpRequestDuration.observe({ route, method: req.method, status }, seconds);
    span?.end({ "http.response.status_code": status }, status >= 500);
    log.info({ reqId: context.id, method: req.method, path, status, ms: Math.round(seconds * 1000) });
  });
  runInRequest(context, serve);
}

/** A refusal before the app sees the request (a foreign origin, a body too large): logged with its request id. */
export function logRefusal(req: IncomingMessage, res: ServerResponse, reason: string, detail: Record<string, unknown> = {}): void {
  log.warn({
    reqId: res.getHeader("X-Request-Id"),
    event: "refusal",
    reason,
    method: req.method,
    path: (req.url ?? "/").split("?")[0],
    ...detail,
  });
}

let draining = false;
const streams = new Set<() => void>();

/** An open event stream, ended when the process drains; returns its unregistration. */
export function onDrain(endStream: () => void): () => void {
  streams.add(endStream);
  return () => streams.delete(endStream);
}

/** SIGTERM: /ready answers 503 from now on and every event stream ends with a reconnect hint. */
export function startDraining(): void {
  draining = true;
  log.info({ event: "draining", streams: streams.size });
  for (const end of [...streams]) end();
}

const READY_CHECK_MS = Math.min(DEFAULT_TIMEOUT_MS, 2_000);
/**
 * GET /ready: 200 when this console can serve pages (the platform answers its own /ready), 503
 * while it drains or the platform is not ready. /health stays the liveness check (the process
 * answers), so an orchestrator restarts a stuck console but only stops routing to a waiting one.
 */
export async function answerReadiness(res: ServerResponse): Promise<void> {
  let reason = draining ? "draining" : "";
  if (!reason) {
    try {
      const response = await fetch(buildUrl("/ready"), { signal: AbortSignal.timeout(READY_CHECK_MS) });
      await response.body?.cancel();
      if (!response.ok) reason = "platform not ready";
    } catch {
      reason = "platform unreachable";
    }
  }
  res.statusCode = reason ? 503 : 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(JSON.stringify(reason ? { status: "unavailable", reason } : { status: "ready" }));
}

/** GET /metrics on the loopback METRICS_PORT (none when unset). */
export const serveMetrics = (port: string | undefined) => serveMetricsOn(registry, port);

/** Traces, when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set: awaited before the console listens. */
export const startTracing = () => startTracingAs("switchboard-console");

/** The last spans and log lines reach their collector, file or stdout before the process exits. */
export function flushTelemetry(done: () => void): void {
  void stopTracing()
    .catch(() => undefined)
    .finally(() => log.flush(() => done()));
}

/** A request that failed outside any route's error handling (server.mjs). */
export function logFailure(error: unknown): void {
  log.error(withRequest({ event: "request failed", err: error }));
}
