import { smsSegments, type SmsMessage } from "#contracts/sms";
import type { Db, Trx } from "#upstream/db";
import { keysetPage, type KeysetRequest } from "./keyset";

export type SmsToSend = {
  /** Null for a verification code of a sign-up (no tenant exists yet). */
  tenantId: number | null;
  phone: string;
  content: string;
  signature?: string;
  /** A verification code by SMS, the same read out by a voice call (the carrier simulator moves both), or a tenant's message. */
  kind: "code" | "voice_code" | "message";
  createdBy?: number | null;
  /** The template a tenant's message was written from. */
  templateId?: number | null;
};

/** Puts a message in the outbox for the carrier; answers its id. Nothing is ever sent silently. */
export async function queueSms(db: Trx, message: SmsToSend): Promise<number> {
  const signature = message.signature ?? "";
  const row = await db
    .insertInto("sms_messages")
    .values({
      tenant_id: message.tenantId,
      phone: message.phone,
      content: message.content,
      signature,
      kind: message.kind,
      segments: smsSegments(message.content, signature),
      created_by: message.createdBy ?? null,
      template_id: message.templateId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const columns = [
  "id",
  "phone",
  "content",
  "signature",
  "kind",
  "segments",
  "status",
  "failure_reason",
  "created_at",
  "sent_at",
  "delivered_at",
] as const;

type Row = {
  id: number | string;
  phone: string;
  content: string;
  signature: string;
  kind: string;
  segments: number;
  status: string;
  failure_reason: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
};

export const toSmsMessage = (row: Row): SmsMessage => ({
  id: Number(row.id),
  phone: row.phone,
  content: row.content,
  signature: row.signature,
  kind: row.kind,
  segments: row.segments,
  status: row.status,
  failureReason: row.failure_reason,
  createdAt: row.created_at.toISOString(),
  sentAt: row.sent_at?.toISOString() ?? null,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
});

/**
 * A page of an outbox, newest first: a tenant's messages, or (tenantId null) the codes sent to
 * people who have no tenant yet; optionally one phone's.
 */
export async function listOutbox(db: Db, filter: KeysetRequest & { tenantId: number | null; phone?: string; status?: string }) {
  let base = db.selectFrom("sms_messages");
  base = filter.tenantId === null ? base.where("tenant_id", "is", null) : base.where("tenant_id", "=", filter.tenantId);
  if (filter.phone) base = base.where("phone", "=", filter.phone);
  if (filter.status) base = base.where("status", "=", filter.status as SmsMessage["status"] & ("queued" | "sent" | "delivered" | "failed"));
  const page = await keysetPage(db, base, (q) => q.select(columns), "sms_messages.id", filter);
  return { ...page, list: page.list.map((row) => toSmsMessage(row as Row)) };
}

/** The messages the carrier still has to move, oldest first. */
export async function pendingSms(db: Db, limit = 200) {
  return db
    .selectFrom("sms_messages")
    .select(["id", "phone", "status", "created_at", "sent_at"])
    .where("status", "in", ["queued", "sent"])
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function markSms(
  db: Db,
  id: number,
  from: "queued" | "sent",
  change: { status: "sent" } | { status: "delivered" } | { status: "failed"; reason: string },
  at: Date,
): Promise<void> {
  await db
    .updateTable("sms_messages")
    .set({
      status: change.status,
      ...(change.status === "sent" ? { sent_at: at } : {}),
      ...(change.status === "delivered" ? { delivered_at: at } : {}),
      ...(change.status === "failed" ? { failure_reason: change.reason } : {}),
    })
    .where("id", "=", id)
    .where("status", "=", from)
    .execute();
}

/** The verification codes sent to a number, newest first (the simulator shows them as the phone would). */
export async function codesSentTo(db: Db, phone: string, limit = 20) {
  return db
    .selectFrom("sms_messages")
    .select(["content", "kind", "created_at"])
    .where("phone", "=", phone)
    .where("kind", "in", ["code", "voice_code"])
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
