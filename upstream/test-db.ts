import { readFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { describe, expect, inject } from "vitest";
import { createTestDatabase } from "#tests/support/postgres";
import { QC_UNCHECKED } from "#contracts/codes";
import { openDatabase, type Db, type OpenedDatabase } from "#upstream/db";
import { INTERESTED_INTENTS } from "#upstream/domain/recordings";
import { buildApp } from "./app";
import { electOwner, type Ownership } from "./cluster/ownership";
import { DEMO_PASSWORD, TEST_CLIENT, pgliteTemplate, preparePlatform, type PreparedPlatform } from "./testing";

/**
 * Test helpers for the platform. The same test files run in two vitest projects: TEST_DB=pglite
 * (in-memory PGlite) and TEST_DB=postgres (a fresh database per file on the throwaway cluster of
 * tests/support/postgres-global.ts).
 */
export const TEST_DB: "pglite" | "postgres" = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

const postgresUrl = TEST_DB === "postgres" ? inject("postgresUrl") : null;

/**
 * `describe` for tests that need a database. In the postgres project on a machine without
 * PostgreSQL it is `describe.skip` (global setup has said why): the only skip we allow.
 */
export const describeDb = TEST_DB === "postgres" && !postgresUrl ? describe.skip : describe;

/** An empty database of the current kind (not migrated). */
export async function freshDatabase(): Promise<OpenedDatabase> {
  if (TEST_DB === "pglite") return openDatabase({ inMemory: true, pgliteTemplate: await pgliteTemplate() });
  const testDb = await createTestDatabase(requirePostgresUrl());
  const database = await openDatabase({ databaseUrl: testDb.url });
  return {
    db: database.db,
    close: async () => {
      await database.close();
      await testDb.drop();
    },
  };
}

/** A migrated, demo-seeded platform on a fresh database of the current kind. */
export async function testPlatform(
  opts: Pick<Parameters<typeof preparePlatform>[0] & object, "logger" | "simulatorControl"> = {},
): Promise<PreparedPlatform> {
  if (TEST_DB === "pglite") return preparePlatform({ ...opts, pgliteDump: await seededPgliteDump() });
  const testDb = await createTestDatabase(requirePostgresUrl(), { template: inject("postgresTemplate") ?? undefined });
  const platform = await preparePlatform({ ...opts, databaseUrl: testDb.url, seeded: true });
  return {
    ...platform,
    close: async () => {
      await platform.close();
      await testDb.drop();
    },
  };
}

/** One platform process of a cluster in a test: its own pool and listening connection, on loopback. */
export type ClusterMember = { app: FastifyInstance; db: Db; url: string; ownership: Ownership; duties: { started: number } };

/**
 * Platform processes sharing one seeded PostgreSQL database, as a cluster runs them: each app has
 * its own connection pool and LISTEN connection and listens over HTTP on loopback; they share
 * nothing else (in one test process, but talking only through the database, as separate processes do).
 */
export async function platformsOnOneDatabase(count = 2): Promise<{ members: ClusterMember[]; close: () => Promise<void> }> {
  const testDb = await createTestDatabase(requirePostgresUrl(), { template: inject("postgresTemplate") ?? undefined });
  const closers: (() => Promise<void>)[] = [];
  const members: ClusterMember[] = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne();
    await testDb.drop();
  };
  try {
    for (let i = 0; i < count; i++) {
      const database = await openDatabase({ databaseUrl: testDb.url });
      closers.push(() => database.close());
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const ownership = await electOwner(database.db, url, (error) => console.error("test cluster: ownership lost", error));
      closers.push(() => ownership.stop());
      const app = buildApp({ db: database.db, ...TEST_CLIENT, ownership });
      closers.push(() => app.close());
      const stopListening = await app.notifications.listenAcrossProcesses();
      closers.push(stopListening);
      await app.listen({ host: "127.0.0.1", port });
      // The owner's duties, counted: each must run once per cluster.
      const duties = { started: 0 };
      await ownership.whenOwner(async () => void duties.started++);
      members.push({ app, db: database.db, url, ownership, duties });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { members, close };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The migrated, seeded PGlite the project's global setup dumped (tests/support/seeded-pglite-global.ts). */
export async function seededPgliteDump(): Promise<Blob> {
  return new Blob([await readFile(inject("seededPglite"))]);
}

function requirePostgresUrl(): string {
  if (!postgresUrl) throw new Error("TEST_DB=postgres but no PostgreSQL cluster was provided");
  return postgresUrl;
}

/** The Authorization header of the console's client credential. */
export function basicAuth(clientId: string = TEST_CLIENT.clientId, clientSecret: string = TEST_CLIENT.clientSecret) {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
}

/** Logs a demo account in through the password grant and returns its bearer token. */
export async function loginAs(app: FastifyInstance, userName: string, password: string = DEMO_PASSWORD): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/uaa/oauth/token",
    headers: { authorization: basicAuth() },
    payload: { grant_type: "password", username: userName, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant's connected calls waiting for inspection (of one queue, when given), newest first. */
export async function waitingCalls(db: Db, tenantId: number, n: number, queueName?: string): Promise<number[]> {
  let query = db
    .selectFrom("call_records")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("qc_status", "=", QC_UNCHECKED)
    .where("is_answer", "=", 1);
  if (queueName) query = query.where("queue_name", "=", queueName);
  const rows = await query.orderBy("call_time", "desc").limit(n).execute();
  return rows.map((r) => Number(r.id));
}

type RecordFacts = {
  outbound_result: string | null;
  call_result: number;
  intent: string | null;
  agent_user_id: number | null;
  direction: string;
  campaign_type: number | null;
};
const CONNECTED_OUTCOMES = [
  "EndOfTheCall",
  "NoIntention",
  "ToHumanNoAnswer",
  "ToHumanGiveUp",
  "EndOfTheSurveyCall",
  "ToSurveyRobotNoAnswer",
  "ToSurveyRobotGiveUp",
];
/** Each call's outcome code agrees with what happened on it: its direction, connected or not, the customer's intent, who took it (checked apart from domain/outcomes.ts). */
export function expectOutcomesAgree(calls: RecordFacts[]): void {
  for (const call of calls) {
    // An inbound campaign's calls are the customers' own: inbound, with no outbound outcome.
    if (call.campaign_type === 20) expect(call.direction, JSON.stringify(call)).toBe("inbound");
    if (call.direction === "inbound") expect(call.outbound_result, JSON.stringify(call)).toBeNull();
  }
  for (const call of calls.filter((c) => c.direction === "outbound")) {
    expect(CONNECTED_OUTCOMES.includes(call.outbound_result ?? ""), JSON.stringify(call)).toBe(call.call_result === 200);
    if (call.intent === "NO_INTENTION") expect(call.outbound_result).toBe("NoIntention");
    if (call.outbound_result?.startsWith("ToHuman")) expect(call.agent_user_id, JSON.stringify(call)).toBeNull();
    // An interested customer of a collaborative campaign goes to an agent, or is a 转人工 loss.
    const handedOver = call.campaign_type === 2 && INTERESTED_INTENTS.has(call.intent ?? "");
    if (handedOver) expect(call.agent_user_id !== null || call.outbound_result!.startsWith("ToHuman"), JSON.stringify(call)).toBe(true);
  }
}
