import { Counter, Gauge, Histogram } from "prom-client";
import { sql } from "kysely";
import { CallStatus } from "#upstream/domain/dialer-states";
import { createRegistry, eventStreamsOpenIn, httpRequestDurationIn } from "#common/observability/metrics";
import { poolOf, type Db } from "#upstream/db";

/** The platform's Prometheus metrics (decision 038; README "Running it" lists them). */
export const registry = createRegistry();
const registers = [registry];

export const httpRequestDuration = httpRequestDurationIn(registry, "Requests to the platform, by route pattern, method and status");

export const eventStreamsOpen = eventStreamsOpenIn(
  registry,
  "Open notification streams, by kind: user (an agent's phone and chat) or tenant (a supervisor's monitor)",
);

export const notificationDeliveryLag = new Histogram({
  name: "notification_delivery_lag_seconds",
  help: "From a notification's insert to its delivery to this process's streams (across processes: through PostgreSQL NOTIFY)",
  buckets: [0.005, 0.025, 0.1, 0.5, 2.5],
  registers,
});

export const signInFailures = new Counter({
  name: "signin_failures_total",
  help: "Password grants refused for wrong credentials",
  registers,
});

export const signInThrottled = new Counter({
  name: "signin_throttled_total",
  help: "Password grants refused by the sign-in throttle (too many failures)",
  registers,
});

export const transfersInProgress = new Gauge({
  name: "transfers_in_progress",
  help: "Imports and exports being processed, by direction (import, export) and route",
  labelNames: ["direction", "route"] as const,
  registers,
});

let watched: Db | undefined;
/** The database whose pool and dialer the scrape reports (the server's; tests build many apps). */
export function watchDatabase(db: Db | undefined): void {
  watched = db;
}

new Gauge({
  name: "db_pool_connections",
  help: "Database connections by state: total, idle, waiting (clients waiting for one); PGlite has one connection",
  labelNames: ["state"] as const,
  registers,
  collect() {
    if (!watched) return;
    const pool = poolOf(watched);
    this.set({ state: "total" }, pool ? pool.totalCount : 1);
    if (pool) {
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    }
  },
});

new Gauge({
  name: "dialer_calls_in_progress",
  help: "Robot calls the dialer is dialling now, by campaign id",
  labelNames: ["campaign"] as const,
  registers,
  async collect() {
    if (!watched) return;
    this.reset();
    const rows = await watched
      .selectFrom("task_calls")
      .select(["campaign_id", sql<number>`count(*)::int`.as("calls")])
      .where("status", "=", CallStatus.dialling)
      .groupBy("campaign_id")
      .execute();
    for (const row of rows) this.set({ campaign: String(row.campaign_id) }, Number(row.calls));
  },
});
