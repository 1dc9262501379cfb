import { z } from "zod";

/**
 * SMS length rules of the carriers (GSM 03.40 with UCS-2, as Chinese text is sent): one message
 * holds 70 characters; a longer text is split into parts of 67 (each part carries a header). The
 * signature (【签名】) travels with the text and counts. Characters are counted as code points, so
 * an emoji counts once, as a phone shows it.
 */
export const SMS_SINGLE_LIMIT = 70;
export const SMS_PART_LIMIT = 67;

export function smsLength(text: string, signature = ""): number {
  return [...`${signature ? `【${signature}】` : ""}${text}`].length;
}

export function smsSegments(text: string, signature = ""): number {
  const length = smsLength(text, signature);
  if (length === 0) return 0;
  return length <= SMS_SINGLE_LIMIT ? 1 : Math.ceil(length / SMS_PART_LIMIT);
}

/** One message of the outbox as the platform reports it. */
export const SmsMessageSchema = z.object({
  id: z.number().int().positive(),
  phone: z.string(),
  content: z.string(),
  signature: z.string(),
  /** SMS_KINDS */
  kind: z.string(),
  segments: z.number().int().nonnegative(),
  /** SMS_STATUSES */
  status: z.string(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type SmsMessage = z.infer<typeof SmsMessageSchema>;
