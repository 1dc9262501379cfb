import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPathAllowed } from "#app/lib/access";
import { menuForWorkType } from "#app/lib/menu";
import { csrf } from "#app/server/security.server";
import { PUBLIC_ROUTES, SESSION_ONLY_ROUTES, formVocabulary, handlers, paramsOf, type Handler } from "./route-table";
import { consoleAgainstPlatform } from "./support";

/**
 * Every loader and action of the route tree, asked by a signed-in account entitled to it (actions
 * with a valid CSRF token), gets queries and forms made of its own field names and values, odd ones
 * and random ones: odd Unicode, NUL, numbers past 2^53, empty and repeated fields, long text. Whatever the form, the answer is
 * below 500 and every message it carries for the user is Chinese. Against the real platform, so a
 * platform 500 (a 502 for the console) fails it too.
 */

const ACCOUNTS = ["admin", "supervisor", "agent", "chat"] as const;
/** Runs per route; FUZZ_RUNS=500 for a deeper search by hand. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);

let setup: Awaited<ReturnType<typeof consoleAgainstPlatform>>;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(ACCOUNTS);
}, 60_000);
afterAll(async () => setup?.platform.close());

async function menuOf(account: string) {
  const { getSignedIn } = await import("#app/server/session.server");
  const { listMenus } = await import("#app/services/crm.server");
  const auth = await getSignedIn(new Request("http://console.test/", { headers: { Cookie: setup.cookies[account] } }));
  if (!auth) throw new Error(`no session for ${account}`);
  return menuForWorkType(
    await listMenus({ token: auth.token, customerId: auth.user.customerId, userId: auth.user.id }),
    auth.user.workType,
  );
}

const ODD_VALUES = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u3000",
  "\uFEFF",
  "\uD800",
  "𠮷😀",
  "-1",
  "0",
  "1.5",
  "1e309",
  "NaN",
  "9007199254740993",
  "99999999999999999999999999",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  '=HYPERLINK("http://evil.example")',
  "../../etc/passwd",
  "x".repeat(5_000),
  // Names every object inherits: a lookup by `in` once took them for an intent (a 500).
  "constructor",
  "__proto__",
  "toString",
];

function formOf(vocabulary: { names: string[]; values: string[] }) {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...vocabulary.names, "intent", "id", "reason") },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const value = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...ODD_VALUES) },
    { weight: 2, arbitrary: vocabulary.values.length > 0 ? fc.constantFrom(...vocabulary.values) : fc.constant("1") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  );
  return fc.array(fc.tuple(name, value), { maxLength: 12 });
}

/** The texts of an answer meant for the user: messages and form errors. */
function userFacingTexts(value: unknown, key = ""): string[] {
  if (typeof value === "string") return ["message", "msg", "formErrors", "error"].includes(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => userFacingTexts(item, key));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => userFacingTexts(v, key === "error" ? "error" : k));
  }
  return [];
}

/** What the browser would get: a status (a redirect to sign-in told apart) and the JSON of the answer. */
async function answer(handler: Handler, request: Request, params: Record<string, string>) {
  const fromResponse = async (response: Response) => {
    const json = response.headers.get("Content-Type")?.includes("json");
    if (!json) await response.body?.cancel(); // an event stream would stay open
    return {
      status: response.headers.get("Location")?.startsWith("/user/login") ? ("sign-in" as const) : response.status,
      data: json ? await response.json() : null,
    };
  };
  try {
    const value = await handler({ request, params, context: {} });
    if (value instanceof Response) return fromResponse(value);
    const init = (value as { init?: { status?: number } } | null)?.init;
    return { status: init?.status ?? 200, data: (value as { data?: unknown } | null)?.data ?? value };
  } catch (thrown) {
    if (thrown instanceof Response) return fromResponse(thrown);
    const { init, data } = thrown as { init?: { status?: number }; data?: unknown };
    if (init?.status) return { status: init.status, data };
    throw thrown;
  }
}

// Sign-out would end the session the rest posts with; tests/e2e/foundation.spec.ts covers it.
const fuzzed = handlers.filter((h) => !PUBLIC_ROUTES.has(h.path) && h.path !== "/user/logout" && !h.path.startsWith("layout"));
const actions = fuzzed.filter((h) => h.kind === "action");

describe("every loader and action, fed odd and random queries and forms", () => {
  it("covers the actions and loaders of the route tree", () => {
    expect(actions.length).toBeGreaterThanOrEqual(10);
    expect(fuzzed.length - actions.length).toBeGreaterThanOrEqual(30);
  });

  for (const { path, url, file, kind, handler } of fuzzed) {
    it(`${kind} of ${path}: never 5xx, every message Chinese`, async () => {
      let entitled: string | undefined;
      for (const candidate of ACCOUNTS) if (isPathAllowed(url, await menuOf(candidate))) entitled ??= candidate;
      const open = entitled !== undefined || SESSION_ONLY_ROUTES.has(path);
      const account = entitled ?? "admin";
      const [token, csrfCookie] = await csrf.commitToken();
      const cookie = `${setup.cookies[account]}; ${csrfCookie!.split(";")[0]}`;
      const vocabulary = formVocabulary(file);
      const statuses = new Set<number | "sign-in">();
      await fc.assert(
        fc.asyncProperty(formOf(vocabulary), async (fields) => {
          const body = new URLSearchParams([["csrf", token], ...fields]);
          // As the islands ask (their actions then answer JSON with the real status, not a redirect).
          const headers = { Cookie: cookie, Accept: "application/json" };
          const request =
            kind === "action"
              ? new Request(`http://console.test${url}`, {
                  method: "POST",
                  headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
                  body,
                })
              : new Request(`http://console.test${url}?${new URLSearchParams(fields)}`, { headers });
          const { status, data } = await answer(handler, request, paramsOf(path));
          statuses.add(status);
          expect(status, `${account} posting ${body} to ${url}`).not.toBe("sign-in");
          expect(status, `${account} posting ${body} to ${url}`).toBeLessThan(500);
          for (const text of userFacingTexts(data)) expect(text, `${url}: ${text}`).toMatch(/[\u4e00-\u9fff]/);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      // The requests got past the session, entitlement and CSRF checks into the route itself.
      if (open)
        expect(
          [...statuses].some((status) => status !== 403),
          `${path}: ${[...statuses]}`,
        ).toBe(true);
    });
  }
});
