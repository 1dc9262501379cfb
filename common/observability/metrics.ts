import { createServer, type Server } from "node:http";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one process (decision 038): a registry with Node's own process metrics,
 * served on a loopback port of its own (METRICS_PORT) so that no public address shows them.
 * Latency histograms share a few buckets: each bucket is work on every request.
 */
export const LATENCY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Requests served, by route, method and status: the same series on both processes, `help` says whose. */
export const httpRequestDurationIn = (registry: Registry, help: string) =>
  new Histogram({
    name: "http_request_duration_seconds",
    help,
    labelNames: ["route", "method", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

/** Open event streams by kind, on both processes. */
export const eventStreamsOpenIn = (registry: Registry, help: string) =>
  new Gauge({ name: "event_streams_open", help, labelNames: ["kind"] as const, registers: [registry] });

/** Paths as labels: numbers and long ids become `:id`, so each route is one series, and at most three segments count. */
export function pathLabel(path: string): string {
  const segments = path.split("?")[0].split("/").slice(1, 4);
  return "/" + segments.map((segment) => (/^\d+$|^[\w-]{20,}$/.test(segment) ? ":id" : segment)).join("/");
}

/** Serves GET /metrics on host:port (127.0.0.1 unless METRICS_HOST says otherwise); nothing when port is unset. */
export function serveMetrics(registry: Registry, port: string | undefined, host = process.env.METRICS_HOST || "127.0.0.1"): Server | null {
  if (!port) return null;
  const server = createServer((req, res) => {
    if (req.url !== "/metrics") {
      res.statusCode = 404;
      return res.end();
    }
    registry.metrics().then(
      (text) => {
        res.setHeader("Content-Type", registry.contentType);
        res.end(text);
      },
      (error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      },
    );
  });
  server.listen(Number(port), host);
  server.unref();
  return server;
}
