import type { LogEvent } from "kysely";
import { startChildSpan, tracingOn } from "#common/observability/tracing";

/**
 * The SQL of a traced request, one span per statement (decision 041), through Kysely's query log:
 * Kysely times each statement and calls this once it has answered or failed, so the span is
 * made after the fact with the statement's start time. The text is the parameterised statement
 * (`$1`, never the values). Only when tracing is on: without a log Kysely times nothing.
 */
export const sqlSpans = (): ((event: LogEvent) => void) | undefined => (tracingOn() ? recordStatement : undefined);

function recordStatement(event: LogEvent): void {
  const text = event.query.sql;
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SQL";
  const span = startChildSpan(
    operation,
    "client",
    { "db.system.name": "postgresql", "db.operation.name": operation, "db.query.text": text.slice(0, 2_000) },
    performance.now() - event.queryDurationMillis,
  );
  span?.end({}, event.level === "error");
}
