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

/**
 * The address a failure counts against: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber holds a whole /64 and could otherwise try from a new address each time).
 */
export function addressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1];
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Counts a try before its password is checked, so a burst of parallel tries cannot all pass the
 * limit: each sees the others. `clearSignInFailures` takes it back on success, `forgetSignInTry`
 * when the try was refused without a check. Failures that left the window are dropped on the way.
 */
export async function recordSignInTry(db: Db, userName: string, address: string, now: Date): Promise<number> {
  const row = await db
    .insertInto("sign_in_failures")
    .values({ user_name: accountKey(userName), client_address: address, failed_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom("sign_in_failures")
    .where("failed_at", "<=", sql<Date>`${new Date(now.getTime() - WINDOW_MS)}`)
    .execute();
  return Number(row.id);
}

export async function forgetSignInTry(db: Db, id: number): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("id", "=", id).execute();
}

/** When this account may try again from this address, not counting the try `ownTry`; null when it may now. */
export async function signInWaitUntil(db: Db, userName: string, address: string, now: Date, ownTry: number): Promise<Date | null> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const [pair, fromAddress] = await Promise.all([
    db
      .selectFrom("sign_in_failures")
      .select("failed_at")
      .where("user_name", "=", accountKey(userName))
      .where("client_address", "=", address)
      .where("failed_at", ">", since)
      .where("id", "<>", ownTry)
      .orderBy("failed_at", "desc")
      .limit(PAIR_LIMIT)
      .execute(),
    db
      .selectFrom("sign_in_failures")
      .select("failed_at")
      .where("client_address", "=", address)
      .where("failed_at", ">", since)
      .where("id", "<>", ownTry)
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

export async function clearSignInFailures(db: Db, userName: string, address: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("user_name", "=", accountKey(userName)).where("client_address", "=", address).execute();
}
