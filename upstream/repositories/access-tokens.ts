import type { Db } from "#upstream/db";
import type { AuthUser } from "./users";

export async function insertAccessToken(
  db: Db,
  token: { tokenHash: string; userId: number; tenantId: number; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("access_tokens")
    .values({ token_hash: token.tokenHash, user_id: token.userId, tenant_id: token.tenantId, expires_at: token.expiresAt })
    .execute();
}

/** Drops a user's expired tokens, so logging in again and again does not grow the table. */
export async function deleteExpiredAccessTokens(db: Db, userId: number, now: Date): Promise<void> {
  await db.deleteFrom("access_tokens").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
}

/** Deletes one token by its hash (use revokeAccessToken, which also forgets it). */
export async function deleteAccessToken(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom("access_tokens").where("token_hash", "=", tokenHash).execute();
}

/** Deletes every token of a user (use revokeUserTokens, which also forgets them). */
export async function deleteUserAccessTokens(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("access_tokens").where("user_id", "=", userId).execute();
}

/** Deletes every token of a user but one (the password change keeps the session it was made in). */
export async function deleteOtherUserAccessTokens(db: Db, userId: number, keepHash: string): Promise<void> {
  await db.deleteFrom("access_tokens").where("user_id", "=", userId).where("token_hash", "<>", keepHash).execute();
}

/** The user an unexpired token belongs to, with their tenant, and when the token expires; undefined for anything else. */
export async function findUserByAccessToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ user: AuthUser; expiresAt: Date } | undefined> {
  const row = await db
    .selectFrom("access_tokens as t")
    .innerJoin("users as u", (join) => join.onRef("u.id", "=", "t.user_id").onRef("u.tenant_id", "=", "t.tenant_id"))
    .innerJoin("tenants as tn", "tn.id", "u.tenant_id")
    .select([
      "u.id",
      "u.user_name",
      "u.real_name",
      "u.role",
      "u.work_type",
      "tn.id as tenant_id",
      "tn.code as tenant_code",
      "tn.customer_id",
      "t.expires_at",
    ])
    .where("t.token_hash", "=", tokenHash)
    .where("t.expires_at", ">", now)
    .executeTakeFirst();
  return (
    row && {
      expiresAt: row.expires_at,
      user: {
        id: row.id,
        userName: row.user_name,
        realName: row.real_name,
        role: row.role,
        workType: row.work_type,
        tenantId: row.tenant_id,
        tenantCode: row.tenant_code,
        customerId: row.customer_id,
      },
    }
  );
}
