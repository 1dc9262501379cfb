import { sql } from "kysely";
import type { Db } from "#upstream/db";

/**
 * The sign-in throttle, in the database so that every console instance counts the same failures.
 * The rule: at most PAIR_LIMIT failed sign-ins per account *and client address* in WINDOW_MS, then
 * that account waits at that address; at most ADDRESS_LIMIT failures from one address over all
 * accounts (password spraying), then that address waits. An attacker elsewhere therefore never
 * locks a user out of their own address; a success clears the account's failures at the address.
 */
export const WINDOW_MS = 15 * 60_000;
export const PAIR_LIMIT = 10;
export const ADDRESS_LIMIT = 100;

const accountKey = (userName: string) => userName.trim().toLowerCase();

/** When this account may try again from this address; null when it may now. */
export async function signInWaitUntil(db: Db, userName: string, address: string, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const [pair, fromAddress] = await Promise.all([
    db
      .selectFrom("sign_in_failures")
      .select("failed_at")
      .where("user_name", "=", accountKey(userName))
      .where("client_address", "=", address)
      .where("failed_at", ">", since)
      .orderBy("failed_at", "desc")
      .limit(PAIR_LIMIT)
      .execute(),
    db
      .selectFrom("sign_in_failures")
      .select("failed_at")
      .where("client_address", "=", address)
      .where("failed_at", ">", since)
      .orderBy("failed_at", "desc")
      .offset(ADDRESS_LIMIT - 1)
      .limit(1)
      .executeTakeFirst(),
  ]);
  const waits: number[] = [];
  // The oldest of the last PAIR_LIMIT failures leaves the window: one more try is allowed.
  if (pair.length >= PAIR_LIMIT) waits.push(pair[PAIR_LIMIT - 1].failed_at.getTime() + WINDOW_MS);
  if (fromAddress) waits.push(fromAddress.failed_at.getTime() + WINDOW_MS);
  return waits.length > 0 ? new Date(Math.max(...waits)) : null;
}

/** Counts a failure; failures that left the window are dropped on the way, so the table stays small. */
export async function recordSignInFailure(db: Db, userName: string, address: string, now: Date): Promise<void> {
  await db
    .insertInto("sign_in_failures")
    .values({ user_name: accountKey(userName), client_address: address, failed_at: now })
    .execute();
  await db
    .deleteFrom("sign_in_failures")
    .where("failed_at", "<=", sql<Date>`${new Date(now.getTime() - WINDOW_MS)}`)
    .execute();
}

export async function clearSignInFailures(db: Db, userName: string, address: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("user_name", "=", accountKey(userName)).where("client_address", "=", address).execute();
}
