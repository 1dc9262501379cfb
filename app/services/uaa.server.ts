import { z } from "zod";
import { createSseParser } from "#contracts/events";
import { REVOCATION_EVENT, RevocationSchema, TokenResponseSchema, UserAuthResponseSchema, type Revocation } from "#contracts/uaa";
import { call, requireData, send } from "./upstream.server";

/** POST /uaa/oauth/token — the password grant, with the fixed client credential (spec §7). */
export async function requestToken(username: string, password: string, clientAddress: string | null) {
  return call({
    method: "POST",
    path: "/uaa/oauth/token",
    form: { grant_type: "password", username, password },
    // The platform throttles failed sign-ins per account and browser address.
    headers: clientAddress ? { "X-Client-Address": clientAddress } : undefined,
    schema: TokenResponseSchema,
    what: "登录",
    caller: null,
  });
}

/**
 * GET /uaa/oauth/user_auth — whose token this is. Paths under /uaa/oauth carry the client
 * credential, not the user's bearer (spec §7), so the token travels as `access_token`, as in
 * an OAuth2 token check.
 */
export async function getUserAuth(token: string) {
  const answer = await call({
    path: "/uaa/oauth/user_auth",
    query: { access_token: token },
    schema: UserAuthResponseSchema,
    what: "获取用户信息",
    caller: null,
  });
  return requireData(answer, "获取用户信息");
}

/** POST /uaa/oauth/revoke — ends a session at the platform (RFC 7009), so a copied cookie stops working. */
export async function revokeToken(token: string) {
  await call({ method: "POST", path: "/uaa/oauth/revoke", form: { token }, schema: z.unknown(), what: "退出登录", caller: null });
}

/**
 * GET /uaa/oauth/revocations — every session ended at any platform process, live (decision 037).
 * `onOpen` is called once the platform answered: from then on nothing ended is missed until the
 * stream ends.
 */
export async function* streamRevocations(onOpen: () => void): AsyncGenerator<Revocation> {
  const response = await send({ path: "/uaa/oauth/revocations", what: "登录状态同步", caller: null, longLived: true });
  onOpen();
  const parse = createSseParser();
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      for (const frame of parse(decoder.decode(chunk as Uint8Array, { stream: true }))) {
        if (frame.event !== REVOCATION_EVENT) continue;
        const revocation = RevocationSchema.safeParse(JSON.parse(frame.data));
        if (revocation.success) yield revocation.data;
      }
    }
  } finally {
    response.body.destroy();
  }
}
