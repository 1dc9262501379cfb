import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getUserAuth, requestToken } from "#app/services/uaa.server";
import { recordLoginInfo } from "#app/services/crm.server";
import { getAgentConfig } from "#app/services/config.server";
import { isUpstreamError, type Caller } from "#app/services/upstream.server";
import { log, signInFailures, withRequest } from "#app/services/observability.server";
import type { SignedIn } from "./session.server";

/** Wrong credentials (401) or too many failed tries (429), told apart from a platform that cannot be reached. */
export class SignInRefused extends Error {
  constructor(
    message: string,
    readonly status: 401 | 429 = 401,
  ) {
    super(message);
  }
}

/**
 * Sign-in: the password grant, then who the token belongs to, the login data and the
 * agent config. The session keeps only what every page needs.
 */
export async function signIn(username: string, password: string, clientAddress: string | null): Promise<SignedIn> {
  let token;
  try {
    token = await requestToken(username, password, clientAddress);
  } catch (error) {
    const status = isUpstreamError(error) ? error.init.status : 0;
    const reason = status === 400 || status === 401 ? "credentials" : status === 429 ? "throttled" : "unavailable";
    signInFailures.inc({ reason });
    log.warn(withRequest({ event: "sign-in refused", reason, status }));
    if (reason === "credentials") throw new SignInRefused("用户名或密码错误");
    // The platform's throttle says until when (the message without the transport's "登录失败：").
    if (reason === "throttled" && isUpstreamError(error)) throw new SignInRefused(error.data.message.replace(/^登录失败：/, ""), 429);
    throw error;
  }
  const who = await getUserAuth(token.access_token);
  const caller: Caller = { token: token.access_token, customerId: who.customerId, userId: who.id };
  const [login, agent] = await Promise.all([recordLoginInfo(caller), getAgentConfig(caller, who.id)]);
  log.info(withRequest({ event: "sign-in", userId: who.id, tenantId: who.tenantId }));
  return {
    token: token.access_token,
    expiresAt: Date.now() + token.expires_in * 1000,
    user: {
      id: who.id,
      userName: who.userName,
      realName: who.realName,
      role: who.role,
      tenantId: who.tenantId,
      tenantCode: who.tenantCode,
      customerId: who.customerId,
      workType: agent.workType,
      agentId: agent.agentId,
      defaultQueueName: agent.defaultQueueName,
      agentState: login.agentState,
      queueName: login.queueName,
    },
  };
}

/** The browser's address, set by server.mjs from the socket (any such header a browser sends is replaced). */
export const CLIENT_ADDRESS_HEADER = "X-Client-Address";

export const authenticator = new Authenticator<SignedIn>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const username = String(form.get("username") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return signIn(username, password, request.headers.get(CLIENT_ADDRESS_HEADER));
  }),
  "form",
);
