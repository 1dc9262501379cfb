import { seededPgliteDump } from "#upstream/test-db";
import { startTestPlatform, type TestPlatform } from "#upstream/testing";

/**
 * A real in-process platform for the console's server code, with signed-in session cookies of
 * the demo accounts, as a browser would hold them.
 */
export async function consoleAgainstPlatform(accounts: readonly string[]) {
  const platform: TestPlatform = await startTestPlatform({ pgliteDump: await seededPgliteDump() });
  process.env.UPSTREAM_URL = platform.url;
  const { signIn } = await import("#app/server/auth.server");
  const { commitSignedIn } = await import("#app/server/session.server");
  const cookies: Record<string, string> = {};
  const users: Record<string, { id: number; tenantId: number }> = {};
  for (const account of accounts) {
    const signedIn = await signIn(account, "Switchboard@2026", null);
    cookies[account] = (await commitSignedIn(new Request("http://console.test/"), signedIn)).split(";")[0];
    users[account] = { id: signedIn.user.id, tenantId: signedIn.user.tenantId };
  }
  return { platform, cookies, users };
}
