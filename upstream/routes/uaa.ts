import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { TokenRequestSchema, type TokenErrorSchema, type TokenResponseSchema, type UserAuth } from "#contracts/uaa";
import type { Db } from "#upstream/db";
import { decoyPasswordHash, verifyPassword } from "#upstream/domain/passwords";
import { TOKEN_TTL_SECONDS, hashAccessToken, newAccessToken } from "#upstream/domain/tokens";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { deleteExpiredAccessTokens, insertAccessToken } from "#upstream/repositories/access-tokens";
import { findCredentials } from "#upstream/repositories/users";

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
    const token = await passwordGrant(app.db, parsed.data.username, parsed.data.password);
    if (!token) {
      const error: TokenError = { error: "invalid_grant", error_description: WRONG_CREDENTIALS };
      return reply.code(400).send(error);
    }
    return token;
  });

  // The same grant for the console's login form, in the envelope.
  app.post("/uaa/oauth/user/login", async (request) => {
    const body = parseInput(UserLoginBodySchema, request.body);
    const token = await passwordGrant(app.db, body.username, body.password);
    if (!token) throw new HttpError(400, WRONG_CREDENTIALS);
    return ok<TokenResponse>(token);
  });

  app.get("/uaa/oauth/user_auth", async (request) => {
    const { id, userName, realName, role, tenantId, tenantCode, customerId } = requireUser(request);
    return ok<UserAuth>({ id, userName, realName, role, tenantId, tenantCode, customerId });
  });
};

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
