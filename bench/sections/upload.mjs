// An upload's cost in memory: a 19 MB contact list of 600,000 rows (the
// size of the audit's) posted to a campaign page as the browser posts it, with the console's and
// the platform's resident memory sampled every 20 ms until the answer. The file passes through
// the console as a stream and is written to disk by the platform, so neither should grow by
// anything near its size. Not part of a plain `npm run bench` (the import then runs a minute in
// the background): `node bench/run.mjs --only=upload`.
import { getPage, inputsOf, mergeCookies } from "../lib/http.mjs";
import { rssMb } from "../lib/processes.mjs";

const ROWS = 600_000;

export async function upload({ consoleUrl, sessions, platform, consoleProcess }) {
  const lines = ["手机号,姓名,地区"];
  for (let i = 0; i < ROWS; i++) lines.push(`15${String(100_000_000 + i)},客户${i},华东`);
  const csv = Buffer.from(lines.join("\n"));

  // A campaign of the demo tenant, and the CSRF token of its page (the token's cookie is set with it).
  const list = await getPage(consoleUrl, "/campaign", sessions.admin);
  const id = list.html.match(/href="\/campaign\/(\d+)"/)?.[1];
  if (!id) throw new Error("no campaign on /campaign to import into");
  const page = await fetch(`${consoleUrl}/campaign/${id}`, { headers: { Cookie: sessions.admin } });
  const token = inputsOf(await page.text()).get("csrf");
  const cookie = mergeCookies(sessions.admin, page);
  if (!token) throw new Error(`no CSRF token on /campaign/${id}`);

  const form = new FormData();
  form.set("csrf", token);
  form.set("intent", "import");
  form.set("file", new Blob([csv], { type: "text/csv" }), "上传测量.csv");

  const base = { console: rssMb(consoleProcess.pid), platform: rssMb(platform.pid) };
  const peak = { ...base };
  const sampler = setInterval(() => {
    peak.console = Math.max(peak.console, rssMb(consoleProcess.pid));
    peak.platform = Math.max(peak.platform, rssMb(platform.pid));
  }, 20);
  const started = performance.now();
  let status;
  try {
    const response = await fetch(`${consoleUrl}/campaign/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie },
      body: form,
    });
    status = response.status;
    await response.arrayBuffer();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  // Accepted: a redirect to the campaign page, the list read in the background.
  if (status !== 302) throw new Error(`the upload answered ${status}`);
  const command = "node bench/run.mjs --only=upload";
  const size = `${(csv.length / 1024 / 1024).toFixed(1)} MB`;
  return [
    { figure: `upload of ${size} (${ROWS.toLocaleString("en")} rows) answered`, value: `${seconds.toFixed(2)} s`, target: "", command },
    {
      figure: "console resident memory, before → peak during the upload",
      value: `${base.console.toFixed(0)} → ${peak.console.toFixed(0)} MB (+${(peak.console - base.console).toFixed(0)})`,
      target: `well under the file's ${size}`,
      command,
    },
    {
      figure: "platform resident memory, before → peak during the upload",
      value: `${base.platform.toFixed(0)} → ${peak.platform.toFixed(0)} MB (+${(peak.platform - base.platform).toFixed(0)})`,
      target: "",
      command,
    },
  ];
}
