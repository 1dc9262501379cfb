// Signing in and fetching pages as a browser without JavaScript would: used by `npm run bench`
// and by the budget tests (tests/e2e/budgets.spec.ts).

import { request as httpRequest } from "node:http";

export const DEMO_PASSWORD = "Switchboard@2026";

/** `name=value` pairs of a response's Set-Cookie headers, merged into a Cookie header. */
export function mergeCookies(cookie, response) {
  const jar = new Map(cookie ? cookie.split("; ").map((pair) => [pair.split("=")[0], pair]) : []);
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    jar.set(pair.split("=")[0], pair);
  }
  return [...jar.values()].join("; ");
}

const attribute = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
const unescape = (text) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The named inputs of a page's forms (the hidden CSRF token and honeypot fields among them), as a browser would post them. */
export function inputsOf(html) {
  const form = new URLSearchParams();
  for (const tag of html.match(/<input\b[^>]*>/g) ?? []) {
    const name = attribute(tag, "name");
    if (name) form.set(name, unescape(attribute(tag, "value") ?? ""));
  }
  return form;
}

/** Posts the sign-in form (with its CSRF token and honeypot fields); returns the session's Cookie header. */
export async function signIn(base, username, password = DEMO_PASSWORD) {
  const page = await fetch(`${base}/user/login`, { redirect: "manual" });
  let cookie = mergeCookies("", page);
  const form = inputsOf(await page.text());
  form.set("username", username);
  form.set("password", password);
  const response = await fetch(`${base}/user/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  if (response.status !== 302) throw new Error(`signing in as ${username} answered ${response.status}`);
  cookie = mergeCookies(cookie, response);
  return cookie;
}

/** A page as the browser gets it on a full document load. */
export async function getPage(base, path, cookie) {
  const response = await fetch(`${base}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
  return { status: response.status, location: response.headers.get("Location"), html: await response.text() };
}

export async function waitForHealth(base, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${base} did not become healthy within ${timeoutMs / 1000} s`);
}

/** A platform token for a demo account, as the console gets one (design §8). */
export async function platformToken(base, username) {
  const response = await fetch(`${base}/uaa/oauth/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "password", username, password: DEMO_PASSWORD }),
  });
  const body = await response.json();
  const token = body.data?.access_token ?? body.access_token;
  if (!token) throw new Error(`no platform token for ${username}`);
  return token;
}

/**
 * POSTs `body` (JSON) and reads the answer to its end through node:http, keeping nothing but its
 * size and its count of "\n": an export's body is counted, not held. fetch's web streams cost the
 * reader about as much CPU per export as the platform spends serving it, on the same two cores.
 */
export function postAndCount(url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" } }, (response) => {
      let bytes = 0;
      let lines = 0;
      response.on("data", (chunk) => {
        bytes += chunk.length;
        lines += newlines(chunk);
      });
      response.on("end", () => resolve({ status: response.statusCode, bytes, lines }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

/** How many "\n" bytes `chunk` holds. */
export function newlines(chunk) {
  let count = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count++;
  return count;
}
