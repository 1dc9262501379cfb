import { data } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { Agent, errors as undiciErrors, request as undiciRequest } from "undici";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { SUCCESS_CODE } from "#contracts/envelope";
import { pathLabel } from "#common/observability/metrics";
import { currentRequest, traceparentOf } from "#common/observability/request-context";
import { startChildSpan } from "#common/observability/tracing";
import { log, upstreamRequestDuration, upstreamRequestErrors, withRequest } from "./observability.server";

/**
 * The one transport to the upstream platform (design.md §3). Every service module calls `call`
 * (JSON answers) or `send` (raw bodies: audio, exports). It sets the headers of spec §7 from the
 * caller, applies timeouts, retries an idempotent read once on a connection failure, parses the
 * answer against its contract, and turns every failure into a Remix error response carrying a
 * Chinese message and a status code, so the route's error boundary can show it in production.
 */

export type Caller = {
  token: string;
  customerId: string;
  userId: number;
  /** Ends the browser session this call serves (a redirect to sign-in), thrown on an upstream 401. */
  endSession?: () => Promise<Response>;
};

/** A file a browser is posting, handed on as it arrives (app/server/security.server.ts reads it). */
export type UploadFile = { name: string; type: string; data: AsyncIterable<Uint8Array> };

export type Method = "GET" | "POST" | "PUT" | "DELETE";
export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export type SendOptions = {
  method?: Method;
  path: string;
  query?: Query;
  json?: unknown;
  form?: Record<string, string>;
  /** A file upload: the fields, then the file, sent as multipart while the file is still arriving. */
  upload?: { fields: Record<string, string>; file: UploadFile };
  /** Chinese name of what is being fetched or done; it names the failure for the user. */
  what: string;
  /** Null only for the public calls (logo) and the client-credential calls under /uaa/oauth. */
  caller: Caller | null;
  timeoutMs?: number;
  /** Extra request headers (e.g. Last-Event-ID); the spec §7 headers always win. */
  headers?: Record<string, string>;
  /** Aborts the call, e.g. when the browser that asked for it goes away. */
  signal?: AbortSignal;
  /** A stream that stays open (real-time events): no total timeout, its own connection pool. */
  longLived?: boolean;
};

export type CallOptions<S extends z.ZodTypeAny> = SendOptions & {
  schema: S;
  /** Answer null instead of failing when the platform says 404. */
  allowNotFound?: boolean;
  /** Accept an envelope whose code is not 1 (the caller decides; spec §5 menus). */
  allowFailureCode?: boolean;
};

export type UpstreamFailure = { message: string; status: number; what: string };

const config = {
  baseUrl: () => process.env.UPSTREAM_URL ?? `http://127.0.0.1:${process.env.UPSTREAM_PORT ?? 3001}`,
  clientId: () => process.env.UPSTREAM_CLIENT_ID ?? "web-console",
  clientSecret: () => process.env.UPSTREAM_CLIENT_SECRET ?? "web-console-secret",
};

/** Interactive pages wait seconds, not undici's minutes. */
export const DEFAULT_TIMEOUT_MS = 8_000;
const CONNECT_TIMEOUT_MS = 2_000;

const dispatcher = new Agent({
  connect: { timeout: CONNECT_TIMEOUT_MS },
  connections: 128,
  keepAliveTimeout: 10_000,
  headersTimeout: DEFAULT_TIMEOUT_MS,
  bodyTimeout: 60_000,
});

/**
 * Real-time streams hold a connection each (one per connected agent), so they get their own
 * pool without a cap; a stream silent for three heartbeats (15 s each) is dead and is dropped.
 */
const streamDispatcher = new Agent({
  connect: { timeout: CONNECT_TIMEOUT_MS },
  headersTimeout: DEFAULT_TIMEOUT_MS,
  bodyTimeout: 45_000,
});

/** Spec §7 header rules, one function so that each rule is testable on its own. */
export function headersFor(
  path: string,
  caller: Caller | null,
  client: { id: string; secret: string } = { id: config.clientId(), secret: config.clientSecret() },
): Record<string, string> {
  const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest" };
  // Sign-up and password reset (`/crm/open`) have no user yet: the client credential, as for /uaa/oauth.
  if (path.includes("/uaa/oauth") || path.startsWith("/crm/open/")) {
    headers.Authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
    return headers;
  }
  if (caller) {
    headers.Authorization = `Bearer ${caller.token}`;
    headers.accessToken = caller.token;
    if (path.includes("/ccb")) {
      headers.customerId = caller.customerId;
      headers.userId = String(caller.userId);
    }
  }
  return headers;
}

export function buildUrl(path: string, query?: Query, base = config.baseUrl()): string {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  if (path.startsWith("/")) url.pathname = new URL(base).pathname.replace(/\/$/, "") + path;
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    // Spec §7 "repeat-style query": arrays repeat the key.
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function errorCode(error: unknown): string | undefined {
  if (error && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (error as { cause?: unknown }).cause;
    if (cause) return errorCode(cause);
  }
  return undefined;
}

export function isConnectionFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CONNECTION_FAILURES.has(code);
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
  );
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    for (const key of ["msg", "message", "error_description"]) {
      if (typeof record[key] === "string" && record[key]) return record[key] as string;
    }
  }
  return undefined;
}

/**
 * Error normalisation (spec §8): every failure becomes a message and a status code, default 500.
 * Client errors keep the platform's status; platform faults are a bad gateway (502);
 * unreachable is 503 and slow is 504.
 */
export function normaliseFailure(what: string, failure: { status?: number; body?: unknown; error?: unknown }): UpstreamFailure {
  if (failure.error !== undefined) {
    if (isTimeout(failure.error)) return { what, status: 504, message: `${what}失败：平台响应超时，请稍后重试` };
    if (isConnectionFailure(failure.error)) {
      return { what, status: 503, message: `${what}失败：暂时无法连接平台，请稍后重试` };
    }
    return { what, status: 500, message: `${what}失败：Error` };
  }
  const status = failure.status;
  if (status === undefined) return { what, status: 500, message: `${what}失败：Error` };
  const detail = messageOf(failure.body);
  if (status >= 400 && status < 500) {
    return { what, status, message: `${what}失败：${detail ?? `请求被拒绝（${status}）`}` };
  }
  if (status >= 500) return { what, status: 502, message: `${what}失败：平台服务异常，请稍后重试` };
  // A 2xx whose envelope code is not the success code.
  return { what, status: 500, message: `${what}失败：${detail ?? "平台返回失败"}` };
}

/** Thrown failures are Remix error responses, so their Chinese message survives production. */
export function upstreamError(failure: UpstreamFailure) {
  return data(failure, { status: failure.status });
}

export function isUpstreamError(error: unknown): error is { data: UpstreamFailure; init: { status: number } } {
  if (!error || typeof error !== "object") return false;
  const candidate = error as { type?: unknown; data?: unknown };
  return (
    candidate.type === "DataWithResponseInit" &&
    !!candidate.data &&
    typeof (candidate.data as UpstreamFailure).message === "string" &&
    typeof (candidate.data as UpstreamFailure).what === "string"
  );
}

async function dispatch(options: SendOptions): Promise<Dispatcher.ResponseData> {
  const method = options.method ?? "GET";
  const headers = { ...options.headers, ...headersFor(options.path, options.caller) };
  const endpoint = pathLabel(options.path);
  // The call's span when tracing is on (until the answer's headers, as the latency below).
  const span = startChildSpan(`${method} ${endpoint}`, "client", { "http.request.method": method, "url.template": endpoint });
  // The request's id travels on, so the platform's log lines of it carry the same id, and its
  // route's span is under this call's.
  const request = currentRequest();
  if (request) headers.traceparent = traceparentOf(span ? { ...request, spanId: span.spanId } : request);
  let body: string | Readable | undefined;
  // An upload's timeout starts again with each chunk the browser sends, and after the last: a slow
  // uplink is not a slow platform (a total time would fail a large list on a slow line).
  const idle = options.upload ? idleTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined;
  if (options.upload) {
    const boundary = `----switchboard-${randomUUID()}`;
    headers["Content-Type"] = `multipart/form-data; boundary=${boundary}`;
    const { fields, file } = options.upload;
    body = Readable.from(multipartBody(boundary, fields, { ...file, data: touching(file.data, idle!.restart) }));
  } else if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const url = buildUrl(options.path, options.query);
  const attempt = () => {
    const timeout = idle?.signal ?? (options.longLived ? undefined : AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    const signals = [timeout, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    return undiciRequest(url, {
      method,
      headers,
      body,
      dispatcher: options.longLived ? streamDispatcher : dispatcher,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
  };
  const started = performance.now();
  const observe = (status: number) => {
    upstreamRequestDuration.observe({ endpoint, method, status }, (performance.now() - started) / 1000);
    span?.end({ "http.response.status_code": status || undefined }, status === 0 || status >= 500);
  };
  try {
    const response = await attempt().catch((error: unknown) => {
      // One retry, for idempotent reads only, and only when the connection itself failed.
      if (method === "GET" && isConnectionFailure(error)) return attempt();
      throw error;
    });
    // Until the answer's headers: a stream's or an export's body may take minutes.
    observe(response.statusCode);
    if (response.statusCode >= 500) countFailure(options, endpoint, "server_error", { status: response.statusCode });
    return response;
  } catch (error) {
    observe(0);
    const failure = normaliseFailure(options.what, { error });
    if (!options.signal?.aborted)
      countFailure(options, endpoint, failure.status === 504 ? "timeout" : failure.status === 503 ? "unreachable" : "error", {
        err: error,
      });
    throw upstreamError(failure);
  } finally {
    idle?.stop();
  }
}

/** An upstream failure: counted, and logged with the request it served. */
function countFailure(options: SendOptions, endpoint: string, kind: string, detail: Record<string, unknown>) {
  upstreamRequestErrors.inc({ endpoint, kind });
  log.warn(withRequest({ event: "upstream failure", kind, method: options.method ?? "GET", endpoint, ...detail }));
}

/** An abort signal that fires after `ms` without a `restart`. */
function idleTimeout(ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new DOMException("上传超时", "TimeoutError")), ms);
  };
  restart();
  return { signal: controller.signal, restart, stop: () => clearTimeout(timer) };
}

async function* touching(chunks: AsyncIterable<Uint8Array>, touch: () => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    touch();
    yield chunk;
  }
}

/** A parameter value in a part's header, escaped as browsers escape a file name. */
const headerValue = (text: string) => text.replace(/[\r\n"]/g, (c) => ({ "\r": "%0D", "\n": "%0A", '"': "%22" })[c] ?? c);

/** A multipart/form-data body (RFC 7578): the fields, then the file's bytes as they come. */
async function* multipartBody(boundary: string, fields: Record<string, string>, file: UploadFile): AsyncGenerator<Uint8Array> {
  const text = (t: string) => Buffer.from(t, "utf8");
  for (const [name, value] of Object.entries(fields)) {
    yield text(`--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(name)}"\r\n\r\n${value}\r\n`);
  }
  yield text(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${headerValue(file.name)}"\r\n` +
      `Content-Type: ${file.type || "application/octet-stream"}\r\n\r\n`,
  );
  yield* file.data;
  yield text(`\r\n--${boundary}--\r\n`);
}

async function readJson(response: Dispatcher.ResponseData): Promise<unknown> {
  const text = await response.body.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function failOn401(options: SendOptions, response: Dispatcher.ResponseData): Promise<void> {
  if (response.statusCode !== 401) return;
  await response.body.dump();
  if (options.caller?.endSession) throw await options.caller.endSession();
  throw upstreamError({ what: options.what, status: 401, message: `${options.what}失败：登录已失效，请重新登录` });
}

/** A raw answer (audio, export streams): 2xx bodies are the caller's to consume. */
export async function send(options: SendOptions): Promise<Dispatcher.ResponseData> {
  const response = await dispatch(options);
  await failOn401(options, response);
  if (response.statusCode >= 400) {
    const body = await readJson(response);
    throw upstreamError(normaliseFailure(options.what, { status: response.statusCode, body }));
  }
  return response;
}

/** A JSON answer parsed against its contract. */
export async function call<S extends z.ZodTypeAny>(options: CallOptions<S> & { allowNotFound: true }): Promise<z.infer<S> | null>;
export async function call<S extends z.ZodTypeAny>(options: CallOptions<S>): Promise<z.infer<S>>;
export async function call<S extends z.ZodTypeAny>(options: CallOptions<S>): Promise<z.infer<S> | null> {
  const response = await dispatch(options);
  await failOn401(options, response);
  const body = await readJson(response);
  if (response.statusCode === 404 && options.allowNotFound) return null;
  if (response.statusCode >= 400) {
    throw upstreamError(normaliseFailure(options.what, { status: response.statusCode, body }));
  }
  const parsed = options.schema.safeParse(body);
  if (!parsed.success) {
    countFailure(options, pathLabel(options.path), "contract", { issues: parsed.error.issues.slice(0, 5) });
    throw upstreamError({ what: options.what, status: 502, message: `${options.what}失败：平台返回的数据格式不正确` });
  }
  const value = parsed.data as { code?: unknown };
  if (!options.allowFailureCode && typeof value?.code === "number" && value.code !== SUCCESS_CODE) {
    throw upstreamError(normaliseFailure(options.what, { status: response.statusCode, body }));
  }
  return parsed.data;
}

/** Unwraps the envelope's data, failing clearly when a successful answer carries none. */
export function requireData<T>(envelope: { data?: T | null }, what: string): T {
  if (envelope.data === undefined || envelope.data === null) {
    throw upstreamError({ what, status: 502, message: `${what}失败：平台返回的数据为空` });
  }
  return envelope.data;
}
