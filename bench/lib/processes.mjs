// Child processes of a bench run: servers started and stopped by pid, and load generators that
// run as their own process (never inside the process they measure).
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { bundlePlatform } from "../../scripts/bundle-platform.mjs";
import { waitForHealth } from "./http.mjs";
import { ROOT } from "./weight.mjs";

const children = new Set();

/** Starts `node <args>` in the repository, logging to `log` (a write stream) when given. */
export function startNode(name, args, env, log) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk) => log?.write(`[${name}] ${chunk}`));
  child.stderr.on("data", (chunk) => log?.write(`[${name}] ${chunk}`));
  child.name = name;
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/**
 * The bench platform (bench/platform.ts) bundled as for production and started on
 * PORTS.scalePlatform, its control listener on PORTS.scaleControl; `env` adds to its environment.
 * Answers the child once its health check answers.
 */
export async function startBundledPlatform(name, ports, env, log) {
  const bundle = join(ROOT, "build/bench/platform.mjs");
  await bundlePlatform(join(ROOT, "bench/platform.ts"), bundle);
  const platform = startNode(
    name,
    [bundle],
    { UPSTREAM_PORT: String(ports.scalePlatform), BENCH_CONTROL_PORT: String(ports.scaleControl), NODE_ENV: "production", ...env },
    log,
  );
  try {
    await waitForHealth(`http://127.0.0.1:${ports.scalePlatform}`);
  } catch (error) {
    await stop(platform);
    throw error;
  }
  return platform;
}

/**
 * The bench platform (through tsx, its control listener on `ports.control`) and the console's
 * production build in front of it, each healthy before this returns. `platformEnv` and `consoleEnv`
 * add to each one's environment; `nodeArgs(name)` gives node options per server (profiling).
 */
export async function startServers({ ports, dataDir, platformEnv = {}, consoleEnv = {}, nodeArgs = () => [], log }) {
  const urls = {
    platformUrl: `http://127.0.0.1:${ports.platform}`,
    consoleUrl: `http://127.0.0.1:${ports.console}`,
    controlUrl: `http://127.0.0.1:${ports.control}`,
  };
  const platform = startNode(
    "platform",
    [...nodeArgs("platform"), "--import", "tsx", "bench/platform.ts"],
    {
      UPSTREAM_PORT: String(ports.platform),
      BENCH_CONTROL_PORT: String(ports.control),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      ...platformEnv,
    },
    log,
  );
  await waitForHealth(urls.platformUrl);
  const consoleProcess = startNode(
    "console",
    [...nodeArgs("console"), "server.mjs"],
    {
      NODE_ENV: "production",
      PORT: String(ports.console),
      UPSTREAM_URL: urls.platformUrl,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      COOKIE_SECURE: "0",
      ...consoleEnv,
    },
    log,
  );
  await waitForHealth(urls.consoleUrl);
  return { ...urls, platform, consoleProcess };
}

export async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export const stopAll = () => Promise.all([...children].map(stop));

/** Resident memory of a process now, in MB (Linux). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

/** CPU time a process has used so far, in ms (user + system; Linux clock ticks are 10 ms). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");

/** The autocannon command line for a request, as it is run and as RESULTS.md shows it. */
export function autocannonArgs({ url, connections = 20, seconds, method = "GET", headers = {}, body }) {
  const args = ["-c", String(connections), "-d", String(seconds), "-m", method];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  if (body !== undefined) args.push("-b", body);
  return [...args, url];
}

/** CPU time this process's ended children have used (an autocannon run once it exits), in ms. */
function endedChildrenCpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * Runs autocannon in its own process; returns req/s, latency p50/p99 (ms), errors (incl. non-2xx),
 * autocannon's own CPU ms per request (it shares the machine's cores) and, given the server's pid,
 * the server's CPU ms per request: the figure that other load on the machine disturbs least.
 * `alsoPids` (the processes the server calls, such as the platform) are summed in `alsoCpuPerRequest`.
 */
export async function autocannon(request, serverPid, alsoPids = []) {
  const args = autocannonArgs(request);
  const pids = serverPid ? [serverPid, ...alsoPids] : [];
  const before = pids.map(cpuMs);
  const loadBefore = endedChildrenCpuMs();
  const { stdout } = await promisify(execFile)(process.execPath, [AUTOCANNON, "-j", ...args], { cwd: ROOT, maxBuffer: 64 << 20 });
  const result = JSON.parse(stdout);
  const total = result.requests.total;
  const used = pids.map((pid, i) => (cpuMs(pid) - before[i]) / total);
  return {
    cpuPerRequest: serverPid ? used[0] : undefined,
    alsoCpuPerRequest: used.slice(1).reduce((sum, value) => sum + value, 0),
    loadCpuPerRequest: (endedChildrenCpuMs() - loadBefore) / total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total,
    command: `autocannon ${args.map((arg) => (/[\s"=;]/.test(arg) ? `'${arg.replace(/Cookie=.*/, "Cookie=<session>").replace(/(Authorization|accessToken)=.*/i, "$1=<token>")}'` : arg)).join(" ")}`,
  };
}

/** A load run after a warm-up run that is not counted (plans, caches, JIT). */
export async function warmLoad(request, serverPid, warmUp, alsoPids = []) {
  await autocannon({ ...request, seconds: warmUp });
  return autocannon(request, serverPid, alsoPids);
}
