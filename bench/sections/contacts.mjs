// Contacts at a million (decision 020; full mode only): bench/contacts.ts generates them in a
// platform of its own and times the contact list's pages, filters and keyword searches, and an
// import. On the embedded PGlite and, when BENCH_DATABASE_URL names a PostgreSQL server the bench
// may use, on PostgreSQL too, in a scratch database created beside that one and dropped after.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { CONTACTS, TARGETS } from "../config.mjs";
import { ROOT } from "../lib/weight.mjs";

const LINE = /^(.+): median ([\d.]+) ms, max ([\d.]+) ms \(total (\d+)\)$/;
const IMPORT = /^import of (\d+) rows .*: ([\d.]+) s/;
const PLAN = /^plan of keyword (.+?): (.*)$/;

export async function contacts({ quick }) {
  const command = `node --import tsx bench/contacts.ts ${CONTACTS.contacts} ${CONTACTS.importRows}`;
  if (quick) return [{ figure: `${CONTACTS.contacts.toLocaleString("en")} contacts`, value: "skipped in --quick", target: "", command }];
  const rows = await measure("PGlite", {}, command);
  if (!process.env.BENCH_DATABASE_URL) return rows;
  const server = new URL(process.env.BENCH_DATABASE_URL);
  const scratch = new URL(server);
  scratch.pathname = "/switchboard_contacts_bench";
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query("DROP DATABASE IF EXISTS switchboard_contacts_bench");
    await admin.query("CREATE DATABASE switchboard_contacts_bench");
    return [...rows, ...(await measure("PostgreSQL", { DATABASE_URL: scratch.href }, `DATABASE_URL=<scratch> ${command}`))];
  } finally {
    await admin.query("DROP DATABASE IF EXISTS switchboard_contacts_bench").catch(() => undefined);
    await admin.end();
  }
}

async function measure(store, env, command) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "bench/contacts.ts", String(CONTACTS.contacts), String(CONTACTS.importRows)],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: "", ...env }, maxBuffer: 16 << 20 },
  );
  const rows = [];
  for (const line of stdout.split("\n")) {
    const page = LINE.exec(line.trim());
    if (page) {
      const [, name, median, max, total] = page;
      // A page, filtered or searched by keyword (decision 039), meets the list target.
      rows.push({
        figure: `${store}: ${name}`,
        value: `${median} ms (max ${max})`,
        target: `≤ ${TARGETS.keysetMs} ms`,
        met: Number(median) <= TARGETS.keysetMs,
        command,
        note: `median of the runs; ${total} found`,
      });
    }
    // The plan of a keyword's page: which index it read and how many rows, the figure load does not move.
    const plan = PLAN.exec(line.trim());
    if (plan) {
      const scans = [...plan[2].matchAll(/(Bitmap Index Scan on \w+|Index Scan Backward using \w+)[^|]*?\(actual rows=([\d.]+)/g)];
      rows.push({
        figure: `${store}: plan of keyword ${plan[1]}`,
        value: `${scans.map(([, scan, found]) => `${scan.split(" ").pop()} (${Number(found)} rows)`).join(" + ")}; ${/Execution Time: ([\d.]+ ms)/.exec(plan[2])?.[1] ?? ""}`,
        target: "",
        command,
        note: "EXPLAIN ANALYZE of the page's rows (bench/contacts.ts)",
      });
    }
    const imported = IMPORT.exec(line.trim());
    if (imported)
      rows.push({
        figure: `${store}: import of ${Number(imported[1]).toLocaleString("en")} rows (CSV)`,
        value: `${imported[2]} s`,
        target: "",
        command,
      });
  }
  return rows;
}
