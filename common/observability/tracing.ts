import { currentRequest, parseTraceparent, type RequestContext } from "./request-context";
import type { Span, SpanAttributes, SpanKindName, Tracer } from "./tracing-sdk";

/**
 * Traces (OpenTelemetry, decision 041): off unless an OTLP endpoint is configured, and then a
 * page's request on the console → its calls to the platform → the platform's route → its SQL.
 * This module is all that is loaded when tracing is off: the SDK (tracing-sdk.ts) and its
 * packages are imported only by `startTracing`, and every span start below is one null check.
 *
 * Spans take their ids from the request context, so a request's id stays its trace id.
 */

type Env = Record<string, string | undefined>;

/** The standard switches: an OTLP endpoint (all signals' or the traces'), unless the SDK or the traces exporter is turned off. */
export function tracingConfigured(env: Env = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.toLowerCase() !== "true" && env.OTEL_TRACES_EXPORTER?.toLowerCase() !== "none";
}

let tracer: Tracer | null = null;

/** Whether spans are being recorded (the platform's SQL spans are set up only then). */
export const tracingOn = (): boolean => tracer !== null;

/** Loads the SDK when tracing is configured; `serviceName` unless OTEL_SERVICE_NAME names it. */
export async function startTracing(serviceName: string, env: Env = process.env): Promise<void> {
  if (tracer || !tracingConfigured(env)) return;
  const { createTracer } = await import("./tracing-sdk");
  tracer = await createTracer(serviceName, env);
}

/** On shutdown: the last spans are exported. */
export async function stopTracing(): Promise<void> {
  const stopping = tracer;
  tracer = null;
  await stopping?.shutdown();
}

/**
 * The span of a request this process serves: under the caller's span when it sent a
 * `traceparent`, else the root of a trace whose id is the request's id. The context's span id
 * becomes the span's, so what the request does is under it.
 */
export function startRequestSpan(
  context: RequestContext,
  name: string,
  traceparent: string | string[] | undefined,
  attributes?: SpanAttributes,
): Span | null {
  if (!tracer) return null;
  const caller = parseTraceparent(traceparent);
  // The context's id is the caller's trace id when there is a caller (newRequestContext).
  const parent = caller ? { traceId: context.id, spanId: caller.parentId, remote: true } : { traceId: context.id };
  const span = tracer.start(name, "server", parent, { attributes });
  context.spanId = span.spanId;
  return span;
}

/** A span under the request being served (none outside a request: background work is not traced). */
export function startChildSpan(name: string, kind: SpanKindName, attributes?: SpanAttributes, startTime?: number): Span | null {
  const request = tracer && currentRequest();
  if (!tracer || !request) return null;
  return tracer.start(name, kind, { traceId: request.id, spanId: request.spanId }, { attributes, startTime });
}
