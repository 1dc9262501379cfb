import { createHash, randomBytes } from "node:crypto";

/** Spec §7: the console keeps the token for 7 days; the platform honours it as long. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A new bearer token: 32 random bytes, base64url. Only its hash is stored. */
export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The stored form of a token: sha256, hex. A leaked table does not yield usable tokens. */
export function hashAccessToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
