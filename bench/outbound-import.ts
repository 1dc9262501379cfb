/**
 * Outbound import budget (issue 4): a campaign of 100,000 contacts imports in under 30 s, and its
 * batch and call list pages stay fast. Runs the real platform in process on PGlite (or on
 * PostgreSQL with DATABASE_URL=...), through the real upload route.
 *
 *   node --import tsx bench/outbound-import.ts [rows]
 */
import { performance } from "node:perf_hooks";
import { preparePlatform, TEST_CLIENT } from "../upstream/testing";

const ROWS = Number(process.argv[2] ?? 100_000);
const IMPORT_BUDGET_MS = 30_000;
const PAGE_BUDGET_MS = 300;

const platform = await preparePlatform(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
try {
  const login = await platform.app.inject({
    method: "POST",
    url: "/uaa/oauth/token",
    headers: { authorization: `Basic ${Buffer.from(`${TEST_CLIENT.clientId}:${TEST_CLIENT.clientSecret}`).toString("base64")}` },
    payload: { grant_type: "password", username: "admin", password: "Switchboard@2026" },
  });
  const headers = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
  const saved = await platform.app.inject({
    method: "POST",
    url: "/outbound/campaign/save",
    headers,
    payload: { name: "压测活动", type: 1, taskType: 1, cycle: 3, ratio: 1, callingListName: null, instanceName: "营销推广机器人", queueName: null, callerNumber: null, windows: [{ start: "00:00", end: "24:00" }], startDate: null, endDate: null, maxAttempts: 1 },
  });
  const campaignId = saved.json<{ data: { id: number } }>().data.id;

  // One row in a hundred is bad, so validation and the error rows are part of the measurement.
  const lines = ["手机号,姓名,账单金额"];
  for (let i = 0; i < ROWS; i++) lines.push(i % 100 === 99 ? `bad${i},客户${i},100` : `1${3 + (i % 7)}${String(100_000_000 + i).slice(0, 9)},客户${i},${i % 1000}`);
  const boundary = "----bench";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n${campaignId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\n\r\n`),
    Buffer.from(lines.join("\n")),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

  const started = performance.now();
  const upload = await platform.app.inject({ method: "POST", url: "/api/file/upload", headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` }, payload });
  const importMs = performance.now() - started;
  const result = upload.json<{ data: { batchId: number; accepted: number; rejected: number } }>().data;

  const timed = async (url: string, method: "GET" | "POST" = "GET", body?: object) => {
    const t = performance.now();
    const response = await platform.app.inject({ method, url, headers, payload: body });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    return performance.now() - t;
  };
  await timed(`/outbound/task/get/${result.batchId}/0/-1?pageNo=1&pageSize=20`); // warm-up: plans and caches
  const firstPage = await timed(`/outbound/task/get/${result.batchId}/0/-1?pageNo=1&pageSize=20`);
  const deepPage = await timed(`/outbound/task/get/${result.batchId}/0/-1?pageNo=4900&pageSize=20`);
  const batchList = await timed("/outbound/task/list", "POST", { campaignId, pageNo: 1, pageSize: 20 });
  const campaignList = await timed("/outbound/campaign/manage/list", "POST", { pageNo: 1, pageSize: 20 });

  const report = [
    `import of ${ROWS} rows: ${(importMs / 1000).toFixed(1)} s (accepted ${result.accepted}, rejected ${result.rejected}; budget ${IMPORT_BUDGET_MS / 1000} s)`,
    `calls page 1: ${firstPage.toFixed(0)} ms; page 4900: ${deepPage.toFixed(0)} ms; batch list: ${batchList.toFixed(0)} ms; campaign list: ${campaignList.toFixed(0)} ms (budget ${PAGE_BUDGET_MS} ms)`,
  ];
  console.log(report.join("\n"));
  const over = importMs > IMPORT_BUDGET_MS || [firstPage, deepPage, batchList, campaignList].some((ms) => ms > PAGE_BUDGET_MS);
  process.exitCode = over ? 1 : 0;
} finally {
  await platform.close();
}
