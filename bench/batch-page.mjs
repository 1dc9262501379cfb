// The console's batch calls page alone (the list-page budget), for profiling and for CPU per
// request: starts only the bench platform and the console (the production build), imports a
// campaign of `--contacts` contacts (unless `--data=<dir>` already holds one from an earlier run),
// lists the platform calls one view of the page makes, then loads page 1 and a deep page by
// keyset cursor with autocannon and prints req/s, p99 and CPU ms per request of each process.
//
//   node bench/batch-page.mjs [--contacts=100000] [--data=<dir>] [--seconds=10] [--ports=3177]
//                             [--prof=<dir>]   (both servers run with --cpu-prof into <dir>/<name>)
//                             [--no-compare]   (without the /callHistory run that is measured for comparison)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { OUTBOUND, PORT_BASE } from "./config.mjs";
import { getPage, platformToken, signIn } from "./lib/http.mjs";
import { autocannon, cpuMs as cpu, startServers, stopAll } from "./lib/processes.mjs";
import { ROOT } from "./lib/weight.mjs";

register();
const { importContacts } = await import("./outbound-import.ts");

const option = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const contacts = Number(option("contacts", OUTBOUND.contacts));
const seconds = Number(option("seconds", 10));
// The console on --ports, the platform on the next port and its control listener on the one after (the top of the bench range).
const firstPort = Number(option("ports", PORT_BASE + 7));
const prof = option("prof");
const dataDir = option("data") ?? join(mkdtempSync(join(tmpdir(), "switchboard-batch-page-")), "data");
const PAGE_SIZE = 20;

execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs"), "--if-needed"], { cwd: ROOT, stdio: "inherit" });
const profile = (name) => (prof ? ["--cpu-prof", `--cpu-prof-dir=${join(prof, name)}`] : []);
if (prof) mkdirSync(prof, { recursive: true });
const reused = existsSync(dataDir);

try {
  const ports = { console: firstPort, platform: firstPort + 1, control: firstPort + 2 };
  const { platformUrl, consoleUrl, controlUrl, platform, consoleProcess } = await startServers({ ports, dataDir, nodeArgs: profile });
  const token = await platformToken(platformUrl, OUTBOUND.account);
  const headers = { Authorization: `Bearer ${token}`, accessToken: token, "Content-Type": "application/json" };
  const platformData = async (path, json) =>
    (await (await fetch(`${platformUrl}${path}`, { method: json ? "POST" : "GET", headers, body: json && JSON.stringify(json) })).json())
      .data;
  let batch;
  if (reused) {
    [batch] = (await platformData("/outbound/task/list", { pageNo: 1, pageSize: 10 })).list;
    batch = { batchId: batch.id, campaignId: batch.campaignId, accepted: batch.total };
  } else {
    batch = await importContacts({ base: platformUrl, token }, contacts);
    console.log(`imported ${batch.accepted} contacts in ${(batch.importMs / 1000).toFixed(1)} s into ${dataDir}`);
  }
  const deepPage = Math.min(OUTBOUND.deepPage, Math.floor(batch.accepted / PAGE_SIZE));
  const previous = await platformData(`/outbound/task/get/${batch.batchId}/0/-1?pageNo=${deepPage - 1}&pageSize=${PAGE_SIZE}`);
  const cookie = await signIn(consoleUrl, OUTBOUND.account);
  const batchPath = `/campaign/${batch.campaignId}/batch/${batch.batchId}`;

  for (const [label, path] of [
    ["page 1", batchPath],
    [`page ${deepPage}`, `${batchPath}?page=${deepPage}&after=${previous.calls.list.at(-1).id}`],
    ["for comparison, /callHistory", "/callHistory"],
  ].slice(0, process.argv.includes("--no-compare") ? 2 : 3)) {
    await fetch(`${controlUrl}/record`);
    const page = await getPage(consoleUrl, path, cookie);
    const recorded = await (await fetch(`${controlUrl}/recorded`)).json();
    if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
    console.log(`${label}: ${recorded.length} platform calls: ${recorded.map((r) => `${r.method} ${r.path}`).join(", ")}`);
    const request = { url: `${consoleUrl}${path}`, headers: { Cookie: cookie }, seconds };
    await autocannon({ ...request, seconds: 2 }); // warm-up: plans, caches, JIT
    const before = [cpu(consoleProcess.pid), cpu(platform.pid)];
    const run = await autocannon(request);
    const perRequest = (pid, at) => ((cpu(pid) - at) / run.total).toFixed(2);
    console.log(
      `${label}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.errors} errors of ${run.total}; ` +
        `CPU per request: console ${perRequest(consoleProcess.pid, before[0])} ms, platform ${perRequest(platform.pid, before[1])} ms`,
    );
  }
} finally {
  await stopAll();
}
