import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { formatSse, HEARTBEAT_EVENT } from "#contracts/events";
import { REVOCATION_EVENT, TokenRequestSchema, type TokenErrorSchema, type TokenResponseSchema, type UserAuth } from "#contracts/uaa";
import type { Db } from "#upstream/db";
import { decoyPasswordHash, verifyPassword } from "#upstream/domain/passwords";
import { TOKEN_TTL_SECONDS, hashAccessToken, newAccessToken } from "#upstream/domain/tokens";
import { HttpError, ok, parseInput } from "#upstream/http";
import { HEARTBEAT_MS } from "#upstream/notifications/bus";
import { clientAddressOf, requireUser, revokeAccessToken } from "#upstream/plugins/auth";
import { deleteExpiredAccessTokens, insertAccessToken } from "#upstream/repositories/access-tokens";
import {
  addressKey,
  clearSignInFailures,
  forgetSignInTry,
  recordSignInTry,
  signInWaitUntil,
} from "#upstream/repositories/sign-in-throttle";
import { findCredentials } from "#upstream/repositories/users";
import { cstClock } from "#common/china-time";
import { signInFailures, signInThrottled } from "#upstream/observability/metrics";

type TokenResponse = z.infer<typeof TokenResponseSchema>;
type TokenError = z.infer<typeof TokenErrorSchema>;

const WRONG_CREDENTIALS = "用户名或密码错误";

const UserLoginBodySchema = z.object({ username: z.string().min(1), password: z.string().min(1) });

/** The user account and authentication service (`/uaa`). */
export const uaaRoutes: FastifyPluginAsync = async (app) => {
  // OAuth2 password grant; answers in the OAuth2 shapes, not the envelope.
  app.post("/uaa/oauth/token", async (request, reply) => {
    const parsed = TokenRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const grantType = z.object({ grant_type: z.string() }).safeParse(request.body);
      const error: TokenError =
        grantType.success && grantType.data.grant_type !== "password"
          ? { error: "unsupported_grant_type", error_description: "不支持的授权类型" }
          : { error: "invalid_request", error_description: "请求参数错误" };
      return reply.code(400).send(error);
    }
    const grant = await throttledGrant(app, request, parsed.data.username, parsed.data.password);
    if ("waitUntil" in grant) {
      const error: TokenError = { error: "invalid_request", error_description: throttleMessage(grant.waitUntil) };
      return reply.code(429).send(error);
    }
    if (!grant.token) {
      const error: TokenError = { error: "invalid_grant", error_description: WRONG_CREDENTIALS };
      return reply.code(400).send(error);
    }
    return grant.token;
  });

  // The same grant for the console's login form, in the envelope.
  app.post("/uaa/oauth/user/login", async (request) => {
    const body = parseInput(UserLoginBodySchema, request.body);
    const grant = await throttledGrant(app, request, body.username, body.password);
    if ("waitUntil" in grant) throw new HttpError(429, throttleMessage(grant.waitUntil));
    if (!grant.token) throw new HttpError(400, WRONG_CREDENTIALS);
    return ok<TokenResponse>(grant.token);
  });

  // Token revocation (RFC 7009): the console's sign-out. Answers 200 whether or not the token was
  // live, so it tells nobody which tokens exist.
  app.post("/uaa/oauth/revoke", async (request) => {
    const body = parseInput(z.object({ token: z.string().min(1).max(512) }), request.body);
    await revokeAccessToken(app, body.token);
    return ok(null);
  });

  // The consoles' ear for revocations (client credential; decision 037): each revocation of any
  // platform process, live, as a `revocation` frame, so a console forgets the sessions and menus it
  // keeps. Nothing is replayed: a console trusts what it keeps only while this stream is open.
  app.get("/uaa/oauth/revocations", async (request, reply) => {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
    const stop = app.notifications.onRevocation((revocation) =>
      out.write(formatSse({ event: REVOCATION_EVENT, data: JSON.stringify(revocation) })),
    );
    const heartbeat = setInterval(() => out.write(formatSse({ event: HEARTBEAT_EVENT, data: "" })), HEARTBEAT_MS);
    // A draining platform ends it too (else it holds the drain to its deadline); the console
    // forgets what it keeps and opens it again on another process.
    const drain = () => {
      close();
      out.end();
    };
    app.readiness.streams.add(drain);
    const close = () => {
      clearInterval(heartbeat);
      stop();
      app.readiness.streams.delete(drain);
    };
    request.raw.on("close", close);
    // The first frame says the console hears from now on.
    out.write(formatSse({ event: HEARTBEAT_EVENT, data: "" }));
  });

  app.get("/uaa/oauth/user_auth", async (request) => {
    const { id, userName, realName, role, tenantId, tenantCode, customerId } = requireUser(request);
    return ok<UserAuth>({ id, userName, realName, role, tenantId, tenantCode, customerId });
  });
};

/** '登录失败次数过多，请在 14:05 后重试（约 12 分钟）', China Standard Time. */
export function throttleMessage(waitUntil: Date, now = new Date()): string {
  const minutes = Math.max(1, Math.ceil((waitUntil.getTime() - now.getTime()) / 60_000));
  return `登录失败次数过多，请在 ${cstClock(waitUntil)} 后重试（约 ${minutes} 分钟）`;
}

/** The password grant behind the sign-in throttle (repositories/sign-in-throttle.ts states the rule). */
async function throttledGrant(
  app: FastifyInstance,
  request: FastifyRequest,
  userName: string,
  password: string,
): Promise<{ waitUntil: Date } | { token: TokenResponse | null }> {
  const address = addressKey(clientAddressOf(request));
  const now = new Date();
  const ownTry = await recordSignInTry(app.db, userName, address, now);
  const waitUntil = await signInWaitUntil(app.db, userName, address, now, ownTry);
  if (waitUntil) {
    await forgetSignInTry(app.db, ownTry);
    signInThrottled.inc();
    request.log.warn({ event: "sign-in throttled" });
    return { waitUntil };
  }
  const token = await passwordGrant(app.db, userName, password);
  if (token) await clearSignInFailures(app.db, userName, address);
  else signInFailures.inc();
  request.log.info({ event: token ? "sign-in" : "sign-in refused" });
  return { token };
}

/** Checks a user name and password and issues a bearer token; null when either is wrong. */
async function passwordGrant(db: Db, userName: string, password: string): Promise<TokenResponse | null> {
  const credentials = await findCredentials(db, userName);
  // An unknown name still pays for one verification, so timing does not tell names apart.
  const valid = await verifyPassword(password, credentials?.passwordHash ?? (await decoyPasswordHash()));
  if (!credentials || !valid) return null;

  const now = new Date();
  const token = newAccessToken();
  await deleteExpiredAccessTokens(db, credentials.id, now);
  await insertAccessToken(db, {
    tokenHash: hashAccessToken(token),
    userId: credentials.id,
    tenantId: credentials.tenantId,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000),
  });
  return { access_token: token, token_type: "bearer", expires_in: TOKEN_TTL_SECONDS };
}
