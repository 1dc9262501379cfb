// `npm run bench [-- --quick] [-- --only=<section>]`: builds if needed, starts its own platform (bench/platform.ts) and
// console (the production build) on ports 3170–3176 (BENCH_PORT_BASE moves them; the opt-in cluster section adds its own at +10 … +16) with a throwaway DATA_DIR, runs every
// section, prints one table and writes it to bench/RESULTS.md. --quick stays under 2 minutes
// (shorter load runs, one Lighthouse run per page, no 1M-record scale run), the full run under 20.
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem, tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { ACCOUNTS, CLUSTER, EVENTS, MONITOR, PORTS, SOAK, VOICE } from "./config.mjs";
import { signIn } from "./lib/http.mjs";
import { startServers, stopAll } from "./lib/processes.mjs";
import { ROOT } from "./lib/weight.mjs";

// Sections reuse the contracts' TypeScript (the SSE parser).
register();
const { ssr } = await import("./sections/ssr.mjs");
const { weight } = await import("./sections/weight.mjs");
const { lighthouse } = await import("./sections/lighthouse.mjs");
const { scale } = await import("./sections/scale.mjs");
const { events } = await import("./sections/events.mjs");
const { outbound } = await import("./sections/outbound.mjs");
const { monitor } = await import("./sections/monitor.mjs");
const { contacts } = await import("./sections/contacts.mjs");
const { inspection } = await import("./sections/inspection.mjs");
const { soak } = await import("./sections/soak.mjs");
const { upload } = await import("./sections/upload.mjs");
const { voice } = await import("./sections/voice.mjs");
const { cluster } = await import("./sections/cluster.mjs");

/** The sections in the order they run and print; a new section is one line here. */
const SECTIONS = [
  ["SSR throughput and upstream overhead", ssr],
  ["Browser weight (gzip)", weight],
  ["Lighthouse (mobile, simulated throttling)", lighthouse],
  ["Scale (1M call records)", scale],
  [`Event latency (${EVENTS.agents} agents)`, events],
  [`Live monitor (${MONITOR.agents} agents, ${MONITOR.supervisors} supervisors)`, monitor],
  ["Contacts (1M)", contacts],
  ["Inspection (1M calls)", inspection],
  // Last: its 100,000 imported contacts stay in the bench platform's database.
  ["Outbound (100,000-contact campaign)", outbound],
  // Only when asked for (--only=soak): half an hour.
  [`Soak (${SOAK.minutes} min)`, soak, { optIn: true }],
  // Only when asked for (--only=upload): its import runs on in the background for a minute.
  ["Upload memory (19 MB contact list)", upload, { optIn: true }],
  // Only when asked for (--only=voice): it needs the telephony servers and runs for minutes.
  [`Real voice (Kamailio, rtpengine, baresip; ${VOICE.calls} calls)`, voice, { optIn: true }],
  // Only when asked for (--only=cluster): it starts `npm run cluster` of its own, and none of the servers above.
  [`Cluster (${CLUSTER.agents} agents; revocation)`, cluster, { optIn: true, ownServers: true }],
];

const quick = process.argv.includes("--quick");
// `--only=<section>` (its function name, e.g. outbound) runs one section and prints it without writing RESULTS.md.
const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const mode = quick
  ? { seconds: 5, warmUp: 1, lighthouseRuns: 1, eventRounds: 5 }
  : { seconds: 20, warmUp: 3, lighthouseRuns: 3, eventRounds: 30 };

const selected = SECTIONS.filter(([, fn, options]) => (only ? fn.name === only : !options?.optIn));
const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), "switchboard-bench-"));
const log = createWriteStream(join(tmp, "servers.log"));
console.log(`[bench] ${quick ? "quick" : "full"} run; scratch and server logs in ${tmp}`);
execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs"), "--if-needed"], { cwd: ROOT, stdio: "inherit" });

const results = [];
/** Each section's wall time, printed under the table: the full run is to finish in 20 minutes. */
const timings = [];
try {
  const servers = selected.some(([, , options]) => !options?.ownServers)
    ? await startServers({
        ports: PORTS,
        dataDir: join(tmp, "data"),
        platformEnv: { BENCH_AGENTS: String(Math.max(EVENTS.agents, MONITOR.agents)), AGENT_SIMULATOR: "0" },
        log,
      })
    : {};

  const sessions = {};
  if (servers.consoleUrl) for (const account of ACCOUNTS) sessions[account] = await signIn(servers.consoleUrl, account);
  const ctx = { ...mode, quick, tmp, log, ...servers, sessions };
  for (const [title, section] of selected) {
    const at = Date.now();
    process.stdout.write(`[bench] ${title} … `);
    try {
      results.push([title, await section(ctx)]);
    } catch (error) {
      results.push([
        title,
        [
          {
            figure: "section failed",
            value: String(error?.message ?? error).slice(0, 200),
            target: "",
            met: false,
            command: "npm run bench",
          },
        ],
      ]);
    }
    timings.push(`${section.name} ${((Date.now() - at) / 1000).toFixed(0)} s`);
    console.log(`${((Date.now() - at) / 1000).toFixed(0)} s`);
  }
} finally {
  await stopAll();
  log.end();
}

const report = `${render(results, quick, (Date.now() - started) / 1000)}\n\nSections' wall time: ${timings.join(", ")}.`;
console.log(`\n${report}`);
if (!only) writeFileSync(join(ROOT, "bench/RESULTS.md"), mergeRuns(report, quick));
rmSync(join(tmp, "data"), { recursive: true, force: true });
console.log(`[bench] ${only ? "did not write" : "wrote"} bench/RESULTS.md in ${((Date.now() - started) / 1000).toFixed(0)} s`);

function versions() {
  const version = (name) => JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
  return ["@remix-run/node", "react", "primereact", "fastify", "kysely", "@electric-sql/pglite", "undici", "autocannon", "lighthouse"]
    .map((name) => `${name} ${version(name)}`)
    .join(", ");
}

function chromiumVersion() {
  try {
    return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "chromium not found";
  }
}

function cell(text) {
  return String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");
}

function render(sections, quick, seconds) {
  const lines = [
    `### ${quick ? "Quick" : "Full"} run (\`npm run bench${quick ? " -- --quick" : ""}\`), ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}, ${seconds.toFixed(0)} s`,
    "",
    `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory; Node ${process.version}; ${chromiumVersion()}.`,
    `Packages: ${versions()}.`,
    "",
    "| section | figure | measured | target | met | command | note |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [title, rows] of sections) {
    for (const row of rows) {
      const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
      lines.push(
        `| ${cell(title)} | ${cell(row.figure)} | ${cell(row.value)} | ${cell(row.target)} | ${met} | \`${cell(row.command)}\` | ${cell(row.note)} |`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * RESULTS.md keeps the latest quick and the latest full run, each between its markers, under a
 * hand-written header and notes that a run never touches.
 */
function mergeRuns(report, quick) {
  const file = join(ROOT, "bench/RESULTS.md");
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = "# Benchmark results\n\n<!-- full:start -->\n<!-- full:end -->\n\n<!-- quick:start -->\n<!-- quick:end -->\n";
  }
  const name = quick ? "quick" : "full";
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  return text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), `${start}\n${report}\n${end}`);
}
