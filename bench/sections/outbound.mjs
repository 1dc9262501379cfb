// Outbound at scale: a campaign of 100,000 contacts is imported into the bench platform
// through the real upload route (bench/outbound-import.ts; target: under 30 s), then the console's
// page of that batch's calls is loaded like the SSR section loads /callHistory, at page 1 and deep
// in the batch by keyset cursor, against the list-page budget. --quick imports 10,000 contacts.
import { OUTBOUND, TARGETS } from "../config.mjs";
import { getPage, platformToken } from "../lib/http.mjs";
import { warmLoad } from "../lib/processes.mjs";

const PAGE_SIZE = 20;
const ms = (value) => `${value.toFixed(1)} ms`;

export async function outbound(ctx) {
  const { quick, platformUrl, consoleUrl, sessions, seconds, warmUp } = ctx;
  const { importContacts } = await import("../outbound-import.ts");
  const contacts = quick ? OUTBOUND.quickContacts : OUTBOUND.contacts;
  const token = await platformToken(platformUrl, OUTBOUND.account);
  const imported = await importContacts({ base: platformUrl, token }, contacts);
  const importSeconds = imported.importMs / 1000;
  const rows = [
    {
      figure: `import of ${contacts.toLocaleString("en")} contacts (1% bad rows), upload to answer`,
      value: `${importSeconds.toFixed(1)} s`,
      target: `≤ ${TARGETS.importSeconds} s for 100,000`,
      met: quick ? undefined : importSeconds <= TARGETS.importSeconds,
      command: `npm run bench (bench/sections/outbound.mjs); alone: node --import tsx bench/outbound-import.ts ${contacts}`,
      note: `accepted ${imported.accepted}, rejected ${imported.rejected}`,
    },
  ];

  // The keyset cursor of the deep page: the last call of the page before it, as the paginator's next link carries it.
  const deepPage = Math.min(OUTBOUND.deepPage, Math.floor(imported.accepted / PAGE_SIZE));
  const headers = { Authorization: `Bearer ${token}`, accessToken: token };
  const previous = await fetch(`${platformUrl}/outbound/task/get/${imported.batchId}/0/-1?pageNo=${deepPage - 1}&pageSize=${PAGE_SIZE}`, {
    headers,
  });
  const lastId = (await previous.json()).data.calls.list.at(-1).id;
  const cookie = sessions[OUTBOUND.account];
  const batchPath = `/campaign/${imported.campaignId}/batch/${imported.batchId}`;
  for (const [label, path] of [
    ["page 1", batchPath],
    [`page ${deepPage.toLocaleString("en")} by keyset`, `${batchPath}?page=${deepPage}&after=${lastId}`],
  ]) {
    const page = await getPage(consoleUrl, path, cookie);
    if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
    const run = await warmLoad({ url: `${consoleUrl}${path}`, headers: { Cookie: cookie }, seconds }, ctx.consoleProcess.pid, warmUp);
    rows.push({
      figure: `console batch calls ${label} (${OUTBOUND.account}): req/s, p50 / p99`,
      value: `${run.rps.toFixed(0)}, ${ms(run.p50)} / ${ms(run.p99)}`,
      target: `≥ ${TARGETS.listRps} req/s, p99 ≤ ${TARGETS.listP99Ms} ms`,
      met: run.rps >= TARGETS.listRps && run.p99 <= TARGETS.listP99Ms && run.errors === 0,
      command: run.command,
      note: `${run.errors} errors of ${run.total}; ${contacts.toLocaleString("en")}-contact batch, ${PAGE_SIZE} calls a page`,
    });
  }
  return rows;
}
