import type { FastifyInstance } from "fastify";
import { setTimeout as sleep } from "node:timers/promises";
import { serveMetrics } from "#common/observability/metrics";
import type { Db } from "#upstream/db";
import { registry, watchDatabase } from "./metrics";

/** How long a stopping platform waits for its requests in flight (README "Running it"). */
export const DRAIN_MS = 10_000;

/**
 * The running platform's operations (decision 038), started once it listens: ready, metrics on
 * the loopback METRICS_PORT, and `drain` for SIGTERM: /ready answers 503, event streams end with
 * a reconnect hint (the console's relays reconnect and replay from Last-Event-ID), no new
 * connections are taken, and requests in flight finish, for at most DRAIN_MS.
 */
export function runOperations(app: FastifyInstance, db: Db, metricsPort = process.env.METRICS_PORT) {
  watchDatabase(db);
  const metrics = serveMetrics(registry, metricsPort);
  app.readiness.started = true;
  return {
    async drain(): Promise<void> {
      app.readiness.draining = true;
      app.log.info({ event: "draining", streams: app.readiness.streams.size, inFlight: app.readiness.inFlight });
      for (const end of [...app.readiness.streams]) end();
      app.server.close();
      metrics?.close();
      const deadline = Date.now() + DRAIN_MS;
      while (app.readiness.inFlight > 0 && Date.now() < deadline) {
        app.server.closeIdleConnections();
        await sleep(50);
      }
    },
  };
}
