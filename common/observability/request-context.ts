import { AsyncLocalStorage } from "node:async_hooks";
import { randomText } from "#common/random-bytes";

/**
 * The request being served, wherever its work runs (loaders, the upstream transport, Fastify
 * handlers): its id, which is its W3C trace id, so that the console's log lines, the platform's
 * and a trace share it (decision 038). The console passes it on as `traceparent`.
 */
export type RequestContext = {
  /** 32 hexadecimal digits: the trace id. */
  id: string;
  /** 16 hexadecimal digits: this process's span of the request, the parent of what it calls. */
  spanId: string;
  /** The route, as known once matched (metrics' label). */
  route?: string;
};

const storage = new AsyncLocalStorage<RequestContext>();

export const currentRequest = (): RequestContext | undefined => storage.getStore();

export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZERO_TRACE = "0".repeat(32);

/** The trace id and parent span of a `traceparent` header, or null when absent or malformed. */
export function parseTraceparent(header: string | string[] | undefined | null): { traceId: string; parentId: string } | null {
  const match = typeof header === "string" ? TRACEPARENT.exec(header) : null;
  if (!match || match[1] === ZERO_TRACE) return null;
  return { traceId: match[1], parentId: match[2] };
}

export const traceparentOf = (context: RequestContext): string => `00-${context.id}-${context.spanId}-01`;

/** A new request's ids: continuing the caller's trace when it sent one. */
export function newRequestContext(traceparent?: string | string[] | null): RequestContext {
  const bytes = randomText(24, "hex");
  return { id: parseTraceparent(traceparent)?.traceId ?? bytes.slice(0, 32), spanId: bytes.slice(32) };
}
