import { z } from "zod";
import { envelope } from "./envelope";

/** POST /uaa/oauth/token — form body grant_type=password, username, password; Basic client credential. */
export const TokenRequestSchema = z.object({
  grant_type: z.literal("password"),
  username: z.string().min(1),
  password: z.string().min(1),
});
/** Standard OAuth2 shape (endpoints.md), not the envelope. */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
});
/** OAuth2 error body (RFC 6749 §5.2) answered with 400 (bad grant) or 401 (bad client). */
export const TokenErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** POST /uaa/oauth/user/login — form body username, password; same grant, enveloped. */
export const UserLoginResponseSchema = envelope(TokenResponseSchema);

export const RoleSchema = z.enum(["admin", "supervisor", "agent"]);
export type Role = z.infer<typeof RoleSchema>;

/** GET /uaa/oauth/user_auth — who the bearer token belongs to. */
export const UserAuthSchema = z.object({
  id: z.number().int(),
  userName: z.string(),
  realName: z.string(),
  role: RoleSchema,
  tenantId: z.number().int(),
  tenantCode: z.string(),
  customerId: z.string(),
});
export type UserAuth = z.infer<typeof UserAuthSchema>;
export const UserAuthResponseSchema = envelope(UserAuthSchema);

/**
 * What a revocation ends, as every platform process and the consoles hear it (decision 037): one
 * session (its token's sha256), every session of a user but the one kept (a password change keeps
 * the changer's), or only what is kept of an account whose sessions go on (its configuration
 * changed). `everything`: what was heard may be incomplete (a listener reconnected): forget all.
 */
export const RevocationSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("token"), tokenHash: z.string() }),
  z.object({ kind: z.literal("user"), userId: z.number().int(), keepTokenHash: z.string().optional() }),
  z.object({ kind: z.literal("account"), userId: z.number().int() }),
  z.object({ kind: z.literal("everything") }),
]);
export type Revocation = z.infer<typeof RevocationSchema>;
/** The frame of GET /uaa/oauth/revocations that carries one (the others are heartbeats). */
export const REVOCATION_EVENT = "revocation";
