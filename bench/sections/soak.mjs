// The soak: the console and its platform under a steady mix of agents', supervisors'
// and administrators' pages at twice a stated peak, for SOAK.minutes (3 with --quick), with
// SOAK.supervisors monitor streams held open throughout. Not part of a plain `npm run bench`
// (half an hour): `node bench/run.mjs --only=soak`. Passes with 0 errors and both processes'
// memory flat: the median of the last SOAK.windowMinutes within 10 % of the median of the first
// such window after a warm-up minute.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { SOAK } from "../config.mjs";
import { getPage } from "../lib/http.mjs";
import { rssMb } from "../lib/processes.mjs";
import { ROOT } from "../lib/weight.mjs";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function soak({ consoleUrl, sessions, quick, platform, consoleProcess }) {
  const minutes = quick ? SOAK.quickMinutes : SOAK.minutes;
  const requests = SOAK.mix.map(({ path, account }) => ({ method: "GET", path, headers: { Cookie: sessions[account] } }));
  const rate = 2 * SOAK.peakPerSecond;
  for (const { path, account } of SOAK.mix) {
    const { status } = await getPage(consoleUrl, path, sessions[account]);
    if (status !== 200) throw new Error(`${path} as ${account} answered ${status}`);
  }

  const abort = new AbortController();
  const streams = Array.from({ length: SOAK.supervisors }, () =>
    fetch(`${consoleUrl}/monitor/agent/events`, { headers: { Cookie: sessions.supervisor }, signal: abort.signal })
      .then(async (response) => {
        if (response.status !== 200) throw new Error(`monitor stream answered ${response.status}`);
        for await (const chunk of response.body) void chunk;
        if (!abort.signal.aborted) throw new Error("monitor stream ended before the soak did");
      })
      .catch((error) => (abort.signal.aborted ? undefined : error)),
  );

  const samples = [];
  const sample = () => samples.push({ at: Date.now(), console: rssMb(consoleProcess.pid), platform: rssMb(platform.pid) });
  sample();
  const sampler = setInterval(sample, 10_000);
  const options = { url: consoleUrl, rate, seconds: minutes * 60, connections: 20, requests };
  let result;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, "bench/lib/soak-load.mjs"), JSON.stringify(options)], {
      cwd: ROOT,
      maxBuffer: 64 << 20,
    });
    result = JSON.parse(stdout);
  } finally {
    clearInterval(sampler);
    sample();
    abort.abort();
  }
  const streamErrors = (await Promise.all(streams)).filter(Boolean);

  // Memory: the first window after a warm-up minute against the last window.
  const start = samples[0].at + 60_000;
  const window = (quick ? 1 : SOAK.windowMinutes) * 60_000;
  const first = samples.filter((s) => s.at >= start && s.at < start + window);
  const last = samples.filter((s) => s.at >= samples.at(-1).at - window);
  const growth = (key) => {
    const [a, b] = [median(first.map((s) => s[key])), median(last.map((s) => s[key]))];
    return { a, b, ratio: b / a - 1 };
  };
  const memory = (key, name) => {
    const { a, b, ratio } = growth(key);
    return {
      figure: `${name} memory (RSS), median of the first and the last ${window / 60_000} min`,
      value: `${a.toFixed(0)} → ${b.toFixed(0)} MB (${ratio >= 0 ? "+" : ""}${(ratio * 100).toFixed(1)} %; peak ${Math.max(...samples.map((s) => s[key])).toFixed(0)} MB)`,
      target: "within 10 %",
      met: Math.abs(ratio) <= 0.1,
      command,
    };
  };
  const errors = result.errors + result.timeouts + result.non2xx;
  const command = `node bench/run.mjs --only=soak${quick ? " --quick" : ""}`;
  return [
    {
      figure: `requests over ${minutes} min at ${rate}/s (twice a peak of ${SOAK.peakPerSecond}/s), ${SOAK.supervisors} monitor streams open`,
      value: `${result.requests.total} requests, ${errors} errors (${result.non2xx} non-2xx, ${result.timeouts} timeouts); ${streamErrors.length} streams broken`,
      target: "0 errors",
      met: errors === 0 && streamErrors.length === 0,
      command,
      note: `mix: ${SOAK.mix.map((m) => `${m.path} (${m.account})`).join(", ")}`,
    },
    {
      figure: "latency p50 / p99 / max",
      value: `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms`,
      target: "stated",
      command,
    },
    memory("console", "console"),
    memory("platform", "platform"),
  ];
}
