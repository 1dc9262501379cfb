import { AsyncLocalStorage } from "node:async_hooks";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { LogEvent } from "kysely";

type Totals = { count: number; ms: number; maxMs: number };
type Request = { route: string; ms: number; dbMs: number; statements: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Where the bench platform's time goes while a section runs: every statement's time on the
 * database connection (grouped by its text), the requests of the routes asked about with the
 * database time spent inside each, and the event loop's delay. On PGlite, which answers one
 * statement at a time, the sum of statement times over the period is how busy its one connection was.
 */
export function createProfile() {
  const statements = new Map<string, Totals>();
  const requests: Request[] = [];
  const context = new AsyncLocalStorage<{ dbMs: number; statements: number }>();
  const open = new WeakMap<object, { dbMs: number; statements: number }>();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let since = performance.now();

  return {
    onStatement(event: LogEvent): void {
      const text = event.query.sql.replace(/\s+/g, " ").trim();
      const totals = statements.get(text) ?? { count: 0, ms: 0, maxMs: 0 };
      totals.count += 1;
      totals.ms += event.queryDurationMillis;
      totals.maxMs = Math.max(totals.maxMs, event.queryDurationMillis);
      statements.set(text, totals);
      const request = context.getStore();
      if (request) {
        request.dbMs += event.queryDurationMillis;
        request.statements += 1;
      }
    },
    /** Runs the rest of a request's handling in a context of its own, so its statements are counted to it. */
    inRequest(key: object, next: () => void): void {
      const counted = { dbMs: 0, statements: 0 };
      open.set(key, counted);
      context.run(counted, next);
    },
    /** The request answered after `ms`. */
    leaveRequest(key: object, route: string, ms: number): void {
      const counted = open.get(key);
      if (counted) requests.push({ route, ms, ...counted });
    },
    reset(): void {
      statements.clear();
      requests.length = 0;
      loop.reset();
      since = performance.now();
    },
    read(top = 40) {
      const seconds = (performance.now() - since) / 1_000;
      const all = [...statements.entries()].map(([sql, t]) => ({ sql: sql.slice(0, 160), ...t }));
      const count = all.reduce((sum, s) => sum + s.count, 0);
      const ms = all.reduce((sum, s) => sum + s.ms, 0);
      const shown = (list: typeof all) =>
        list
          .slice(0, top)
          .map((s) => ({ sql: s.sql, count: s.count, ms: round(s.ms), meanMs: round(s.ms / s.count), maxMs: round(s.maxMs) }));
      const routes = [...new Set(requests.map((r) => r.route))].map((route) => {
        const of = requests.filter((r) => r.route === route);
        const sorted = (pick: (r: Request) => number) => of.map(pick).sort((a, b) => a - b);
        const ms = sorted((r) => r.ms);
        const dbMs = sorted((r) => r.dbMs);
        return {
          route,
          count: of.length,
          p50: round(percentile(ms, 50)),
          p99: round(percentile(ms, 99)),
          dbP50: round(percentile(dbMs, 50)),
          dbP99: round(percentile(dbMs, 99)),
          statements: of.reduce((sum, r) => sum + r.statements, 0) / of.length,
        };
      });
      return {
        seconds: round(seconds),
        statements: count,
        perSecond: round(count / seconds),
        busyPercent: round((ms / (seconds * 1_000)) * 100),
        eventLoopMs: { p50: round(loop.percentile(50) / 1e6), p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
        byTotal: shown([...all].sort((a, b) => b.ms - a.ms)),
        byLongest: shown([...all].sort((a, b) => b.maxMs - a.maxMs)),
        routes,
      };
    },
  };
}
