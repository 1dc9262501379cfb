// What `npm run bench` measures and against what. Adding a page, an account or a budget is one
// line here; adding a section is one entry in SECTIONS of bench/run.mjs.

/**
 * Ports of a bench run (3170–3186, or seventeen from BENCH_PORT_BASE, so two runs on one machine do
 * not collide): console, platform and its bench control listener, the static ceiling, the
 * plain-React server, the scale section's own platform with its control listener, and the
 * cluster section's `npm run cluster` (its PORT; it takes seven).
 */
export const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3170);
export const PORTS = {
  console: PORT_BASE,
  platform: PORT_BASE + 1,
  static: PORT_BASE + 2,
  react: PORT_BASE + 3,
  scalePlatform: PORT_BASE + 4,
  control: PORT_BASE + 5,
  scaleControl: PORT_BASE + 6,
  cluster: PORT_BASE + 10,
};

/** The list page of the SSR throughput section and the account that opens it (BENCH_LIST_PATH, BENCH_LIST_ACCOUNT). */
export const LIST_PAGE = {
  path: process.env.BENCH_LIST_PATH ?? "/callHistory",
  account: process.env.BENCH_LIST_ACCOUNT ?? "agent",
};

/** Lighthouse pages: `hydrated: true` pages are measured only once they hydrate (their issue has landed). */
export const LIGHTHOUSE_PAGES = [
  { name: "sign-in", path: "/user/login" },
  { name: "list", path: LIST_PAGE.path, account: LIST_PAGE.account },
  { name: "voice workbench", path: "/workBench", account: "agent", hydrated: true },
  { name: "text workbench", path: "/textWorkBench", account: "chat", hydrated: true },
];

/**
 * The sweep of every screen (performance, accessibility, best practices; one run each, ~15 s a
 * screen) measures this many screens a run, the next ones each day: all 56 took 837 s.
 */
export const LIGHTHOUSE_SWEEP = { perRun: 8 };

/** Accounts tried in turn to reach each screen (browser weight, budget tests). */
export const ACCOUNTS = ["admin", "supervisor", "agent", "chat"];

/** The 1M-record scale section: the generator it fills a database with, how many records, and the deep page. */
export const SCALE = { generator: "upstream/seed/generate-calls.ts", records: 1_000_000, deepPage: 950_000 };

/**
 * Outbound: a campaign of this many contacts is imported into the bench platform, then
 * its batch page is loaded at page 1 and, by keyset cursor, at deepPage (20 calls a page).
 */
export const OUTBOUND = { contacts: 100_000, quickContacts: 10_000, deepPage: 4_000, account: "admin" };

/** Contacts (bench/contacts.ts, full mode only): how many are generated, and the rows of the CSV imported after. */
export const CONTACTS = { contacts: 1_000_000, importRows: 100_000 };

/** Inspection (bench/inspection.ts, full mode only): calls generated, and the newest of them exported as CSV and XLSX. */
export const INSPECTION = { records: 1_000_000, exportRows: 100_000 };

/** Event latency: connected voice agents (seeded by bench/platform.ts), each with its own signed-in event stream. */
export const EVENTS = { agents: 200 };

/**
 * The cluster (opt-in, bench/sections/cluster.mjs): agents signed in half on each console, each with
 * its event stream; one event per agent every `eventPeriodMs`, `rounds` times (quick: one); then
 * `revocations` sign-outs on one console, each timed to its refusal everywhere else.
 */
export const CLUSTER = { agents: 2_000, eventPeriodMs: 10_000, rounds: 3, revocations: 20 };

/**
 * The live monitor: a floor of simulated agents (the platform's agent population over the bench
 * agents, on a queue of their own) changing state at a realistic rate with bursts of calls, and
 * supervisors (seeded too) watching it on the console's monitor stream.
 */
export const MONITOR = {
  agents: 500,
  quickAgents: 100,
  supervisors: 20,
  queue: "bench-floor",
  seconds: 60,
  quickSeconds: 20,
  idleSeconds: 30,
};
/**
 * The soak (opt-in: `node bench/run.mjs --only=soak`). Its peak is stated, not measured: a floor
 * of 500 agents each opening a page every 10 s (50 pages/s); the soak runs at twice that, a
 * day's mix of screens in turn, with the supervisors' monitor streams open.
 */
export const SOAK = {
  minutes: 30,
  quickMinutes: 3,
  windowMinutes: 5,
  peakPerSecond: 50,
  supervisors: 20,
  mix: [
    { path: "/callHistory", account: "agent" },
    { path: "/callHistory/3", account: "admin" },
    { path: "/workBench", account: "agent" },
    { path: "/callLog", account: "supervisor" },
    { path: "/monitor/agent", account: "supervisor" },
    { path: "/contacts", account: "admin" },
    { path: "/campaign", account: "admin" },
    { path: "/inspectionSuccess", account: "supervisor" },
    { path: "/textWorkBench", account: "chat" },
    { path: "/audit", account: "admin" },
  ],
};
/**
 * Real voice (opt-in: `npm run bench -- --only=voice`, bench/sections/voice.mjs): `calls` calls
 * one after another for the setup times (BENCH_VOICE_CALLS), then concurrent calls ramped through
 * `levels` (BENCH_VOICE_LEVELS, comma-separated) each held `holdSeconds`. Its own platform,
 * console and SIP servers listen from PORT_BASE + 10 (console), + 11 (platform), + 12 (control)
 * and + 13 (SIP, rtpengine, phone line: five ports); its RTP ports are `rtpPorts`, apart from an
 * e2e run's default 40000-40999.
 */
export const VOICE = {
  calls: Number(process.env.BENCH_VOICE_CALLS ?? 50),
  quickCalls: 10,
  levels: (process.env.BENCH_VOICE_LEVELS ?? "5,10,15,20,25,30,35,40").split(",").map(Number),
  holdSeconds: 10,
  rtpPorts: process.env.BENCH_VOICE_RTP_PORTS ?? "41000-41999",
  ports: { console: PORT_BASE + 10, platform: PORT_BASE + 11, control: PORT_BASE + 12, voice: PORT_BASE + 13 },
};
export const benchSupervisor = (i) => `bench-supervisor-${String(i + 1).padStart(2, "0")}`;
export const benchAgent = (i) => `bench-agent-${String(i + 1).padStart(3, "0")}`;

const KB = 1000;
/**
 * gzip JavaScript per hydrating route, by route pattern. A route that hydrates needs a line here.
 * Each is what the page weighed when it was set (the budget tests' measure: every script the page
 * loads plus its inline scripts and loader data, for the first demo account that may open it) and
 * a margin for loader data that changes as a test run goes on. About 99 KB of every island is the
 * same in all of them: React, Remix and our shell (decision 049).
 */
export const JS_BUDGETS = {
  // The voice workbench: 123,312 bytes measured (admin); the SMS card and the devices dialog load
  // when first shown; no zod, the console checks what it relays and answers (decision 054).
  "/workBench": 126 * KB,
  "/workBench/ty": 126 * KB,
  // The text workbench: 113,552 bytes measured with no chat open; each open chat adds its messages.
  "/textWorkBench": 116 * KB,
  // The inspection scoring view: the same player, and the score form's keys and draft. 109,805 bytes measured.
  "/inspectionSuccess/:id": 111.5 * KB,
  // The live monitor: no zod since its island imports no schema (decision 049). 109,706 bytes
  // measured on the demo data; 113.8 KB on the bench's platform, whose floor of 500 more agents
  // each has its live state in the loader data (the queues' counts).
  "/monitor/agent": 115 * KB,
  // An agent's page: its forms (conform) are checked by their action, no zod (decision 054);
  // listening is live. 113,984 bytes measured.
  "/monitor/agent/:userId": 116.5 * KB,
};
/**
 * Pages that hydrate nothing but load one small script that only enhances a form that works
 * without it: the upload progress of a file import (app/client/upload-progress.js), the resend
 * countdown of the sign-up and reset forms once a code was sent (app/client/resend-countdown.js),
 * the live count of an SMS template (app/client/sms-count.js), the call detail's recording player and
 * template choice (app/client/call-detail.js).
 */
export const ENHANCEMENT_BUDGETS = {
  "/contacts": 2 * KB,
  "/campaign/:id": 2 * KB,
  "/user/registe": 1 * KB,
  "/user/reset": 1 * KB,
  "/sms/template": 1 * KB,
  // The call detail's player and template choice (app/client/call-detail.js, decision 032), under each call list.
  "/callHistory/:id": 2.5 * KB,
  "/callLog/:id": 2.5 * KB,
  "/incoming/call/:id": 2.5 * KB,
  "/incoming/history/:id": 2.5 * KB,
  // The live inspection queue for inspectors (app/client/inspection-queue.js, decision 033): 2.2 KB.
  "/inspectionSuccess": 2.5 * KB,
};
/**
 * The script every confirmation step loads (app/client/confirm-step.js: Escape follows 取消). A
 * step is the answer to a POST, so the walk of the budget tests, which reads pages, never meets it:
 * its built file is weighed on its own.
 */
export const CONFIRM_STEP_BUDGET = 0.5 * KB;
/** gzip CSS per page. */
export const CSS_BUDGET = 40 * KB;

/** The targets every figure is measured against. */
export const TARGETS = {
  listRps: 300,
  listP99Ms: 150,
  efficiency: 0.6,
  /** The list page's pages/s as a share of what the two cores allow at its CPU a page, and its p99 then. */
  listCoreShare: 0.9,
  listCoreP99Ms: 100,
  lighthouseScore: 0.95,
  lcpMs: 1800,
  tbtMs: 150,
  cls: 0.05,
  keysetMs: 20,
  csvRowsPerSec: 150_000,
  xlsxRowsPerSec: 60_000,
  exportRssMb: 256,
  eventP99Ms: 300,
  /** Event latency at the cluster's 2,000 agents (bench/sections/cluster.mjs). */
  clusterEventP99Ms: 50,
  importSeconds: 30,
  /** The inspection list's export of 100,000 rows, CSV or XLSX. */
  inspectionExportSeconds: 10,
  monitorP99Ms: 1_000,
  monitorAimMs: 100,
  monitorPageP99Ms: 150,
};
