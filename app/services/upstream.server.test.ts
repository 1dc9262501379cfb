import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { envelope } from "#contracts/envelope";
import { buildUrl, call, headersFor, isUpstreamError, normaliseFailure, send, type Caller } from "./upstream.server";

/** A local test server that records what reached it and answers as each test says. */
type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
let server: Server;
let seen: Seen[] = [];
let respond: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      respond(req, res, body);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.UPSTREAM_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  server.close();
});
beforeEach(() => {
  seen = [];
  respond = (_req, res) => json(res, 200, { code: 1, data: { ok: true } });
});

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

const caller: Caller = { token: "tok-123", customerId: "C-9", userId: 42 };
const OkSchema = envelope(z.object({ ok: z.boolean() }));

describe("header rules of spec §7, as they reach a server", () => {
  it("paths under /uaa/oauth carry the fixed basic client credential and no bearer", async () => {
    await call({ method: "POST", path: "/uaa/oauth/token", form: { a: "1" }, schema: OkSchema, what: "登录", caller });
    const { headers } = seen[0];
    expect(headers.authorization).toBe(`Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}`);
    expect(headers.accesstoken).toBeUndefined();
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });
  it("every other request carries the bearer and accessToken headers", async () => {
    await call({ path: "/crm/api/user/menus", schema: OkSchema, what: "获取菜单", caller });
    const { headers } = seen[0];
    expect(headers.authorization).toBe("Bearer tok-123");
    expect(headers.accesstoken).toBe("tok-123");
    expect(headers.customerid).toBeUndefined();
    expect(headers.userid).toBeUndefined();
  });
  it("paths containing /ccb also carry customerId and userId", async () => {
    await call({ method: "POST", path: "/ccb/callInfo", json: {}, schema: OkSchema, what: "质检列表", caller });
    const { headers } = seen[0];
    expect(headers.authorization).toBe("Bearer tok-123");
    expect(headers.customerid).toBe("C-9");
    expect(headers.userid).toBe("42");
  });
  it("every request carries X-Requested-With: XMLHttpRequest", async () => {
    await call({ path: "/config/logo", schema: OkSchema, what: "获取标志", caller: null });
    await call({ path: "/uaa/oauth/user_auth", schema: OkSchema, what: "x", caller: null });
    await call({ path: "/ccb/x", schema: OkSchema, what: "x", caller });
    expect(seen.map((s) => s.headers["x-requested-with"])).toEqual(["XMLHttpRequest", "XMLHttpRequest", "XMLHttpRequest"]);
  });
  it("the client credential comes from configuration", () => {
    expect(headersFor("/uaa/oauth/token", null, { id: "a", secret: "b" }).Authorization).toBe(
      `Basic ${Buffer.from("a:b").toString("base64")}`,
    );
  });
});

describe("requests", () => {
  it("builds repeat-style queries and skips empty values", () => {
    const url = new URL(buildUrl("/chat/api/sessions", { id: [1, 2], q: "", none: undefined, page: 2 }, "http://h:1/base"));
    expect(url.pathname).toBe("/base/chat/api/sessions");
    expect(url.searchParams.getAll("id")).toEqual(["1", "2"]);
    expect(url.searchParams.has("q")).toBe(false);
    expect(url.searchParams.get("page")).toBe("2");
  });
  it("sends JSON bodies", async () => {
    await call({ method: "POST", path: "/contact/x", json: { pageNo: 1 }, schema: OkSchema, what: "x", caller });
    expect(seen[0].headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[0].body)).toEqual({ pageNo: 1 });
  });
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isUpstreamError(error)) return error.data;
    throw error;
  }
  throw new Error("expected a failure");
}

describe("failures become a Chinese message with a status code", () => {
  it("a platform 4xx keeps its status and message", async () => {
    respond = (_req, res) => json(res, 404, { code: 404, msg: "通话不存在" });
    expect(await failure(call({ path: "/contact/x", schema: OkSchema, what: "获取通话详情", caller }))).toEqual({
      what: "获取通话详情",
      status: 404,
      message: "获取通话详情失败：通话不存在",
    });
  });
  it("a 404 can be answered as null when the caller expects it", async () => {
    respond = (_req, res) => json(res, 404, { code: 404, msg: "不存在" });
    expect(await call({ path: "/x", schema: OkSchema, what: "x", caller, allowNotFound: true })).toBeNull();
  });
  it("a platform 5xx is a bad gateway and never shows its internals", async () => {
    respond = (_req, res) => json(res, 500, { code: 500, msg: "NullPointerException at Foo.java:12" });
    const data = await failure(call({ path: "/x", schema: OkSchema, what: "获取菜单", caller }));
    expect(data.status).toBe(502);
    expect(data.message).toBe("获取菜单失败：平台服务异常，请稍后重试");
  });
  it("a success envelope with another code fails with the platform's message", async () => {
    respond = (_req, res) => json(res, 200, { code: 0, msg: "名称已存在" });
    const data = await failure(call({ path: "/x", schema: OkSchema, what: "保存活动", caller }));
    expect(data).toEqual({ what: "保存活动", status: 500, message: "保存活动失败：名称已存在" });
  });
  it("a 2xx that does not match its contract is a 502", async () => {
    respond = (_req, res) => json(res, 200, { code: 1, data: { ok: "yes" } });
    const data = await failure(call({ path: "/x", schema: OkSchema, what: "获取菜单", caller }));
    expect(data.status).toBe(502);
    expect(data.message).toBe("获取菜单失败：平台返回的数据格式不正确");
  });
  it("a 401 ends the session of the request it serves", async () => {
    respond = (_req, res) => json(res, 401, { code: 401, msg: "登录已失效" });
    const endSession = async () => new Response(null, { status: 302, headers: { Location: "/user/login" } });
    await expect(call({ path: "/x", schema: OkSchema, what: "x", caller: { ...caller, endSession } })).rejects.toMatchObject({
      status: 302,
    });
  });
  it("a 401 without a browser session is a 401 failure", async () => {
    respond = (_req, res) => json(res, 401, { error: "invalid_client" });
    expect((await failure(call({ path: "/uaa/oauth/token", schema: OkSchema, what: "登录", caller: null }))).status).toBe(401);
  });
  it("a slow platform times out within the call's limit, as a 504", async () => {
    respond = () => {}; // never answers
    const started = Date.now();
    const data = await failure(call({ path: "/x", schema: OkSchema, what: "获取菜单", caller, timeoutMs: 300 }));
    expect(data.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
  it("normalises an unknown failure to 500 and 'Error'", () => {
    expect(normaliseFailure("x", { error: new Error("weird") })).toEqual({ what: "x", status: 500, message: "x失败：Error" });
    expect(normaliseFailure("x", {}).status).toBe(500);
  });
});

describe("retries", () => {
  it("retries an idempotent read once when the connection drops, and succeeds", async () => {
    let attempts = 0;
    respond = (req, res) => {
      attempts++;
      if (attempts === 1) req.socket.destroy();
      else json(res, 200, { code: 1, data: { ok: true } });
    };
    await expect(call({ path: "/x", schema: OkSchema, what: "x", caller })).resolves.toMatchObject({ code: 1 });
    expect(attempts).toBe(2);
  });
  it("never retries a write", async () => {
    let attempts = 0;
    respond = (req) => {
      attempts++;
      req.socket.destroy();
    };
    const data = await failure(call({ method: "POST", path: "/x", json: {}, schema: OkSchema, what: "保存", caller }));
    expect(attempts).toBe(1);
    expect(data.status).toBe(503);
  });
  it("an unreachable platform is a 503 after one retry", async () => {
    const previous = process.env.UPSTREAM_URL;
    process.env.UPSTREAM_URL = "http://127.0.0.1:1";
    try {
      const data = await failure(send({ path: "/x", what: "获取菜单", caller }));
      expect(data).toEqual({ what: "获取菜单", status: 503, message: "获取菜单失败：暂时无法连接平台，请稍后重试" });
    } finally {
      process.env.UPSTREAM_URL = previous;
    }
  });
});
