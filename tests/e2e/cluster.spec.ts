import { expect, test } from "@playwright/test";
import { signIn, signOut } from "./support";

// Through `npm run cluster` (playwright.cluster.config.ts) each request may reach either console
// and either platform process; on the single console it holds as well (decision 037).
test("@cluster a signed-out session opens no page on any console, within the second", async ({ page, request }) => {
  await page.goto("/user/login");
  await signIn(page, "supervisor");
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "sb_session");
  const copied = { Cookie: `sb_session=${session!.value}` };
  // Round robin: four requests reach both consoles, each of which now keeps the session and menu.
  for (let i = 0; i < 4; i++) expect((await request.get("/monitor/agent", { headers: copied, maxRedirects: 0 })).status()).toBe(200);
  await signOut(page);
  const since = Date.now();
  for (let i = 0; i < 4; i++) {
    const afterwards = await request.get("/monitor/agent", { headers: copied, maxRedirects: 0 });
    expect(afterwards.status()).toBe(302);
    expect(afterwards.headers().location).toMatch(/^\/user\/login/);
  }
  expect(Date.now() - since).toBeLessThan(1_000 * 4);
});
