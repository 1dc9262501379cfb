// Code tables of customers' properties, SMS and knowledge.
import type { CodeTable } from "./table";

/** A customer property's type: what its values may be (decision 020). */
export const CUSTOMER_PROPERTY_TYPES: CodeTable<"text" | "number" | "date" | "single" | "multi" | "phone"> = [
  { code: "text", label: "文本" },
  { code: "number", label: "数字" },
  { code: "date", label: "日期" },
  { code: "single", label: "单选" },
  { code: "multi", label: "多选" },
  { code: "phone", label: "手机号" },
];

/** Whether a customer property is in use (forms, lists, imports, SMS variables). */
export const CUSTOMER_PROPERTY_VALID: CodeTable<number> = [
  { code: 1, label: "有效", tone: "success" },
  { code: 0, label: "无效", tone: "none" },
];

/** An SMS template's review state: only an approved template is sent. */
export const SMS_TEMPLATE_STATES: CodeTable<"pending" | "approved" | "rejected"> = [
  { code: "pending", label: "待审核", tone: "warning" },
  { code: "approved", label: "已通过", tone: "success" },
  { code: "rejected", label: "未通过", tone: "danger" },
];

/**
 * The review as data: which state a template may go to from which, and by what. An edit sends any
 * template back to review; a rejection needs its reason.
 */
export const SMS_TEMPLATE_TRANSITIONS: ReadonlyArray<{
  from: "pending" | "approved" | "rejected";
  to: "pending" | "approved" | "rejected";
  by: "review" | "edit";
}> = [
  { from: "pending", to: "approved", by: "review" },
  { from: "pending", to: "rejected", by: "review" },
  { from: "approved", to: "pending", by: "edit" },
  { from: "rejected", to: "pending", by: "edit" },
  { from: "pending", to: "pending", by: "edit" },
];

/** A knowledge node's state: only enabled nodes reach the agents (lookup and quick replies). */
export const KNOWLEDGE_STATES: CodeTable<number> = [
  { code: 1, label: "启用", tone: "success" },
  { code: 0, label: "停用", tone: "none" },
];

/** An SMS in the outbox: queued, handed to the carrier, delivered to the phone, or failed (with a reason). */
export const SMS_STATUSES: CodeTable<string> = [
  { code: "queued", label: "待发送", tone: "info" },
  { code: "sent", label: "已发送", tone: "warning" },
  { code: "delivered", label: "已送达", tone: "success" },
  { code: "failed", label: "发送失败", tone: "danger" },
];

/** What an SMS is for: a verification code (sign-up, password reset) or a message a tenant sends. */
export const SMS_KINDS: CodeTable<string> = [
  { code: "code", label: "验证码" },
  { code: "message", label: "业务短信" },
];
