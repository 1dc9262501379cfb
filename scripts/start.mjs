// `npm start`: the embedded reference platform (unless UPSTREAM_URL points elsewhere) and the
// console, each its own `node` process; stopping this process stops both. With the telephony
// servers installed (or VOICE=sip) it also runs them for real voice (scripts/voice-servers.mjs).
// Honours PORT, UPSTREAM_URL, UPSTREAM_PORT, DATA_DIR, DATABASE_URL, SESSION_SECRET, METRICS_PORT,
// UPSTREAM_METRICS_PORT, UPSTREAM_OTEL_SERVICE_NAME, VOICE and VOICE_PORT.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startVoiceServers } from "./voice-servers.mjs";

const root = new URL("..", import.meta.url).pathname;
const dataDir = resolve(process.env.DATA_DIR ?? join(root, "data"));
const upstreamPort = process.env.UPSTREAM_PORT ?? "3001";
const children = [];

/**
 * Runs a process; if it exits on its own, `restarts` says how often in RESTART_WINDOW_MS it is
 * started again (after 1, 2, 4 … s) before everything stops. The platform restarts (the console
 * reconnects and its users see a Chinese "cannot reach the platform" meanwhile); the console does not.
 */
const RESTART_WINDOW_MS = 10 * 60_000;
function run(name, args, env, restarts = 0) {
  const exits = [];
  const start = () => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: "inherit" });
    children.push(child);
    child.on("exit", (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (stopping) return;
      const now = Date.now();
      exits.push(now);
      while (exits.length > 0 && exits[0] < now - RESTART_WINDOW_MS) exits.shift();
      const why = signal ? `signal ${signal}` : `exit code ${code}`;
      if (exits.length <= restarts) {
        const delay = 1_000 * 2 ** (exits.length - 1);
        console.error(`[start] ${name} stopped unexpectedly (${why}); restarting in ${delay / 1000} s (see its log above for the cause)`);
        setTimeout(() => stopping || start(), delay);
        return;
      }
      console.error(
        `[start] ${name} stopped (${why})${restarts > 0 ? ` ${exits.length} times in ${RESTART_WINDOW_MS / 60_000} minutes` : ""}; stopping Switchboard. See its log above for the cause.`,
      );
      stop(code || 1);
    });
  };
  start();
}

let stopping = false;
/** The telephony servers of this start (null: simulated media); stopped after the platform. */
let voice = null;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  // Each process drains for up to 10 s (README "Running it"); then they are gone anyway.
  setTimeout(() => process.exit(code), 12_000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on("exit", r)))))
    .then(() => voice?.stop())
    .then(() => process.exit(code));
}
process.on("exit", () => voice?.killNow());
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function waitForHealth(url, name, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy at ${url} within ${timeoutMs / 1000}s`);
}

/** No secret in the repo: one is made on first start and kept beside the data. */
function sessionSecret() {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "session-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

const port = process.env.PORT ?? "3000";
let upstreamUrl = process.env.UPSTREAM_URL;
if (!upstreamUrl) {
  voice = await startVoiceServers({ basePort: Number(port) + 10, dataDir });
  upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
  run(
    "the reference platform",
    [join(root, "build/upstream/server.mjs")],
    // The platform's metrics port is its own (METRICS_PORT is the console's).
    {
      UPSTREAM_PORT: upstreamPort,
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      METRICS_PORT: process.env.UPSTREAM_METRICS_PORT ?? "",
      // Its traces' service name is its own too (OTEL_SERVICE_NAME names the console's).
      OTEL_SERVICE_NAME: process.env.UPSTREAM_OTEL_SERVICE_NAME || "switchboard-platform",
      ...voice?.platformEnv,
    },
    5,
  );
  await waitForHealth(upstreamUrl, "the reference platform");
}

run("the console", [join(root, "server.mjs")], {
  NODE_ENV: "production",
  PORT: port,
  UPSTREAM_URL: upstreamUrl,
  SESSION_SECRET: sessionSecret(),
  ...voice?.consoleEnv,
});
await waitForHealth(`http://127.0.0.1:${port}`, "the console");
console.log(`[start] Switchboard is ready on http://localhost:${port} (platform ${upstreamUrl})`);
