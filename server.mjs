// The console's production server: static assets, then every other request to Remix.
// Run by `npm start` (scripts/start.mjs) as `node server.mjs`.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const port = Number(process.env.PORT ?? 3000);
const build = await import("./build/console/server/index.js");

const app = express();
app.disable("x-powered-by");
app.use(compression());
// Pages get their security headers from entry.server; static files get nosniff here. Only the
// two static folders are looked up on disk, so a page request never pays for a file lookup.
const nosniff = (res) => res.setHeader("X-Content-Type-Options", "nosniff");
// Fingerprinted assets never change; the softphone files under /cti are revalidated hourly.
app.use("/assets", express.static("build/console/client/assets", { immutable: true, maxAge: "1y", index: false, setHeaders: nosniff }));
app.use("/cti", express.static("build/console/client/cti", { maxAge: "1h", index: false, setHeaders: nosniff }));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const server = app.listen(port, process.env.HOST, () => {
  console.log(`[console] listening on http://localhost:${port}`);
});
server.keepAliveTimeout = 65_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
