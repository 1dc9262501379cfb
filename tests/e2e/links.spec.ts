import { expect, test, type APIRequestContext } from "@playwright/test";
import { PASSWORD } from "./support";

/**
 * The link check: for every role, follow every link of every screen it can reach, as a crawler
 * and a browser without JavaScript see them (the server's HTML), and expect none to answer 4xx or
 * 5xx. Menus, list rows, dialogs, pagers and filters are all links or GET forms' results. To stay
 * fast, links are grouped by their shape (numbers and query values stripped) and at most a few
 * of each shape are followed; every shape is followed at least once.
 */
const ROLES = ["admin", "supervisor", "agent", "chat"] as const;
/** How many links of one shape are followed: a second of the same shape (another id) found nothing the first did not. */
const PER_SHAPE = 1;
/** Links that are not pages: a download that streams a file (checked by status only, no crawl). */
const FILE_LINK = /\/(recording|export|errors)(\?|$)/;

const shapeOf = (url: URL) => `${url.pathname.replace(/\/\d+/g, "/N")}?${[...url.searchParams.keys()].sort().join("&")}`;

async function signIn(request: APIRequestContext, username: string) {
  const page = await request.get("/user/login");
  const html = await page.text();
  const form: Record<string, string> = {};
  for (const tag of html.match(/<input\b[^>]*>/g) ?? []) {
    const name = /\sname="([^"]*)"/.exec(tag)?.[1];
    if (name) form[name] = (/\svalue="([^"]*)"/.exec(tag)?.[1] ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"');
  }
  const signedIn = await request.post("/user/login", { form: { ...form, username, password: PASSWORD }, maxRedirects: 0 });
  expect(signedIn.status(), `sign-in of ${username}`).toBe(302);
}

function linksOf(html: string, base: string): URL[] {
  const found: URL[] = [];
  for (const [, href] of html.matchAll(/<a\b[^>]*\shref="([^"#][^"]*)"/g)) {
    const url = new URL(href.replace(/&amp;/g, "&"), base);
    if (url.origin === new URL(base).origin) found.push(url);
  }
  return found;
}

for (const role of ROLES) {
  test(`every link ${role} can reach answers, without JavaScript`, async ({ playwright, baseURL }) => {
    test.setTimeout(120_000);
    const request = await playwright.request.newContext({ baseURL });
    await signIn(request, role);
    const seen = new Map<string, number>();
    const visited = new Set<string>();
    const broken: string[] = [];
    const queue: Array<{ url: URL; from: string }> = [{ url: new URL("/", baseURL), from: "(start)" }];
    while (queue.length > 0) {
      const { url, from } = queue.shift()!;
      const key = url.pathname + url.search;
      if (visited.has(key)) continue;
      const shape = shapeOf(url);
      if ((seen.get(shape) ?? 0) >= PER_SHAPE) continue;
      seen.set(shape, (seen.get(shape) ?? 0) + 1);
      visited.add(key);
      const response = await request.get(key, { maxRedirects: 0 });
      const status = response.status();
      if (status >= 400) {
        broken.push(`${status} ${key} (linked from ${from})`);
        continue;
      }
      if (status >= 300) {
        const location = response.headers().location;
        if (location) queue.push({ url: new URL(location, url), from: key });
        continue;
      }
      if (FILE_LINK.test(key) || !(response.headers()["content-type"] ?? "").includes("text/html")) continue;
      for (const link of linksOf(await response.text(), url.href)) queue.push({ url: link, from: key });
    }
    expect(broken, `${visited.size} links followed`).toEqual([]);
    expect(visited.size, "the crawl reached past the home page").toBeGreaterThan(5);
    await request.dispose();
  });
}

test("a form posted with an expired token says the page expired, not that the account lacks permission", async ({
  playwright,
  baseURL,
}) => {
  const request = await playwright.request.newContext({ baseURL });
  await signIn(request, "admin");
  const response = await request.post("/campaign/new", { form: { csrf: "expired-token", name: "x" } });
  expect(response.status()).toBe(403);
  const html = await response.text();
  expect(html).toContain("页面已过期，请刷新页面后重试");
  expect(html).not.toContain("当前账号没有该页面的权限");
  await request.dispose();
});
