// SSR throughput of a list page: the console, the same bytes from a bare Node server (the
// ceiling), the same markup rendered by plain React per request; then the page's platform calls
// alone (the upstream overhead). All load from autocannon in its own process, 20 connections.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LIST_PAGE, PORTS, TARGETS } from "../config.mjs";
import { getPage, waitForHealth } from "../lib/http.mjs";
import { autocannon, startNode, stop, warmLoad } from "../lib/processes.mjs";

const ms = (value) => `${value.toFixed(1)} ms`;
const cpu = (run) => `${run.cpuPerRequest.toFixed(2)} ms`;

export async function ssr(ctx) {
  const { consoleUrl, sessions, seconds, warmUp, tmp, log } = ctx;
  const cookie = sessions[LIST_PAGE.account];
  const page = await getPage(consoleUrl, LIST_PAGE.path, cookie);
  if (page.status !== 200) throw new Error(`${LIST_PAGE.path} as ${LIST_PAGE.account} answered ${page.status}`);
  const htmlFile = join(tmp, "list-page.html");
  writeFileSync(htmlFile, page.html);
  const what = `${LIST_PAGE.path} as ${LIST_PAGE.account} (${Buffer.byteLength(page.html)} bytes)`;

  const load = (url, pid, headers = {}, alsoPids = []) => warmLoad({ url, headers, seconds }, pid, warmUp, alsoPids);
  const rows = [];
  const consoleRun = await load(`${consoleUrl}${LIST_PAGE.path}`, ctx.consoleProcess.pid, { Cookie: cookie }, [ctx.platform.pid]);
  rows.push(
    {
      figure: `console req/s, ${what}`,
      value: consoleRun.rps.toFixed(0),
      target: `≥ ${TARGETS.listRps}`,
      met: consoleRun.rps >= TARGETS.listRps && consoleRun.errors === 0,
      command: consoleRun.command,
      note: `${consoleRun.errors} errors of ${consoleRun.total}; ${cpu(consoleRun)} CPU per request`,
    },
    {
      figure: "console latency p50 / p99",
      value: `${ms(consoleRun.p50)} / ${ms(consoleRun.p99)}`,
      target: `p99 ≤ ${TARGETS.listP99Ms} ms`,
      met: consoleRun.p99 <= TARGETS.listP99Ms,
      command: consoleRun.command,
    },
    coreShare(consoleRun),
  );

  const ceiling = startNode("static", ["bench/lib/static-server.mjs", htmlFile, String(PORTS.static)], {}, log);
  const react = startNode("react", ["bench/lib/react-server.mjs", htmlFile, String(PORTS.react)], { NODE_ENV: "production" }, log);
  let reactSizes;
  react.stdout.on("data", (chunk) => (reactSizes ??= JSON.parse(String(chunk))));
  try {
    const staticUrl = `http://127.0.0.1:${PORTS.static}`;
    const reactUrl = `http://127.0.0.1:${PORTS.react}`;
    // Both answer every path, /health included.
    await Promise.all([waitForHealth(staticUrl), waitForHealth(reactUrl)]);
    const staticRun = await load(staticUrl, ceiling.pid);
    const reactRun = await load(reactUrl, react.pid);
    const efficiency = consoleRun.rps / reactRun.rps;
    rows.push(
      {
        figure: "static bytes, bare Node (ceiling) req/s, p99",
        value: `${staticRun.rps.toFixed(0)}, ${ms(staticRun.p99)}`,
        target: "reference",
        command: staticRun.command,
        note: `bench/lib/static-server.mjs; ${cpu(staticRun)} CPU per request`,
      },
      {
        figure: "plain React renderToString per request req/s, p99",
        value: `${reactRun.rps.toFixed(0)}, ${ms(reactRun.p99)}`,
        target: "reference",
        command: reactRun.command,
        note: `bench/lib/react-server.mjs; ${cpu(reactRun)} CPU per request; renders ${reactSizes?.renderedBytes} bytes of the console's ${reactSizes?.originalBytes}`,
      },
      {
        figure: "efficiency: console ÷ plain React",
        value: efficiency.toFixed(2),
        target: `≥ ${TARGETS.efficiency}`,
        met: efficiency >= TARGETS.efficiency,
        command: "npm run bench (bench/sections/ssr.mjs: the two rows above)",
        note: `by CPU per request (less disturbed by other load): ${(reactRun.cpuPerRequest / consoleRun.cpuPerRequest).toFixed(2)}`,
      },
    );
  } finally {
    await Promise.all([stop(ceiling), stop(react)]);
  }

  rows.push(...(await upstreamOverhead(ctx, cookie, consoleRun)));
  return rows;
}

/**
 * How close the list page comes to what the machine's two cores allow: pages/s against 2,000 ms of
 * CPU a second divided by the CPU a page costs. The load generator runs on the same cores, so the
 * share is given against the console's and the platform's CPU a page, and against those with
 * autocannon's own added (what the cores can give the console and platform here); the second decides.
 */
function coreShare(run) {
  const served = run.cpuPerRequest + run.alsoCpuPerRequest;
  const withLoad = served + run.loadCpuPerRequest;
  const share = (cpuPerPage) => (run.rps * cpuPerPage) / (2 * 1000);
  const percent = (value) => `${(100 * value).toFixed(0)} %`;
  return {
    figure: "list page against the two cores: pages/s ÷ (2,000 ms ÷ CPU a page)",
    value: `${percent(share(withLoad))} (console and platform alone: ${percent(share(served))})`,
    target: `≥ ${percent(TARGETS.listCoreShare)}, p99 ≤ ${TARGETS.listCoreP99Ms} ms`,
    met: share(withLoad) >= TARGETS.listCoreShare && run.p99 <= TARGETS.listCoreP99Ms,
    command: run.command,
    note: `CPU a page: console ${cpu(run)}, platform ${run.alsoCpuPerRequest.toFixed(2)} ms, autocannon ${run.loadCpuPerRequest.toFixed(2)} ms; p99 ${ms(run.p99)}`,
  };
}

/** The platform calls one (warm) page view makes, recorded by bench/platform.ts, replayed alone. */
async function upstreamOverhead({ consoleUrl, platformUrl, controlUrl, seconds, platform }, cookie, consoleRun) {
  await getPage(consoleUrl, LIST_PAGE.path, cookie); // warms the console's per-token menu cache
  await fetch(`${controlUrl}/record`, { method: "POST" });
  await getPage(consoleUrl, LIST_PAGE.path, cookie);
  const calls = await (await fetch(`${controlUrl}/recorded`)).json();
  if (calls.length === 0) {
    return [
      {
        figure: "upstream overhead: platform calls per page view",
        value: "0",
        target: "reference",
        command: "npm run bench (bench/sections/ssr.mjs; bench/platform.ts records the calls)",
        note: `a warm ${LIST_PAGE.path} makes no platform call today (the menu is cached 30 s per token)`,
      },
    ];
  }
  const rows = [];
  for (const call of calls) {
    const run = await autocannon(
      { url: `${platformUrl}${call.path}`, method: call.method, headers: call.headers, body: call.body, seconds },
      platform.pid,
    );
    rows.push({
      figure: `upstream alone: ${call.method} ${call.path.split("?")[0]} req/s, p50 / p99`,
      value: `${run.rps.toFixed(0)}, ${ms(run.p50)} / ${ms(run.p99)}`,
      target: "reference",
      command: run.command,
      note: `${run.errors} errors; ${cpu(run)} platform CPU per call; console's own CPU per page ≈ ${consoleRun.cpuPerRequest.toFixed(2)} ms`,
    });
  }
  return rows;
}
