import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codesOf, MONITOR_RULE_KEYS } from "#contracts/codes";
import { csrf } from "#app/server/security.server";
import { handlers, type Handler } from "./route-table";
import { consoleAgainstPlatform } from "./support";

/**
 * Faults injected between the console and the real platform: a 503, a reset connection, a platform
 * that never answers. Pages answer with a Chinese message within the transport's timeout, a read
 * whose connection dropped is tried once more, a write is never sent twice, and a form whose
 * change failed comes back with everything typed.
 */

type Fault = "503" | "reset" | "hang";
/** A proxy in front of the platform that fails the next requests matching a method and path. */
function faultyProxy(target: string) {
  const planned: Array<{ method: string; path: string; fault: Fault }> = [];
  const seen: string[] = [];
  const hanging = new Set<import("node:http").ServerResponse>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const at = planned.findIndex((p) => p.method === req.method && req.url?.startsWith(p.path));
    const fault = at >= 0 ? planned.splice(at, 1)[0].fault : undefined;
    if (fault === "503") {
      req.resume();
      res.writeHead(503, { "Content-Type": "text/html" }).end("<h1>Service Unavailable</h1>");
      return;
    }
    if (fault === "reset") return req.socket.destroy();
    if (fault === "hang") return void hanging.add(res);
    const url = new URL(req.url ?? "/", target);
    const forwarded = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  return {
    server,
    seen,
    fail(method: string, path: string, fault: Fault) {
      planned.push({ method, path, fault });
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

let setup: Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let proxy: ReturnType<typeof faultyProxy>;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["supervisor"]);
  proxy = faultyProxy(setup.platform.url);
  process.env.UPSTREAM_URL = await proxy.listen();
}, 60_000);
afterAll(async () => {
  proxy?.close();
  await setup?.platform.close();
});

const handlerOf = (path: string, kind: "loader" | "action") => handlers.find((h) => h.path === path && h.kind === kind)!.handler;

/** The status and data a handler answers (or throws). */
async function run(handler: Handler, request: Request) {
  try {
    const value = (await handler({ request, params: {}, context: {} })) as { init?: { status?: number }; data?: unknown } | Response;
    if (value instanceof Response) return { status: value.status, data: null };
    return { status: value?.init?.status ?? 200, data: value?.data ?? value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null };
    const { init, data } = thrown as { init?: { status?: number }; data?: unknown };
    if (init?.status) return { status: init.status, data };
    throw thrown;
  }
}

const page = (url: string) => new Request(`http://console.test${url}`, { headers: { Cookie: setup.cookies.supervisor } });

describe("the console with a failing platform", () => {
  it("shows a page whose platform answers 503 as 平台服务异常, never the platform's own page", async () => {
    proxy.fail("POST", "/contact/campaign/record/list", "503");
    const { status, data } = await run(handlerOf("/callLog", "loader"), page("/callLog"));
    expect(status).toBe(502);
    expect(data).toMatchObject({ message: "获取外呼通话记录失败：平台服务异常，请稍后重试" });
    expect(JSON.stringify(data)).not.toContain("Service Unavailable");
  });

  it("tries a read once more when its connection drops, and the page shows", async () => {
    proxy.fail("GET", "/analysis/monitor/rules", "reset");
    const before = proxy.seen.filter((line) => line.startsWith("GET /analysis/monitor/rules")).length;
    const { status } = await run(handlerOf("/monitor/rules", "loader"), page("/monitor/rules"));
    expect(status).toBe(200);
    expect(proxy.seen.filter((line) => line.startsWith("GET /analysis/monitor/rules")).length - before).toBe(2);
  });

  it("answers a platform that never answers within the transport's timeout, as 平台响应超时", async () => {
    proxy.fail("GET", "/analysis/monitor/rules", "hang");
    const started = Date.now();
    const { status, data } = await run(handlerOf("/monitor/rules", "loader"), page("/monitor/rules"));
    expect(status).toBe(504);
    expect((data as { message: string }).message).toContain("平台响应超时");
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);

  for (const fault of ["503", "reset"] as const) {
    it(`sends a change once when the platform fails it (${fault}) and gives the form back with what was typed`, async () => {
      const [token, csrfCookie] = await csrf.commitToken();
      const fields = new URLSearchParams([
        ["csrf", token],
        ["intent", "rules"],
        ["reason", "晚高峰放宽阈值"],
      ]);
      for (const key of codesOf(MONITOR_RULE_KEYS)) {
        fields.append(`${key}_warning`, "61");
        fields.append(`${key}_critical`, "121");
      }
      proxy.fail("PUT", "/analysis/monitor/rules", fault);
      const before = proxy.seen.filter((line) => line.startsWith("PUT /analysis/monitor/rules")).length;
      const request = new Request("http://console.test/monitor/rules", {
        method: "POST",
        headers: {
          Cookie: `${setup.cookies.supervisor}; ${csrfCookie!.split(";")[0]}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: fields,
      });
      const { status, data } = await run(handlerOf("/monitor/rules", "action"), request);
      expect(status).toBe(fault === "503" ? 502 : 503);
      const reply = data as { error: Record<string, string[]>; initialValue: Record<string, string> };
      expect(reply.error[""]?.[0]).toMatch(fault === "503" ? /平台服务异常，请稍后重试$/ : /暂时无法连接平台，请稍后重试$/);
      expect(reply.initialValue).toMatchObject({ reason: "晚高峰放宽阈值", NOT_READY_warning: "61" });
      expect(proxy.seen.filter((line) => line.startsWith("PUT /analysis/monitor/rules")).length - before).toBe(1);
    });
  }
});
