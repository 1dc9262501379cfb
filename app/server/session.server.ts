import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createCookie, createCookieSessionStorage, redirect } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { ExpiringCache } from "#common/expiring-cache";
import type { Revocation, Role } from "#contracts/uaa";
import { hearingRevocations, onRevocation } from "./revocations.server";

/** The signed-in user as the console keeps it: no secret but the upstream token. */
export type SessionUser = {
  id: number;
  userName: string;
  realName: string;
  role: Role;
  tenantId: number;
  tenantCode: string;
  customerId: string;
  workType: number;
  agentId: string;
  defaultQueueName: string;
  agentState: string;
  queueName: string;
};
export type SignedIn = { token: string; expiresAt: number; user: SessionUser };

const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

/**
 * SESSION_SECRET holds one or more comma-separated secrets: the first signs, every one verifies,
 * so a secret is rotated by putting the new one first. Production refuses to start without it;
 * elsewhere a random per-process secret keeps secrets out of the repo.
 */
function sessionSecrets(): string[] {
  const configured = (process.env.SESSION_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (configured.length > 0) return configured;
  if (process.env.NODE_ENV === "production") {
    throw new Error("SESSION_SECRET must be set in production (npm start sets one for you)");
  }
  return [randomBytes(32).toString("hex")];
}

export const secrets = sessionSecrets();
/** Secure cookies in production; COOKIE_SECURE=0 allows plain http on a private network. */
export const secureCookies = process.env.NODE_ENV === "production" && process.env.COOKIE_SECURE !== "0";

/**
 * The cookie carries the session sealed (AES-256-GCM under a key derived from each secret), not
 * only signed: the platform token inside is never readable in the browser, and a changed byte
 * fails to open. Sign-out revokes the token at the platform, so a copied cookie stops working.
 */
const sealingKeys = secrets.map((secret) => createHash("sha256").update(`sb_session:${secret}`).digest());

function seal(auth: SignedIn): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKeys[0], iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(auth), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

function unseal(value: unknown): SignedIn | null {
  if (typeof value !== "string") return null;
  const bytes = Buffer.from(value, "base64url");
  if (bytes.length < 29) return null;
  for (const key of sealingKeys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")) as SignedIn;
    } catch {
      // sealed under another secret (or not at all): try the next one
    }
  }
  return null;
}

const storage = createCookieSessionStorage<{ sealed: string }>({
  cookie: {
    name: "sb_session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secureCookies,
    secrets,
    maxAge: SEVEN_DAYS_S,
  },
});

export async function getSession(request: Request) {
  return storage.getSession(request.headers.get("Cookie"));
}

/**
 * Verified session cookies, kept briefly: a browser sends the same cookie with every page, and
 * verifying its signature and decoding it cost more than the rest of the access check. Kept only
 * while the platform's revocations are heard, and each one forgets the sessions it ends (decision 037).
 */
const SESSION_KEPT_MS = 30_000;
const verifiedSessions = new ExpiringCache<string, SignedIn | null>(1_000);

/** The sha256 of a token, hex: how a revocation names the session it ends. */
export const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** Whether a revocation ends the session of this token and user. */
export function revocationEnds(revocation: Revocation, token: string, userId: number): boolean {
  switch (revocation.kind) {
    case "token":
      return tokenHashOf(token) === revocation.tokenHash;
    case "user":
      return userId === revocation.userId && tokenHashOf(token) !== revocation.keepTokenHash;
    case "account":
      return userId === revocation.userId;
    case "everything":
      return true;
  }
}

onRevocation((revocation) => verifiedSessions.deleteWhere((auth) => auth !== null && revocationEnds(revocation, auth.token, auth.user.id)));

export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  const cookies = request.headers.get("Cookie");
  if (!cookies) return null;
  const heard = hearingRevocations();
  let auth = heard ? verifiedSessions.get(cookies) : undefined;
  if (auth === undefined) {
    auth = unseal((await getSession(request)).get("sealed"));
    if (heard) verifiedSessions.set(cookies, auth, Date.now() + SESSION_KEPT_MS);
  }
  return auth && auth.expiresAt > Date.now() ? auth : null;
}

export async function commitSignedIn(request: Request, auth: SignedIn): Promise<string> {
  const session = await getSession(request);
  session.set("sealed", seal(auth));
  return storage.commitSession(session);
}

export async function destroySession(request: Request): Promise<string> {
  const cookies = request.headers.get("Cookie");
  if (cookies) verifiedSessions.delete(cookies);
  return storage.destroySession(await getSession(request));
}

/**
 * The one rule for every redirect a request asks for (sign-in's `redirectTo`, the sidebar's way
 * back): remix-utils' safeRedirect (a path of this site: no other origin, no `//`, no `/\\`, no
 * `..`), and no whitespace or control character anywhere, since browsers drop a TAB or a newline
 * inside a URL and what remains may be another site (and a newline cannot go into a header).
 */
export function safeRedirectTo(target: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof target !== "string" || /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(target)) {
    return fallback;
  }
  const safe = safeRedirect(target, fallback);
  if (safe.startsWith("/user/login") || safe.startsWith("/user/logout")) return fallback;
  return safe;
}

export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return back === "/" ? "/user/login" : `/user/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Ends the session and sends the user to sign-in, back to this page afterwards. */
export async function signOutRedirect(request: Request): Promise<Response> {
  return redirect(loginUrl(request), { headers: { "Set-Cookie": await destroySession(request) } });
}

/** The sidebar open/closed state, remembered between visits (spec §2). */
export const sidebarCookie = createCookie("sb_sidebar", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: secureCookies,
  maxAge: 365 * 24 * 60 * 60,
});
export async function isSidebarOpen(request: Request): Promise<boolean> {
  return (await sidebarCookie.parse(request.headers.get("Cookie"))) !== "closed";
}
