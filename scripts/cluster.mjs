// `npm run cluster`: Switchboard past one machine, on loopback (decision 037): PostgreSQL
// (a throwaway cluster, unless DATABASE_URL is set), two platform processes, two
// consoles and HAProxy in front of each tier, round robin with no sticky sessions. The consoles are
// on PORT (3000), the platforms' balancer on PORT+1; the processes on PORT+2 … PORT+6. A process
// that stops is started again.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const dataDir = resolve(process.env.DATA_DIR ?? join(root, "data"), "cluster");
const port = Number(process.env.PORT ?? 3000);
const ports = { console: port, platform: port + 1, consoles: [port + 2, port + 3], platforms: [port + 4, port + 5], postgres: port + 6 };
const children = new Set();
mkdirSync(dataDir, { recursive: true });
let stopping = false;

/**
 * Runs a program; a platform (`again`) is started again a second after it stops. Its process id
 * is in DATA_DIR/cluster/<name>.pid (e.g. platform-1.pid), for an operator or a test to signal it.
 */
function run(name, command, args, env = {}, again = false) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: "inherit" });
  children.add(child);
  writeFileSync(join(dataDir, `${name.replace(/\s+/g, "-")}.pid`), `${child.pid}\n`);
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    console.error(`[cluster] ${name} stopped (${signal ?? `exit code ${code}`})${again ? "; starting it again" : ""}`);
    if (again) setTimeout(() => stopping || run(name, command, args, env, again), 1_000);
  });
}

function stop() {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

async function healthy(url) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${url} did not become healthy`);
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL's programs run as `postgres` when this runs as root (initdb refuses root). */
const pgBin = () => execFileSync("sh", ["-c", "ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1"]).toString().trim();
const asPostgres = (program, args) =>
  process.getuid?.() === 0
    ? execFileSync("runuser", ["-u", "postgres", "--", join(pgBin(), program), ...args])
    : execFileSync(join(pgBin(), program), args);
// Throwaway, in the system's temporary directory: as root it belongs to `postgres`, who could not reach DATA_DIR.
// Removed when this stops; one left by a cluster that was killed outright (its PostgreSQL gone
// with it, 10 minutes old) is removed by the next.
const PG_PARENT_PREFIX = "switchboard-cluster-";
for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(PG_PARENT_PREFIX))) {
  const pidFile = join(tmpdir(), name, "postgres", "postmaster.pid");
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : 0;
  // Not one another cluster is still making (no PostgreSQL yet) or running.
  if ((pid && isRunning(pid)) || Date.now() - statSync(join(tmpdir(), name)).mtimeMs < 600_000) continue;
  rmSync(join(tmpdir(), name), { recursive: true, force: true });
}
const pgParent = mkdtempSync(join(tmpdir(), PG_PARENT_PREFIX));
process.on("exit", () => rmSync(pgParent, { recursive: true, force: true }));
chmodSync(pgParent, 0o755);
const pgData = join(pgParent, "postgres");

let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  mkdirSync(pgData);
  if (process.getuid?.() === 0) chownSync(pgData, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  asPostgres("initdb", ["-D", pgData, "-A", "trust", "-U", "postgres", "--no-sync"]);
  // In the foreground, as a child: it stops with this process, however that ends.
  const serverArgs = ["-D", pgData, "-p", String(ports.postgres), "-k", pgData, "-c", "listen_addresses=127.0.0.1"];
  if (process.getuid?.() === 0) run("PostgreSQL", "runuser", ["-u", "postgres", "--", join(pgBin(), "postgres"), ...serverArgs]);
  else run("PostgreSQL", join(pgBin(), "postgres"), serverArgs);
  for (let tries = 0; ; tries++) {
    try {
      asPostgres("pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(ports.postgres)]);
      break;
    } catch (error) {
      if (tries > 100) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  databaseUrl = `postgres://postgres@127.0.0.1:${ports.postgres}/postgres`;
}

// The first platform migrates and seeds; the second starts once it is up.
for (const [i, platformPort] of ports.platforms.entries()) {
  const env = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    UPSTREAM_PORT: String(platformPort),
    PLATFORM_URL: `http://127.0.0.1:${platformPort}`,
  };
  run(`platform ${i + 1}`, process.execPath, [join(root, "build/upstream/server.mjs")], env, true);
  await healthy(`http://127.0.0.1:${platformPort}`);
}

const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString("hex");
const backends = (name, list) => list.map((p, i) => `  server ${name}${i + 1} 127.0.0.1:${p} check inter 1s fall 1 rise 1`).join("\n");
const config = join(dataDir, "haproxy.cfg");
writeFileSync(
  config,
  `global
  maxconn 4096
defaults
  mode http
  option forwardfor
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  option redispatch
  retry-on conn-failure empty-response 503
  retries 3
  # Event streams are small frames that must leave at once: HAProxy otherwise asks the kernel to
  # hold a frame for more data (MSG_MORE), about 200 ms, which was every event's latency here.
  option http-no-delay
frontend consoles
  bind 127.0.0.1:${ports.console}
  default_backend consoles
backend consoles
  balance roundrobin
  option httpchk GET /health
${backends("console", ports.consoles)}
frontend platforms
  bind 127.0.0.1:${ports.platform}
  default_backend platforms
backend platforms
  balance roundrobin
  option httpchk GET /health
${backends("platform", ports.platforms)}
`,
);
run("HAProxy", "haproxy", ["-f", config, "-db"]);

for (const [i, consolePort] of ports.consoles.entries()) {
  const env = {
    NODE_ENV: "production",
    PORT: String(consolePort),
    UPSTREAM_URL: `http://127.0.0.1:${ports.platform}`,
    SESSION_SECRET: sessionSecret,
    TRUST_PROXY: "1",
  };
  run(`console ${i + 1}`, process.execPath, [join(root, "server.mjs")], env, true);
  await healthy(`http://127.0.0.1:${consolePort}`);
}
console.log(
  `[cluster] Switchboard is ready on http://localhost:${ports.console} (two consoles, two platforms behind HAProxy; PostgreSQL ${databaseUrl})`,
);
