// The inspection queue at a million calls (decisions 018 and 028; full mode only): bench/inspection.ts
// generates them in a platform of its own and times the inspection list (page 1, 95 % deep, the
// 未质检 filter), apply and next, and the export of the newest 100,000 calls as CSV and XLSX. On the
// embedded PGlite and, when BENCH_DATABASE_URL names a PostgreSQL server the bench may use, on
// PostgreSQL too, in a scratch database created beside that one and dropped after.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { INSPECTION, TARGETS } from "../config.mjs";
import { ROOT } from "../lib/weight.mjs";

const PAGE = /^(.+): median ([\d.]+) ms, max ([\d.]+) ms$/;
const APPLY = /^apply (\d+): ([\d.]+) ms$/;
const EXPORT = /^export of (\d+) rows \((csv|xlsx)\): ([\d.]+) s, ([\d.]+) MB$/;
const SCRATCH = "switchboard_inspection_bench";

export async function inspection({ quick }) {
  const args = [String(INSPECTION.records), String(INSPECTION.exportRows)];
  const command = `node --import tsx bench/inspection.ts ${args.join(" ")}`;
  if (quick) return [{ figure: `${INSPECTION.records.toLocaleString("en")} calls`, value: "skipped in --quick", target: "", command }];
  const rows = await measure("PGlite", {}, args, command);
  if (!process.env.BENCH_DATABASE_URL) return rows;
  const server = new URL(process.env.BENCH_DATABASE_URL);
  const scratch = new URL(server);
  scratch.pathname = `/${SCRATCH}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await admin.query(`CREATE DATABASE ${SCRATCH}`);
    return [...rows, ...(await measure("PostgreSQL", { DATABASE_URL: scratch.href }, args, `DATABASE_URL=<scratch> ${command}`))];
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH}`).catch(() => undefined);
    await admin.end();
  }
}

async function measure(store, env, args, command) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bench/inspection.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", ...env },
    maxBuffer: 16 << 20,
  });
  const rows = [];
  for (const line of stdout.split("\n").map((l) => l.trim())) {
    const page = PAGE.exec(line);
    if (page) {
      const [, name, median, max] = page;
      rows.push({
        figure: `${store}: ${name}`,
        value: `${median} ms (max ${max})`,
        target: `≤ ${TARGETS.keysetMs} ms`,
        met: Number(median) <= TARGETS.keysetMs,
        command,
        note: "median of 15 runs, in-process",
      });
    }
    const apply = APPLY.exec(line);
    if (apply) rows.push({ figure: `${store}: apply ${apply[1]} calls`, value: `${apply[2]} ms`, target: "", command });
    const exported = EXPORT.exec(line);
    if (exported) {
      const [, count, format, seconds, mb] = exported;
      rows.push({
        figure: `${store}: export of ${Number(count).toLocaleString("en")} rows (${format.toUpperCase()})`,
        value: `${seconds} s`,
        target: `≤ ${TARGETS.inspectionExportSeconds} s`,
        met: Number(seconds) <= TARGETS.inspectionExportSeconds,
        command,
        note: `${mb} MB`,
      });
    }
  }
  return rows;
}
