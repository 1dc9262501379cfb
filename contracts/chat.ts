import { z } from "zod";
import { envelope, page, PaginationSchema } from "./envelope";
import { CHAT_EVENT, MAX_MESSAGE_LENGTH, MESSAGE_EMPTY, MESSAGE_TOO_LONG } from "./workbench-live";

/**
 * The chat service (`/chat`, spec §7 "Chat"; decision 008 for the paths spec.md does not list).
 * A session is one customer's conversation in a queue, assigned to one text agent; its dialogs
 * are the lines said in it, by the user (the customer) or the agent.
 */

/** Spec §3: a session's role is "user" or other; we name the others. */
export const ChatRoleSchema = z.enum(["user", "agent", "system"]);
export type ChatRole = z.infer<typeof ChatRoleSchema>;

/** waiting: in the queue, nobody joined; active: an agent serves it; closed: recorded, read-only. */
export const ChatStateSchema = z.enum(["waiting", "active", "closed"]);
export type ChatState = z.infer<typeof ChatStateSchema>;

export const ChatDialogSchema = z.object({
  id: z.string(),
  role: ChatRoleSchema,
  content: z.string(),
  at: z.string(),
  /** The sender's own id for an agent message: a resend with it is stored once. */
  clientId: z.string().nullish(),
});
export type ChatDialog = z.infer<typeof ChatDialogSchema>;

/** The customer's contact card. */
export const ChatCustomerSchema = z.object({
  name: z.string(),
  phone: z.string(),
  channel: z.string(),
  region: z.string(),
});
export type ChatCustomer = z.infer<typeof ChatCustomerSchema>;

export const ChatSessionSummarySchema = z.object({
  sessionId: z.string(),
  state: ChatStateSchema,
  queueName: z.string(),
  agentName: z.string().nullable(),
  customer: ChatCustomerSchema,
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  messageCount: z.number().int().nonnegative(),
  lastMessage: z.string().nullable(),
});
export type ChatSessionSummary = z.infer<typeof ChatSessionSummarySchema>;

export const ChatBusinessRecordSchema = z.object({
  sessionId: z.string(),
  category: z.string(),
  result: z.number().int(),
  remark: z.string(),
  updatedAt: z.string(),
  agentName: z.string().nullable(),
  customerName: z.string(),
});
export type ChatBusinessRecord = z.infer<typeof ChatBusinessRecordSchema>;

export const ChatSessionSchema = ChatSessionSummarySchema.extend({
  dialogs: z.array(ChatDialogSchema),
  businessRecord: ChatBusinessRecordSchema.nullable(),
  /** The work order made from this chat, if any (decision 026). */
  workOrder: z.object({ id: z.number().int(), number: z.string(), title: z.string(), content: z.string() }).nullable().default(null),
});
export type ChatSession = z.infer<typeof ChatSessionSchema>;

/** GET /chat/api/sessions — repeat-style query: `state=active&state=waiting`. */
export const ChatSessionQuerySchema = PaginationSchema.extend({
  state: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(ChatStateSchema)),
  keyword: z.string().trim().max(50).optional(),
});
/** What the console asks for (states repeat in the query). */
export type ChatSessionQuery = { state?: ChatState[]; keyword?: string; pageNo?: number; pageSize?: number };
export const ChatSessionPageResponseSchema = envelope(page(ChatSessionSummarySchema));
export const ChatSessionResponseSchema = envelope(ChatSessionSchema);

/** POST /chat/api/sessions/{id}/messages — the agent says something (decision 008). */
export const ChatMessageInputSchema = z.object({
  content: z
    .string({ required_error: MESSAGE_EMPTY })
    .refine((text) => text.trim().length > 0, MESSAGE_EMPTY)
    .refine((text) => text.length <= MAX_MESSAGE_LENGTH, MESSAGE_TOO_LONG),
  clientId: z.string().min(1).max(64).optional(),
});
export const ChatDialogResponseSchema = envelope(ChatDialogSchema);

/** Business record of a session (PUT /chat/text/business/record). Categories are ours (spec: not shown). */
export const ChatBusinessRecordInputSchema = z.object({
  sessionId: z.string().min(1),
  category: z.string().min(1, "请选择业务类型"),
  result: z.coerce.number().int().min(0).max(2),
  remark: z.string().max(500, "备注不能超过500个字符").default(""),
});
export const ChatBusinessRecordResponseSchema = envelope(ChatBusinessRecordSchema);
export const ChatBusinessRecordQuerySchema = PaginationSchema.extend({ keyword: z.string().trim().max(50).optional() });
export const ChatBusinessRecordPageResponseSchema = envelope(page(ChatBusinessRecordSchema));

/** GET /chat/api/quick-replies — enabled knowledge nodes, most used first (decision 008). */
export const QuickReplySchema = z.object({ id: z.number().int(), title: z.string(), content: z.string() });
export type QuickReply = z.infer<typeof QuickReplySchema>;
export const QuickReplyListResponseSchema = envelope(z.object({ list: z.array(QuickReplySchema) }));

/** The `chat.*` events' payloads (CHAT_EVENT), checked by the console before it relays them. */
export { CHAT_EVENT };
export const ChatAddPayloadSchema = z.object({ session: ChatSessionSchema });
export type ChatAddPayload = z.infer<typeof ChatAddPayloadSchema>;
export const ChatUpdatePayloadSchema = z.object({ sessionId: z.string(), role: ChatRoleSchema, dialogs: z.array(ChatDialogSchema) });
export type ChatUpdatePayload = z.infer<typeof ChatUpdatePayloadSchema>;
export const ChatClosePayloadSchema = z.object({ sessionId: z.string() });
export type ChatClosePayload = z.infer<typeof ChatClosePayloadSchema>;

/** Simulator control (only when the platform runs with SIMULATOR_CONTROL=1): a customer arrives or writes. */
export const SimulatedCustomerInputSchema = z.object({
  queueName: z.string().min(1).optional(),
  customer: ChatCustomerSchema.partial().optional(),
  content: z.string().min(1).max(MAX_MESSAGE_LENGTH).optional(),
});
export const SimulatedMessageInputSchema = z.object({ content: z.string().min(1).max(MAX_MESSAGE_LENGTH) });
