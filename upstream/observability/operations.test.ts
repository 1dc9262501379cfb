import { afterAll, beforeAll, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { TEST_DB, basicAuth, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { registry, watchDatabase } from "./metrics";
import { runOperations } from "./operations";

/** A metric's value in the scrape, for the series whose labels contain `labels`. */
async function metric(name: string, labels = ""): Promise<number> {
  const text = await registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(name) && (l[name.length] === " " || l[name.length] === "{") && l.includes(labels));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

describeDb(`the platform's readiness, metrics and drain on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  beforeAll(async () => {
    platform = await testPlatform();
  });
  afterAll(async () => {
    watchDatabase(undefined);
    await platform?.close();
  });

  it("answers /ready 503 until started, 200 then, without a token; /health is 200 throughout", async () => {
    const before = await platform.app.inject({ url: "/ready" });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({ status: "unavailable", reason: "starting" });
    expect((await platform.app.inject({ url: "/health" })).statusCode).toBe(200);
    await platform.app.listen({ host: "127.0.0.1", port: 0 });
    runOperations(platform.app, platform.db, "");
    const after = await platform.app.inject({ url: "/ready" });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ status: "ready" });
  });

  it("counts requests by route pattern and status, refused sign-ins, and reports the pool and the dialer", async () => {
    const route = 'route="/uaa/oauth/token",method="POST",status="400"';
    const refusedBefore = await metric("http_request_duration_seconds_count", route);
    const failuresBefore = await metric("signin_failures_total");
    const response = await platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/token",
      headers: { authorization: basicAuth() },
      payload: { grant_type: "password", username: "agent", password: "wrong-password" },
    });
    expect(response.statusCode).toBe(400);
    expect(await metric("http_request_duration_seconds_count", route)).toBe(refusedBefore + 1);
    expect(await metric("signin_failures_total")).toBe(failuresBefore + 1);
    // A path with an id is counted under its pattern, not one series per id.
    const token = await loginAs(platform.app, "admin");
    await platform.app.inject({ url: "/crm/api/user/999999", headers: bearer(token) });
    expect(await registry.metrics()).not.toMatch(/route="[^"]*999999/);
    expect(await metric("db_pool_connections", 'state="total"')).toBeGreaterThanOrEqual(1);
    expect(await registry.metrics()).toContain("# TYPE dialer_calls_in_progress gauge");
  });

  it("on drain: /ready 503, an open event stream ends with a reconnect hint, and it is no longer counted", async () => {
    const token = await loginAs(platform.app, "agent");
    const address = platform.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const streamsBefore = await metric("event_streams_open", 'kind="user"');
    const operations = runOperations(platform.app, platform.db, "");
    const received = await new Promise<string>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, path: "/events/api/stream", headers: bearer(token) }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          // The first frame is out: the stream is open; now the platform drains.
          if (text.includes("\n\n") && !text.includes("retry: 1000")) {
            void metric("event_streams_open", 'kind="user"').then((open) => {
              expect(open).toBe(streamsBefore + 1);
              return operations.drain();
            });
          }
        });
        response.on("end", () => resolve(text));
      });
      request.on("error", reject);
      request.end();
    });
    expect(received).toContain("retry: 1000");
    expect(await metric("event_streams_open", 'kind="user"')).toBe(streamsBefore);
    const ready = await platform.app.inject({ url: "/ready" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: "unavailable", reason: "draining" });
  });
});
