import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The server loads the CommonJS builds, which is where patches/ changes them.
const require = createRequire(import.meta.url);
const { matchRoutes } = require("@remix-run/router") as typeof import("@remix-run/router");
const { createStaticRouter } = require("react-router-dom/server") as typeof import("react-router-dom/server");

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "list", path: "callHistory" },
      { id: "call", path: "callHistory/:callId" },
    ],
  },
];

describe("React Router as patched (patches/README.md)", () => {
  it("matches a path it has matched before the same way, with each caller's own params", () => {
    const first = matchRoutes(routes, "/callHistory/41");
    (first![1].params as Record<string, string>).callId = "changed by a caller";
    const second = matchRoutes(routes, "/callHistory/41");
    expect(second?.map((match) => match.route.id)).toEqual(["root", "call"]);
    expect(second?.map((match) => match.params)).toEqual([{ callId: "41" }, { callId: "41" }]);
    expect(matchRoutes(routes, "/callHistory/42")?.[1].params).toEqual({ callId: "42" });
    expect(matchRoutes(routes, "/callHistory")?.map((match) => match.route.id)).toEqual(["root", "list"]);
    expect(matchRoutes(routes, "/nowhere")).toBeNull();
  });

  it("sees a new route table as new, not as one it has matched before", () => {
    expect(matchRoutes(routes, "/callHistory")?.[1].route.id).toBe("list");
    const other = [{ id: "root", path: "/", children: [{ id: "other-list", path: "callHistory" }] }];
    expect(matchRoutes(other, "/callHistory")?.[1].route.id).toBe("other-list");
  });

  it("renders every request of a route table from the same converted routes, each with its own matches", () => {
    const context = (id: string) => ({ matches: [{ route: { id }, params: {}, pathname: "/", pathnameBase: "/" }] }) as never;
    const one = createStaticRouter(routes, context("root"));
    const two = createStaticRouter(routes, context("root"));
    expect(two.routes).toBe(one.routes);
    expect(two.routes[0].children?.map((route) => route.id)).toEqual(["list", "call"]);
    expect(two.state.matches[0].route).toBe(two.routes[0]);
  });
});

describe("Remix's server runtime as patched (patches/README.md)", () => {
  type LoaderArgs = { request: Request };
  const { callRouteLoader } = require("@remix-run/server-runtime/dist/data.js") as {
    callRouteLoader: (args: {
      loader: (args: LoaderArgs) => unknown;
      request: Request;
      params: object;
      loadContext: object;
      routeId: string;
      singleFetch: boolean;
    }) => Promise<unknown>;
  };
  const seenBy = async (request: Request) => {
    let seen: Request | undefined;
    await callRouteLoader({
      loader: ({ request }) => ((seen = request), null),
      request,
      params: {},
      loadContext: {},
      routeId: "list",
      singleFetch: true,
    });
    return seen!;
  };

  it("hands a loader the page's own request when it has nothing to strip", async () => {
    const request = new Request("http://console.test/callHistory?page=2");
    expect(await seenBy(request)).toBe(request);
  });

  it("still strips the router's own parameters, keeping the rest", async () => {
    const seen = await seenBy(new Request("http://console.test/callHistory?index&page=2&_routes=root"));
    expect(seen.url).toBe("http://console.test/callHistory?page=2");
  });
});
