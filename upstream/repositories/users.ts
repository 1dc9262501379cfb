import type { z } from "zod";
import type { UserSummarySchema } from "#contracts/crm";
import type { UserAuth } from "#contracts/uaa";
import type { Db, Trx } from "#upstream/db";
import type { NewUser, User } from "#upstream/db/schema";

/** A database or a transaction on it (as repositories/dialing.ts, without importing it: no cycle). */
/** Who a request acts as: the contract's UserAuth plus what menus and scoping need. */
export type AuthUser = UserAuth & { workType: number };

/** A user row without its password hash; every read that leaves this module uses it. */
export type UserRecord = Omit<User, "password_hash">;
const recordColumns = [
  "id",
  "tenant_id",
  "user_name",
  "real_name",
  "role",
  "work_type",
  "agent_id",
  "default_queue_name",
  "auto_answer",
  "agent_state",
  "last_login_at",
  "created_at",
  "mobile",
] as const satisfies readonly (keyof UserRecord)[];

/** The only read that returns a password hash: the login lookup (user names are global). */
export async function findCredentials(
  db: Db,
  userName: string,
): Promise<{ id: number; tenantId: number; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom("users")
    .select(["id", "tenant_id", "password_hash"])
    .where("user_name", "=", userName)
    .executeTakeFirst();
  return row && { id: row.id, tenantId: row.tenant_id, passwordHash: row.password_hash };
}

export async function findUserInTenant(db: Db, tenantId: number, userId: number): Promise<UserRecord | undefined> {
  return db.selectFrom("users").select(recordColumns).where("tenant_id", "=", tenantId).where("id", "=", userId).executeTakeFirst();
}

/** A user of the tenant by login name (the simulator's direct line names its agent so). */
export async function findUserIdByName(db: Db, tenantId: number, userName: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("user_name", "=", userName)
    .executeTakeFirst();
  return row?.id;
}

type UserSummary = z.infer<typeof UserSummarySchema>;

export async function listUsers(
  db: Db,
  tenantId: number,
  { pageNo, pageSize }: { pageNo: number; pageSize: number },
): Promise<{ list: UserSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "user_name", "real_name", "role", "work_type"])
      .where("tenant_id", "=", tenantId)
      .orderBy("id")
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute(),
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .where("tenant_id", "=", tenantId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({
      id: row.id,
      userName: row.user_name,
      realName: row.real_name,
      role: row.role,
      workType: row.work_type,
    })),
    total: Number(count.total),
  };
}

/** Stamps the login time and returns the account's agent state and default queue. */
export async function recordLogin(
  db: Db,
  tenantId: number,
  userId: number,
  at: Date,
): Promise<Pick<UserRecord, "id" | "user_name" | "agent_state" | "default_queue_name"> | undefined> {
  return db
    .updateTable("users")
    .set({ last_login_at: at })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", userId)
    .returning(["id", "user_name", "agent_state", "default_queue_name"])
    .executeTakeFirst();
}

export async function insertUser(db: Trx, user: NewUser): Promise<number> {
  const { id } = await db.insertInto("users").values(user).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** The account a mobile number belongs to (sign-up accounts; a password reset looks it up). */
export async function findUserByMobile(
  db: Trx,
  mobile: string,
): Promise<{ id: number; tenantId: number; userName: string; realName: string } | undefined> {
  const row = await db
    .selectFrom("users")
    .select(["id", "tenant_id", "user_name", "real_name"])
    .where("mobile", "=", mobile)
    .executeTakeFirst();
  return row && { id: row.id, tenantId: row.tenant_id, userName: row.user_name, realName: row.real_name };
}

/** Whether a user name is taken (user names are global: the login form has no tenant). */
export async function userNameTaken(db: Trx, userName: string): Promise<boolean> {
  return (await db.selectFrom("users").select("id").where("user_name", "=", userName).executeTakeFirst()) !== undefined;
}

/** The password hash of one of a tenant's users (the password change checks the current one). */
export async function findPasswordHash(db: Db, tenantId: number, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom("users")
    .select("password_hash")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.password_hash;
}

export async function setPasswordHash(db: Trx, tenantId: number, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable("users").set({ password_hash: passwordHash }).where("tenant_id", "=", tenantId).where("id", "=", userId).execute();
}
