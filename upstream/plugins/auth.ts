import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { mayCreateWorkOrders } from "#upstream/domain/menus";
import { entitled, entitlementOf, refusalOf, type Entitlement } from "#upstream/domain/entitlements";
import { hashAccessToken } from "#upstream/domain/tokens";
import { WORK_ORDER_CREATE_REFUSED } from "#contracts/work-orders";
import { ExpiringCache } from "#common/expiring-cache";
import { HttpError, failure } from "#upstream/http";
import {
  deleteAccessToken,
  deleteOtherUserAccessTokens,
  deleteUserAccessTokens,
  findUserByAccessToken,
} from "#upstream/repositories/access-tokens";
import type { Role } from "#contracts/uaa";
import type { AuthUser } from "#upstream/repositories/users";

declare module "fastify" {
  interface FastifyRequest {
    /** Set for bearer-authenticated routes; read it with `requireUser`. */
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route (domain/entitlements.ts), set when it is registered. */
    entitlement?: Entitlement;
  }
  interface FastifyInstance {
    /** Tokens recently seen, by hash; see TOKEN_CACHE_MS. */
    accessTokens: ExpiringCache<string, AuthUser>;
    /** Open event streams, each ended when its token is revoked (streamEndsWithSession). */
    openStreams: Set<OpenStream>;
  }
}

type OpenStream = { userId: number; tokenHash: string; end: () => void };

export interface AuthOptions {
  clientId: string;
  clientSecret: string;
}

type AuthKind = "public" | "client" | "bearer";

const USER_AUTH_PATH = "/uaa/oauth/user_auth";

/**
 * Which credential a route needs, from its path (spec §7 attaches headers by path the same way):
 * `/uaa/oauth/*` takes the console's Basic client credential, except `user_auth`, which reports
 * who a bearer token belongs to; `/crm/open/*` (sign-up, reset) takes the client credential too; `/health`, `/ready` and `/config/logo` are public; everything else takes a token.
 */
export function authKindFor(routePath: string): AuthKind {
  if (routePath === "/health" || routePath === "/ready" || routePath === "/config/logo") return "public";
  if (routePath === USER_AUTH_PATH) return "bearer";
  if (routePath.startsWith("/uaa/oauth/")) return "client";
  // Sign-up and password reset: no user yet, so the console's client credential (it alone can
  // pass the browser's address, which the code limits count by).
  if (routePath.startsWith("/crm/open/")) return "client";
  // The SMS simulator's view of the codes it delivered (SIMULATOR_CONTROL only): codes belong to
  // no tenant, so no tenant's user reads them; the console's client credential does.
  if (routePath.startsWith("/sms/simulator/")) return "client";
  return "bearer";
}

export function authPlugin(app: FastifyInstance, options: AuthOptions): void {
  const expectedClient = digest(`${options.clientId}:${options.clientSecret}`);

  app.decorateRequest("user", null);
  app.decorate("accessTokens", new ExpiringCache<string, AuthUser>(10_000));
  app.decorate("openStreams", new Set<OpenStream>());

  // Every route that takes a token says who may call it (decision 044): one that does not stops
  // the platform here, at start, rather than answering everyone.
  app.addHook("onRoute", (route) => {
    if (route.method === "HEAD" || authKindFor(route.url) !== "bearer") return;
    const entitlement = [route.method].flat().map((method) => entitlementOf(method, route.url))[0];
    if (!entitlement)
      throw new Error(`${String(route.method)} ${route.url}: no entry in ROUTE_ENTITLEMENTS (upstream/domain/entitlements.ts)`);
    route.config = { ...route.config, entitlement };
  });

  app.addHook("onRequest", async (request, reply) => {
    // The matched route's declared path, not the raw URL: encoding tricks cannot change the rule.
    // Unknown routes have none and go on to the 404 handler.
    const routePath = request.routeOptions.url;
    if (routePath === undefined) return;
    const kind = authKindFor(routePath);
    if (kind === "client" && !clientMatches(request, expectedClient)) {
      return reply.code(401).send(INVALID_CLIENT);
    }
    if (kind === "bearer") {
      request.user = await bearerUser(app, request);
      if (!request.user) return reply.code(401).send(failure(401));
      const { entitlement } = request.routeOptions.config;
      if (entitlement && !entitled(entitlement, request.user.role, request.user.workType)) {
        return reply.code(403).send(failure(403, refusalOf(entitlement)));
      }
    }
  });
}

/** The caller, when their role is one of `roles`; otherwise a 403 that says who may. */
export function requireRole(user: AuthUser, roles: readonly Role[], message = "无权执行该操作"): AuthUser {
  if (!roles.includes(user.role)) throw new HttpError(403, message);
  return user;
}

/** The caller of a bearer-authenticated route (throws 401 if a route forgot to require one). */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401);
  return request.user;
}

/** The caller, if their menu lists a work-order screen (decision 026); otherwise a 403. */
export function requireWorkOrderCreator(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!mayCreateWorkOrders(user.role, user.workType)) throw new HttpError(403, WORK_ORDER_CREATE_REFUSED);
  return user;
}

/** The OAuth2 error body (RFC 6749 §5.2) plus the envelope's code/msg, so either parser reads it. */
const INVALID_CLIENT = { error: "invalid_client", error_description: "客户端认证失败", code: 401, msg: "客户端认证失败" };

function clientMatches(request: FastifyRequest, expected: Buffer): boolean {
  const [scheme, encoded] = (request.headers.authorization ?? "").split(" ");
  const presented = scheme?.toLowerCase() === "basic" && encoded ? Buffer.from(encoded, "base64").toString("utf8") : "";
  // Compare fixed-length digests so the comparison takes the same time whatever was sent.
  return timingSafeEqual(digest(presented), expected);
}

/**
 * The browser's address behind a client-credential route (`/uaa/oauth/*`, `/crm/open/*`): the
 * console passes it in X-Client-Address (only it holds the credential, so only it can say so); a
 * caller without one is counted by its own address.
 */
export function clientAddressOf(request: FastifyRequest): string {
  const told = request.headers["x-client-address"];
  return typeof told === "string" && /^[0-9A-Fa-f:.]{2,64}$/.test(told) ? told : request.ip;
}

/**
 * A long-lived answer (an event stream) of this request's session: `end` is called when its token
 * is revoked, since the stream checked the token only once, when it opened. Answers the
 * unregistering, for the stream's own close.
 */
export function streamEndsWithSession(app: FastifyInstance, request: FastifyRequest, user: AuthUser, end: () => void): () => void {
  const stream: OpenStream = { userId: user.id, tokenHash: hashAccessToken(bearerToken(request) ?? ""), end };
  app.openStreams.add(stream);
  return () => app.openStreams.delete(stream);
}

function endStreams(app: FastifyInstance, ended: (stream: OpenStream) => boolean): void {
  for (const stream of [...app.openStreams].filter(ended)) {
    app.openStreams.delete(stream);
    stream.end();
  }
}

/**
 * What this process keeps of sessions (cached tokens, open streams) follows every revocation,
 * its own and other processes' (decision 037). Called once, when the app is built.
 */
export function followRevocations(app: FastifyInstance): () => void {
  return app.notifications.onRevocation((revocation) => {
    revocationsHeard.set(app, (revocationsHeard.get(app) ?? 0) + 1);
    switch (revocation.kind) {
      case "token":
        app.accessTokens.delete(revocation.tokenHash);
        return endStreams(app, (stream) => stream.tokenHash === revocation.tokenHash);
      case "user":
        // Cached entries are forgotten, a kept one included: it is looked up again from the database.
        app.accessTokens.deleteWhere((user) => user.id === revocation.userId);
        return endStreams(app, (stream) => stream.userId === revocation.userId && stream.tokenHash !== revocation.keepTokenHash);
      case "account":
        return app.accessTokens.deleteWhere((user) => user.id === revocation.userId);
      case "everything":
        app.accessTokens.deleteWhere(() => true);
        return void endStreamsOfEndedTokens(app).catch((error) => app.log.error(error, "checking open streams' tokens failed"));
    }
  });
}

/** How many revocations each app has heard: a token read before one is not kept (it may be the revoked one). */
const revocationsHeard = new WeakMap<FastifyInstance, number>();

/** After revocations may have been missed: each open stream whose token is gone ends. */
async function endStreamsOfEndedTokens(app: FastifyInstance): Promise<void> {
  const now = new Date();
  const hashes = [...new Set([...app.openStreams].map((stream) => stream.tokenHash))];
  const ended = new Set<string>();
  for (const hash of hashes) if (!(await findUserByAccessToken(app.db, hash, now))) ended.add(hash);
  endStreams(app, (stream) => ended.has(stream.tokenHash));
}

/** Ends every session of a user at once (e.g. the password was reset). */
export async function revokeUserTokens(app: FastifyInstance, userId: number): Promise<void> {
  await deleteUserAccessTokens(app.db, userId);
  await forgetUserSessions(app, userId);
}

/** What every process keeps of a user's sessions (cached tokens, open streams), once their tokens are deleted. */
export async function forgetUserSessions(app: FastifyInstance, userId: number): Promise<void> {
  await app.notifications.revoke({ kind: "user", userId });
}

/** Ends every session of a user but the one of this request (a password change). */
export async function revokeOtherUserTokens(app: FastifyInstance, request: FastifyRequest, userId: number): Promise<void> {
  const token = bearerToken(request);
  const keep = token ? hashAccessToken(token) : "";
  await deleteOtherUserAccessTokens(app.db, userId, keep);
  await app.notifications.revoke({ kind: "user", userId, keepTokenHash: keep });
}

/** Forgets what every process keeps of a user's tokens, so their next request reads the account again (its configuration changed). */
export async function forgetCachedUser(app: FastifyInstance, userId: number): Promise<void> {
  await app.notifications.revoke({ kind: "account", userId });
}

/** Ends one session: the token stops working at once, here and in every other process (RFC 7009 revocation). */
export async function revokeAccessToken(app: FastifyInstance, token: string): Promise<void> {
  const tokenHash = hashAccessToken(token);
  await deleteAccessToken(app.db, tokenHash);
  await app.notifications.revoke({ kind: "token", tokenHash });
}

async function bearerUser(app: FastifyInstance, request: FastifyRequest): Promise<AuthUser | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const hash = hashAccessToken(token);
  const now = new Date();
  const cached = app.accessTokens.get(hash, now.getTime());
  if (cached) return cached;
  const heardBefore = revocationsHeard.get(app);
  const found = await findUserByAccessToken(app.db, hash, now);
  if (!found) return null;
  if (revocationsHeard.get(app) === heardBefore)
    app.accessTokens.set(hash, found.user, Math.min(found.expiresAt.getTime(), now.getTime() + TOKEN_CACHE_MS));
  return found.user;
}

/**
 * Recently seen tokens and their users, so the console's several calls per page do not each pay
 * for the token lookup (a three-table join: on PGlite about a third of a list call's cost). An entry
 * lives at most TOKEN_CACHE_MS and never past its token's expiry; every revocation, of this process
 * or another, forgets the entries it ends (`followRevocations`), as does an administrator's change
 * of an agent (`forgetCachedUser`). Nothing in the platform changes who a token belongs to.
 * Unknown tokens are never cached.
 */
const TOKEN_CACHE_MS = 30_000;

/**
 * `Authorization: Bearer <token>`, or the bare `accessToken` header the inspection service uses.
 * `user_auth` also takes `?access_token=` (RFC 6750 §2.3): the console sends the client credential
 * in Authorization on every `/uaa/oauth` path (spec §7), so the token it asks about travels in the
 * query, as in an OAuth2 token check. Nowhere else, so tokens stay out of other URLs.
 */
function bearerToken(request: FastifyRequest): string | undefined {
  const [scheme, value] = (request.headers.authorization ?? "").split(" ");
  if (scheme?.toLowerCase() === "bearer" && value) return value;
  const header = request.headers.accesstoken;
  if (typeof header === "string" && header.length > 0) return header;
  if (request.routeOptions.url === USER_AUTH_PATH) return accessTokenParam(request.query);
  return undefined;
}

function accessTokenParam(query: unknown): string | undefined {
  if (typeof query !== "object" || query === null || !("access_token" in query)) return undefined;
  const value = query.access_token;
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
