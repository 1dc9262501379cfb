import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getUserAuth, requestToken } from "#app/services/uaa.server";
import { recordLoginInfo } from "#app/services/crm.server";
import { getAgentConfig } from "#app/services/config.server";
import { isUpstreamError, type Caller } from "#app/services/upstream.server";
import type { SignedIn } from "./session.server";

/** Wrong credentials, told apart from a platform that cannot be reached. */
export class SignInRefused extends Error {}

/**
 * Sign-in: the password grant, then who the token belongs to, the login data and the
 * agent config. The session keeps only what every page needs.
 */
export async function signIn(username: string, password: string): Promise<SignedIn> {
  let token;
  try {
    token = await requestToken(username, password);
  } catch (error) {
    if (isUpstreamError(error) && (error.init.status === 400 || error.init.status === 401)) {
      throw new SignInRefused("用户名或密码错误");
    }
    throw error;
  }
  const who = await getUserAuth(token.access_token);
  const caller: Caller = { token: token.access_token, customerId: who.customerId, userId: who.id };
  const [login, agent] = await Promise.all([recordLoginInfo(caller), getAgentConfig(caller, who.id)]);
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

export const authenticator = new Authenticator<SignedIn>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const username = String(form.get("username") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return signIn(username, password);
  }),
  "form",
);
