import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { signIn, startUntilReady } from "./support";

/**
 * Traces (README "Running it", decision 041): this file starts its own console and platform (on
 * the e2e port + 25 and + 26; + 10 … + 16 are the e2e console's voice servers and the tests' loss relay) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP/HTTP
 * receiver of its own, loads a page, and reads the spans both processes exported, as JSON.
 */
const base = Number(new URL(baseURL).port) + 25;
const ports = { console: base, platform: base + 1 };
const consoleURL = `http://localhost:${ports.console}`;
const platformURL = `http://127.0.0.1:${ports.platform}`;
const dir = mkdtempSync(join(tmpdir(), "switchboard-tracing-"));

/** A span as OTLP/JSON carries it, with its process's service.name. */
type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
};
const SERVER = 2;
const CLIENT = 3;

type KeyValue = { key: string; value: Record<string, unknown> };
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

const received: ReceivedSpan[] = [];
const paths = new Set<string>();
let receiver: Server;

/** POST /v1/traces with an ExportTraceServiceRequest in JSON: its spans are kept. */
function startReceiver(): Promise<number> {
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      paths.add(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      const request = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: KeyValue[] };
          scopeSpans: { spans: (Omit<ReceivedSpan, "service" | "attributes"> & { attributes: KeyValue[] })[] }[];
        }[];
      };
      for (const resourceSpans of request.resourceSpans) {
        const service = String(attributesOf(resourceSpans.resource.attributes)["service.name"]);
        for (const { spans } of resourceSpans.scopeSpans)
          for (const span of spans) received.push({ ...span, service, attributes: attributesOf(span.attributes) });
      }
      res.setHeader("Content-Type", "application/json");
      res.end("{}");
    });
  });
  return new Promise((resolve) => receiver.listen(0, "127.0.0.1", () => resolve((receiver.address() as AddressInfo).port)));
}

const processes: ChildProcess[] = [];

async function start(script: string, env: NodeJS.ProcessEnv, url: string): Promise<void> {
  processes.push(await startUntilReady(script, { ...process.env, ...env }, url));
}

test.use({ baseURL: consoleURL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const tracing = {
    NODE_ENV: "production" as const,
    LOG_LEVEL: "silent",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await startReceiver()}`,
    OTEL_BSP_SCHEDULE_DELAY: "100",
  };
  await start(
    "build/upstream/server.mjs",
    {
      ...tracing,
      UPSTREAM_PORT: String(ports.platform),
      DATA_DIR: dir,
      VOICE: "simulated",
      DIALER_SPEED: "0",
      CHAT_SIMULATOR: "0",
      CTI_SIMULATED_TRAFFIC: "0",
      AGENT_SIMULATOR: "0",
    },
    platformURL,
  );
  await start(
    "server.mjs",
    { ...tracing, PORT: String(ports.console), UPSTREAM_URL: platformURL, SESSION_SECRET: "tracing-e2e-only-secret", COOKIE_SECURE: "1" },
    consoleURL,
  );
});
test.afterAll(() => {
  for (const child of processes) child.kill("SIGTERM");
  receiver?.close();
});

test("a page's trace holds the console's request, its call to the platform, the platform's route and its SQL, under the request's id", async ({
  page,
}) => {
  await signIn(page, "admin");
  await expect(page).not.toHaveURL(/\/user\/login/);
  const response = await page.goto("/audit");
  expect(response?.status()).toBe(200);
  const traceId = response!.headers()["x-request-id"];
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);

  const spansOf = () => received.filter((span) => span.traceId === traceId);
  const find = (test: (span: ReceivedSpan) => boolean) => spansOf().find(test);
  const pageSpan = () => find((s) => s.service === "switchboard-console" && s.kind === SERVER && s.name === "GET /audit");
  await expect.poll(() => pageSpan(), { timeout: 15_000 }).toBeTruthy();
  // The page's request is the trace's root: nothing called the console.
  expect(pageSpan()!.parentSpanId || undefined).toBeUndefined();

  // Its calls to the platform, each answered by a route of the platform under the call.
  const calls = spansOf().filter((s) => s.service === "switchboard-console" && s.kind === CLIENT && s.parentSpanId === pageSpan()!.spanId);
  expect(calls.length).toBeGreaterThan(0);
  const routeUnder = (call: ReceivedSpan) =>
    find((s) => s.service === "switchboard-platform" && s.kind === SERVER && s.parentSpanId === call.spanId);
  await expect.poll(() => calls.filter(routeUnder).length, { timeout: 15_000 }).toBe(calls.length);
  const auditCall = calls.find((call) => routeUnder(call)?.attributes["http.route"] === "/audit/api/log/list");
  expect(auditCall, JSON.stringify(calls.map((call) => call.name))).toBeTruthy();
  const route = routeUnder(auditCall!)!;
  expect(route.name).toBe("POST /audit/api/log/list");
  expect(route.attributes["http.response.status_code"]).toBe(200);

  // The route's SQL, under the route: at least the audit log's select.
  const statements = spansOf().filter(
    (s) => s.service === "switchboard-platform" && s.parentSpanId === route.spanId && s.attributes["db.system.name"] === "postgresql",
  );
  expect(statements.map((s) => s.name)).toContain("SELECT");
  expect(statements.some((s) => /from "audit_log"/i.test(String(s.attributes["db.query.text"])))).toBe(true);

  // Sent as OTLP/HTTP JSON to the standard path.
  expect([...paths]).toEqual(["POST /v1/traces application/json"]);
});
