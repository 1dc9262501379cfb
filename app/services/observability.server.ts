import { Counter, Histogram } from "prom-client";
import { createLogger } from "#common/observability/log";
import { createRegistry, eventStreamsOpenIn, httpRequestDurationIn, LATENCY_BUCKETS } from "#common/observability/metrics";
import { currentRequest } from "#common/observability/request-context";

/** The console's log and metrics (decision 038; README "Running it" lists them). */
export const log = createLogger("console");

/** A log line's request id: the request being served, if any. */
export const withRequest = (fields: Record<string, unknown> = {}) => ({ reqId: currentRequest()?.id, ...fields });

export const registry = createRegistry();
const registers = [registry];

export const httpRequestDuration = httpRequestDurationIn(
  registry,
  "Pages, data and resource requests of the console, by route, method and status",
);

export const upstreamRequestDuration = new Histogram({
  name: "upstream_request_duration_seconds",
  help: "Calls to the platform, by endpoint, method and status (0 when no answer came)",
  labelNames: ["endpoint", "method", "status"] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

export const upstreamRequestErrors = new Counter({
  name: "upstream_request_errors_total",
  help: "Calls to the platform that failed: timeout, unreachable, server_error (5xx) or contract (an answer of the wrong shape)",
  labelNames: ["endpoint", "kind"] as const,
  registers,
});

export const eventStreamsOpen = eventStreamsOpenIn(
  registry,
  "Browsers' event streams open on the console, by kind (the screen's stream route)",
);

export const signInFailures = new Counter({
  name: "signin_failures_total",
  help: "Refused sign-ins seen by the console, by reason: credentials, throttled, unavailable",
  labelNames: ["reason"] as const,
  registers,
});
