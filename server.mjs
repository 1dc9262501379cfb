// @ts-check
// The console's production server: static assets, then every other request to Remix.
// Run by `npm start` (scripts/start.mjs) as `node server.mjs`. A plain Node HTTP server rather
// than Express: the console routes nothing itself, and Express's per-request decoration cost
// about 8 % of the CPU of a list page (docs/decisions/011-plain-node-server.md).
import { createServer } from "node:http";
import { Transform } from "node:stream";
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";
import compression from "compression";
import serveStatic from "serve-static";

const port = Number(process.env.PORT ?? 3000);
// A path in a variable: the build exists only after `npm run build`, and is typed as Remix's.
const BUILD_PATH = "./build/console/server/index.js";
const build = /** @type {import("@remix-run/node").ServerBuild} */ (await import(BUILD_PATH));
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
/** Request ids, logs, metrics, readiness and draining (app/server/operations.server.ts). */
const operations = /** @type {typeof import("./app/server/operations.server")} */ (/** @type {unknown} */ (build.entry.module));

const compress = compression();
// Pages get their security headers from entry.server; static files get nosniff here.
/** @param {import("node:http").ServerResponse} res */
const nosniff = (res) => res.setHeader("X-Content-Type-Options", "nosniff");
const CLIENT_DIR = "build/console/client";
// Every file under /assets and /cti carries its content's hash in its name: it never changes.
const assets = serveStatic(CLIENT_DIR, { immutable: true, maxAge: "1y", index: false, setHeaders: nosniff });

/**
 * How much a request may send: a contact list (20 MB, the platform's limit, plus the form around
 * it) as multipart, 1 MB for anything else (the longest form is far below). Beyond that the
 * answer is 413 with a Chinese message, without reading the rest: a 100 MB post to sign-in once
 * grew the console by 855 MB.
 */
const UPLOAD_LIMIT = 21 * 1024 * 1024;
const FORM_LIMIT = 1024 * 1024;
/** The pages that take a file: a campaign's contact import, the knowledge base's batch import, the contacts' import. */
const UPLOAD_PATH = /^\/(campaign\/\d+|knowledgeBase\/config|contacts)(\?|$)/;
/** @param {import("node:http").IncomingMessage} req */
const bodyLimitOf = (req) =>
  req.headers["content-type"]?.startsWith("multipart/form-data") && UPLOAD_PATH.test(req.url ?? "") ? UPLOAD_LIMIT : FORM_LIMIT;

/**
 * The browser's address for the platform's sign-in throttle: the socket's, or with TRUST_PROXY=1
 * (a reverse proxy in front that appends to X-Forwarded-For) the right-most address it added.
 * @param {import("node:http").IncomingMessage} req
 */
function clientAddressOf(req) {
  const forwarded =
    process.env.TRUST_PROXY === "1"
      ? String(req.headers["x-forwarded-for"] ?? "")
          .split(",")
          .at(-1)
          ?.trim()
      : "";
  return forwarded || req.socket.remoteAddress || "";
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
function tooLarge(req, res) {
  const upload = req.headers["content-type"]?.startsWith("multipart/form-data");
  const message = upload ? "上传的文件过大：文件不能超过 20MB，请拆分后分批导入" : "提交的内容过大，请删减后重试";
  operations.logRefusal(req, res, "body too large", { contentLength: Number(req.headers["content-length"] ?? 0) || undefined });
  refuse(req, res, 413, "提交的内容过大", message);
}

/**
 * A post from another site (its Origin is not this host): refused here with a Chinese 403, as
 * Remix's own check would otherwise throw and answer 500. The same rule as Remix's: the Origin's
 * host against X-Forwarded-Host, else Host.
 * @param {import("node:http").IncomingMessage} req
 */
function isForeignPost(req) {
  const origin = req.headers.origin;
  if (!origin || !["POST", "PUT", "PATCH", "DELETE"].includes(req.method ?? "")) return false;
  const host =
    String(req.headers["x-forwarded-host"] ?? "")
      .split(",")[0]
      .trim() || req.headers.host;
  try {
    return origin === "null" || new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * A refusal before the app: an HTML page for a browser's navigation, JSON otherwise.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {string} title
 * @param {string} message
 */
function refuse(req, res, status, title, message) {
  res.statusCode = status;
  discardBody(req, res);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "no-store");
  if (req.headers.accept?.includes("text/html")) {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(
      `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${message}</p><p><a href="/">返回首页</a>（或用浏览器的后退按钮回到刚才的页面）</p></html>`,
    );
  } else {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ message }));
  }
}

const DISCARD_LIMIT = 64 * 1024 * 1024;
/**
 * The rest of a refused body is read and thrown away, so the browser, still sending, gets to read
 * the 413 rather than a reset connection; past DISCARD_LIMIT the connection is dropped instead.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
function discardBody(req, res) {
  if (Number(req.headers["content-length"] ?? 0) > DISCARD_LIMIT) {
    res.setHeader("Connection", "close");
    return;
  }
  let discarded = 0;
  req.unpipe();
  req.on("data", (/** @type {Buffer} */ chunk) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) req.destroy();
  });
  req.resume();
}

/**
 * The body as a stream that fails once it passes `limit` bytes (a body sent without a length).
 * @param {import("node:http").IncomingMessage} req
 * @param {number} limit
 * @param {() => void} onExceeded
 */
function limited(req, limit, onExceeded) {
  let received = 0;
  const counted = new Transform({
    transform(chunk, _encoding, done) {
      received += chunk.length;
      if (received <= limit) return done(null, chunk);
      onExceeded();
      req.unpipe(counted);
      done(new Error("request body too large"));
    },
  });
  return createReadableStreamFromReadable(req.pipe(counted));
}

/**
 * The Fetch API request Remix expects, aborted when the browser goes away before the answer ends.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {() => void} onExceeded
 */
function toRequest(req, res, onExceeded) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  // Who is asking, for the platform's sign-in throttle: from the socket, never from the browser.
  headers.set("X-Client-Address", clientAddressOf(req));
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = limited(req, bodyLimitOf(req), onExceeded);
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), init);
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 */
async function sendResponse(res, response) {
  res.statusCode = response.status;
  // Every answer of Remix (pages, data, exports, recordings) is someone's own: kept by no cache
  // unless its route says otherwise, and never sniffed into another type.
  if (!response.headers.has("Cache-Control")) res.setHeader("Cache-Control", "private, no-store");
  nosniff(res);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  if (response.headers.get("Content-Type")?.startsWith("text/event-stream")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
async function page(req, res) {
  if (isForeignPost(req)) {
    operations.logRefusal(req, res, "foreign origin", { origin: String(req.headers.origin).slice(0, 200) });
    return refuse(req, res, 403, "提交被拒绝", "不接受来自其他网站的提交");
  }
  if (Number(req.headers["content-length"] ?? 0) > bodyLimitOf(req)) return tooLarge(req, res);
  let exceeded = false;
  let request;
  try {
    request = toRequest(req, res, () => (exceeded = true));
  } catch {
    // A Host header or path no URL can be made of.
    res.statusCode = 400;
    res.end();
    return;
  }
  try {
    const response = await handleRequest(request);
    if (exceeded) {
      await response.body?.cancel();
      return tooLarge(req, res);
    }
    await sendResponse(res, response);
  } catch (error) {
    if (exceeded) return res.headersSent ? res.destroy() : tooLarge(req, res);
    operations.logFailure(error);
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.end();
    }
  }
}

await operations.startTracing();
const server = createServer((req, res) => {
  // compression and serve-static are typed for Express; they use only Node's own request and response.
  const expressReq = /** @type {import("express").Request} */ (/** @type {unknown} */ (req));
  const expressRes = /** @type {import("express").Response} */ (/** @type {unknown} */ (res));
  compress(expressReq, expressRes, () => {
    const next = () => operations.observeRequest(req, res, () => page(req, res));
    const url = req.url ?? "/";
    if (url.startsWith("/assets/") || url.startsWith("/cti/")) assets(req, res, next);
    else if (url === "/ready") void operations.answerReadiness(res);
    else next();
  });
});
server.listen(port, process.env.HOST, () => {
  console.log(`[console] listening on http://localhost:${port}`);
});
server.keepAliveTimeout = 65_000;
operations.serveMetrics(process.env.METRICS_PORT);

/**
 * Graceful stop (README "Running it"): no new connections, /ready 503, event streams end with a
 * reconnect hint (browsers come back with Last-Event-ID), requests in flight finish; idle
 * keep-alive connections are closed as they become idle. After DRAIN_MS whatever remains is cut.
 */
const DRAIN_MS = 10_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    operations.startDraining();
    server.close(() => operations.flushTelemetry(() => process.exit(0)));
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    setTimeout(() => {
      server.closeAllConnections();
      operations.flushTelemetry(() => process.exit(0));
    }, DRAIN_MS).unref();
  });
}
