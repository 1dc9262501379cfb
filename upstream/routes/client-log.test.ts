import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`the browser's log (GET /api/log) on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let token: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    platform = await testPlatform({ logger: { level: "info", stream } });
    token = await loginAs(platform.app, "agent");
  });
  afterAll(async () => platform?.close());

  const log = (query: Record<string, string>, headers: Record<string, string> = bearer(token)) =>
    platform.app.inject({ method: "GET", url: `/api/log?${new URLSearchParams(query).toString()}`, headers });
  const written = (message: string) => lines.find((line) => line.msg === `browser: ${message}`);

  it("writes a signed-in browser's line to the platform's log with who sent it", async () => {
    const response = await log({ level: "warn", message: "通话结果保存失败", page: "/workBench", data: '{"status":0}' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ dataDropped: false });
    const line = written("通话结果保存失败");
    expect(line?.level).toBe(40);
    expect(line?.clientLog).toMatchObject({ page: "/workBench", data: '{"status":0}', dataDropped: false, userId: expect.any(Number) });
  });

  it("drops the data of an entry longer than 2500 characters and keeps its message", async () => {
    const response = await log({ message: "界面出错", page: "/textWorkBench", data: "x".repeat(2500) });
    expect(response.json().data).toEqual({ dataDropped: true });
    const line = written("界面出错");
    expect(line?.level).toBe(50);
    expect(line?.clientLog).toMatchObject({ page: "/textWorkBench", dataDropped: true });
    expect((line?.clientLog as { data?: string }).data).toBeUndefined();
  });

  it("refuses an empty message, an unknown level and an anonymous caller in Chinese", async () => {
    const empty = await log({ message: " " });
    expect(empty.statusCode).toBe(400);
    expect(FailureSchema.parse(empty.json()).msg).toBe("日志内容不能为空");
    const level = await log({ message: "x", level: "fatal" });
    expect(level.statusCode).toBe(400);
    expect(FailureSchema.parse(level.json()).msg).toMatch(/[\u4e00-\u9fa5]/);
    expect((await log({ message: "x" }, {})).statusCode).toBe(401);
  });
});
