import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { CodePurpose } from "#contracts/account";
import type { Trx } from "#upstream/db";

/**
 * SMS verification codes (sign-up, password reset). The rules, per mobile number unless said:
 * - a code is 6 digits, valid CODE_TTL_MS, stored only as a salted hash;
 * - another code for the same purpose may be asked for RESEND_MS after the last; at most PHONE_HOURLY an hour and
 *   PHONE_DAILY a day; one client address asks at most ADDRESS_HOURLY an hour and ADDRESS_DAILY a day;
 * - asking again replaces the code but keeps its count of wrong tries;
 * - the MAX_WRONG_TRIES-th wrong try spends the code and locks the number for LOCK_MS (no code is
 *   sent to it and none is checked meanwhile);
 * - a right code is used once;
 * - a code goes by SMS or, once the number has had VOICE_AFTER_SMS codes by SMS for the purpose
 *   within a day, by a voice call; both count together for every limit above.
 * Callers run these inside a transaction: each takes an advisory lock on the number (and the
 * address), so parallel requests see each other's counts.
 */
export const CODE_TTL_MS = 5 * 60_000;
export const RESEND_MS = 60_000;
export const PHONE_HOURLY = 5;
export const PHONE_DAILY = 10;
export const ADDRESS_HOURLY = 20;
export const ADDRESS_DAILY = 50;
export const MAX_WRONG_TRIES = 5;
export const LOCK_MS = 30 * 60_000;
export const VOICE_AFTER_SMS = 2;

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export type SendRefusal =
  | { refused: "locked"; until: Date }
  | { refused: "tooSoon"; waitSeconds: number }
  | { refused: "phoneHourly" | "phoneDaily" | "addressHourly" | "addressDaily" };

export type CheckResult =
  | { ok: true }
  | { ok: false; refused: "locked"; until: Date }
  | { ok: false; refused: "expired" }
  | { ok: false; refused: "wrong"; triesLeft: number }
  | { ok: false; refused: "spent"; until: Date };

function hashCode(salt: string, phone: string, purpose: CodePurpose, code: string): string {
  return createHash("sha256").update(`${salt}:${phone}:${purpose}:${code}`).digest("hex");
}

async function lockKeys(db: Trx, ...keys: string[]): Promise<void> {
  for (const key of keys) await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}

/** Until when the number is locked by too many wrong codes; null when it is not. */
async function lockedUntil(db: Trx, phone: string, now: Date): Promise<Date | null> {
  const row = await db
    .selectFrom("verification_codes")
    .select("locked_until")
    .where("phone", "=", phone)
    .where("locked_until", ">", now)
    .orderBy("locked_until", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.locked_until ?? null;
}

async function countSince(db: Trx, column: "phone" | "client_address", value: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom("verification_codes")
    .select(sql<number>`count(*)`.as("n"))
    .where(column, "=", value)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The number's current code for a purpose: the newest one not yet closed. */
async function openCode(db: Trx, phone: string, purpose: CodePurpose) {
  return db
    .selectFrom("verification_codes")
    .select(["id", "code_hash", "salt", "failed_tries", "expires_at"])
    .where("phone", "=", phone)
    .where("purpose", "=", purpose)
    .where("closed_at", "is", null)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Issues a new code for a number, or says which limit refuses it. The caller delivers the code
 * (or, for a password reset of an unknown number, delivers nothing and answers the same).
 */
export async function issueCode(
  db: Trx,
  request: { phone: string; purpose: CodePurpose; address: string; now: Date; channel?: "sms" | "voice" },
): Promise<{ code: string } | SendRefusal> {
  const { phone, purpose, address, now, channel = "sms" } = request;
  await lockKeys(db, `verification-phone:${phone}`, `verification-address:${address}`);
  const locked = await lockedUntil(db, phone, now);
  if (locked) return { refused: "locked", until: locked };

  const last = await db
    .selectFrom("verification_codes")
    .select("created_at")
    .where("phone", "=", phone)
    .where("purpose", "=", purpose)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last && now.getTime() - last.created_at.getTime() < RESEND_MS) {
    return { refused: "tooSoon", waitSeconds: Math.ceil((last.created_at.getTime() + RESEND_MS - now.getTime()) / 1000) };
  }
  if ((await countSince(db, "phone", phone, new Date(now.getTime() - HOUR_MS))) >= PHONE_HOURLY) return { refused: "phoneHourly" };
  if ((await countSince(db, "phone", phone, new Date(now.getTime() - DAY_MS))) >= PHONE_DAILY) return { refused: "phoneDaily" };
  if ((await countSince(db, "client_address", address, new Date(now.getTime() - HOUR_MS))) >= ADDRESS_HOURLY) {
    return { refused: "addressHourly" };
  }
  if ((await countSince(db, "client_address", address, new Date(now.getTime() - DAY_MS))) >= ADDRESS_DAILY) {
    return { refused: "addressDaily" };
  }

  // Asking again replaces the code, and its wrong tries carry over.
  const previous = await openCode(db, phone, purpose);
  if (previous) await db.updateTable("verification_codes").set({ closed_at: now }).where("id", "=", previous.id).execute();

  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const salt = randomBytes(16).toString("base64url");
  await db
    .insertInto("verification_codes")
    .values({
      phone,
      purpose,
      client_address: address,
      code_hash: hashCode(salt, phone, purpose, code),
      salt,
      failed_tries: previous?.failed_tries ?? 0,
      channel,
      created_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
    })
    .execute();
  return { code };
}

/** Whether the number may have its code by a voice call: it has had VOICE_AFTER_SMS by SMS today. */
export async function voiceOffered(db: Trx, request: { phone: string; purpose: CodePurpose; now: Date }): Promise<boolean> {
  const row = await db
    .selectFrom("verification_codes")
    .select(sql<number>`count(*)`.as("n"))
    .where("phone", "=", request.phone)
    .where("purpose", "=", request.purpose)
    .where("channel", "=", "sms")
    .where("created_at", ">", new Date(request.now.getTime() - DAY_MS))
    .executeTakeFirstOrThrow();
  return Number(row.n) >= VOICE_AFTER_SMS;
}

/**
 * Checks a code and, when right, uses it up. A wrong try is counted even when the caller's
 * change fails later, so callers commit the transaction before reporting the refusal.
 */
export async function useCode(db: Trx, request: { phone: string; purpose: CodePurpose; code: string; now: Date }): Promise<CheckResult> {
  const { phone, purpose, code, now } = request;
  await lockKeys(db, `verification-phone:${phone}`);
  const locked = await lockedUntil(db, phone, now);
  if (locked) return { ok: false, refused: "locked", until: locked };
  const current = await openCode(db, phone, purpose);
  if (!current || current.expires_at.getTime() <= now.getTime()) return { ok: false, refused: "expired" };

  const right = timingSafeEqual(Buffer.from(hashCode(current.salt, phone, purpose, code)), Buffer.from(current.code_hash));
  if (right) {
    await db.updateTable("verification_codes").set({ closed_at: now }).where("id", "=", current.id).execute();
    return { ok: true };
  }
  const tries = current.failed_tries + 1;
  if (tries >= MAX_WRONG_TRIES) {
    const until = new Date(now.getTime() + LOCK_MS);
    await db
      .updateTable("verification_codes")
      .set({ failed_tries: tries, closed_at: now, locked_until: until })
      .where("id", "=", current.id)
      .execute();
    return { ok: false, refused: "spent", until };
  }
  await db.updateTable("verification_codes").set({ failed_tries: tries }).where("id", "=", current.id).execute();
  return { ok: false, refused: "wrong", triesLeft: MAX_WRONG_TRIES - tries };
}
