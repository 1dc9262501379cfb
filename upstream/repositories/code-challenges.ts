import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { Db, Trx } from "#upstream/db";
import { newChallengePicture } from "#upstream/domain/code-challenge";

/**
 * Picture challenges (decision 024): every code request answers one first. A challenge is valid
 * CHALLENGE_TTL_MS, its answer is stored only as a hash salted by its random id, and its first
 * answer, right or wrong, uses it up. One client address gets at most ADDRESS_CHALLENGES_HOURLY
 * new pictures an hour (each page of the sign-up and reset forms shows a fresh one).
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const ADDRESS_CHALLENGES_HOURLY = 120;
const HOUR_MS = 60 * 60_000;

export type ChallengeRefusal = "missing" | "wrong" | "expired";

const hashAnswer = (id: string, answer: string) => createHash("sha256").update(`${id}:${answer}`).digest("hex");

/** A new challenge, or null when the address has asked for too many this hour. */
export async function createChallenge(
  db: Db,
  request: { address: string; now: Date },
): Promise<{ id: string; answer: string; svg: string } | null> {
  const { address, now } = request;
  const recent = await db
    .selectFrom("code_challenges")
    .select(sql<number>`count(*)`.as("n"))
    .where("client_address", "=", address)
    .where("created_at", ">", new Date(now.getTime() - HOUR_MS))
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= ADDRESS_CHALLENGES_HOURLY) return null;
  // Challenges are worthless once expired, and the hourly count above looks back one hour only.
  await db
    .deleteFrom("code_challenges")
    .where("expires_at", "<", new Date(now.getTime() - HOUR_MS))
    .execute();
  const id = randomBytes(18).toString("base64url");
  const { answer, svg } = newChallengePicture();
  await db
    .insertInto("code_challenges")
    .values({
      id,
      answer_hash: hashAnswer(id, answer),
      client_address: address,
      created_at: now,
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
    })
    .execute();
  return { id, answer, svg };
}

/** Answers a challenge and uses it up; null when the answer is right. */
export async function answerChallenge(
  db: Trx,
  request: { id: string | undefined; answer: string | undefined; now: Date },
): Promise<ChallengeRefusal | null> {
  const { id, now } = request;
  const answer = request.answer?.trim() ?? "";
  if (!id || !answer) return "missing";
  const row = await db
    .updateTable("code_challenges")
    .set({ used_at: now })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .returning(["answer_hash", "expires_at"])
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= now.getTime()) return "expired";
  const right = timingSafeEqual(Buffer.from(hashAnswer(id, answer)), Buffer.from(row.answer_hash));
  return right ? null : "wrong";
}
