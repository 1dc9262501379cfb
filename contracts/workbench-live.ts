/**
 * What the two workbenches' islands use of the contracts apart from their schemas (contracts/cti.ts,
 * chat.ts and workbench.ts re-export or use them): an island importing a module that builds schemas
 * loads zod with it, so the islands import this one and take their stream's payloads and their
 * actions' answers as the console checked them (decisions 049 and 054).
 */

/** Event types on the bus: the whole phone state after each change, and live transcript lines. */
export const CTI_EVENTS = { state: "cti.state", asr: "cti.asr", supervisor: "cti.supervisor" } as const;

/** Mainland mobile (optional +86/0086) or a landline with area code; what the dial pad accepts. */
export const DIALABLE_PHONE = /^(?:(?:\+|00)86)?1[3-9]\d{9}$|^0\d{2,3}-?\d{7,8}$/;

/** Business fields the conclusion form carries besides result, intent and remark (ours). */
export const BUSINESS_FIELDS = [
  { name: "businessType", label: "业务类型" },
  { name: "callbackDate", label: "回访日期" },
] as const;

/**
 * The `chat.*` events the platform publishes to the assigned agent (through /events/api/stream):
 * a session added to the agent, dialogs appended to one, and one leaving the agent's list.
 */
export const CHAT_EVENT = {
  add: "chat.session.add",
  update: "chat.session.update",
  close: "chat.session.close",
  supervisor: "chat.supervisor",
} as const;

/** Spec §4 bad input: a message is 1 to 2000 characters. */
export const MAX_MESSAGE_LENGTH = 2000;
export const MESSAGE_EMPTY = "请输入消息内容";
export const MESSAGE_TOO_LONG = `消息不能超过${MAX_MESSAGE_LENGTH}个字符`;
