// @ts-check
// The console's production server: static assets, then every other request to Remix.
// Run by `npm start` (scripts/start.mjs) as `node server.mjs`. A plain Node HTTP server rather
// than Express: the console routes nothing itself, and Express's per-request decoration cost
// about 8 % of the CPU of a list page (docs/decisions/011-plain-node-server.md).
import { createServer } from "node:http";
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";
import compression from "compression";
import serveStatic from "serve-static";

const port = Number(process.env.PORT ?? 3000);
// A path in a variable: the build exists only after `npm run build`, and is typed as Remix's.
const BUILD_PATH = "./build/console/server/index.js";
const build = /** @type {import("@remix-run/node").ServerBuild} */ (await import(BUILD_PATH));
const handleRequest = createRequestHandler(build, process.env.NODE_ENV);

const compress = compression();
// Pages get their security headers from entry.server; static files get nosniff here.
/** @param {import("node:http").ServerResponse} res */
const nosniff = (res) => res.setHeader("X-Content-Type-Options", "nosniff");
const CLIENT_DIR = "build/console/client";
// Every file under /assets and /cti carries its content's hash in its name: it never changes.
const assets = serveStatic(CLIENT_DIR, { immutable: true, maxAge: "1y", index: false, setHeaders: nosniff });

/**
 * The Fetch API request Remix expects, aborted when the browser goes away before the answer ends.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
function toRequest(req, res) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
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
  let request;
  try {
    request = toRequest(req, res);
  } catch {
    // A Host header or path no URL can be made of.
    res.statusCode = 400;
    res.end();
    return;
  }
  try {
    await sendResponse(res, await handleRequest(request));
  } catch (error) {
    console.error("[console]", req.method, req.url, error);
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.end();
    }
  }
}

const server = createServer((req, res) => {
  // compression and serve-static are typed for Express; they use only Node's own request and response.
  const expressReq = /** @type {import("express").Request} */ (/** @type {unknown} */ (req));
  const expressRes = /** @type {import("express").Response} */ (/** @type {unknown} */ (res));
  compress(expressReq, expressRes, () => {
    const next = () => void page(req, res);
    const url = req.url ?? "/";
    if (url.startsWith("/assets/") || url.startsWith("/cti/")) assets(req, res, next);
    else next();
  });
});
server.listen(port, process.env.HOST, () => {
  console.log(`[console] listening on http://localhost:${port}`);
});
server.keepAliveTimeout = 65_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
