import { z } from "zod";
import { CUSTOMER_PROPERTY_TYPES, SMS_TEMPLATE_STATES, codesOf } from "./codes";
import { envelope, page, PaginationSchema } from "./envelope";
import { normaliseMobile } from "./outbound";
import { SmsMessageSchema, smsLength, smsSegments } from "./sms";

/**
 * Customers (decision 020): the tenant's custom properties (`/crm_v2/customer/property`),
 * contacts with their values (`/crm_v2/contacts/v1`), groups (`/crm_v2/groups/v1`) and SMS
 * templates and sending (`/sms/api/sms/…`, `/msg/api/sms/send`).
 */

export const PROPERTY_NAME_MAX = 20;
export const PROPERTY_OPTIONS_MAX = 50;
export const PROPERTY_VALUE_MAX = 200;
export const CONTACT_NAME_MAX = 64;
export const GROUP_NAME_MAX = 30;
/** Contacts one bulk action (delete, group, outbound, SMS) takes at most. */
export const CONTACT_BULK_MAX = 500;
/** Messages one send to a group queues at most. */
export const SMS_GROUP_MAX = 5000;
/** Members of a group one hand-off into a campaign takes at most (a larger list is a file import). */
export const CAMPAIGN_GROUP_MAX = 20_000;
export const SMS_TEMPLATE_MAX = 500;
export const SMS_SIGNATURE_MAX = 12;
/** Contact import: rows read at most, errors answered at most (all are in the error export). */
export const CONTACT_IMPORT_MAX_ROWS = 100_000;
export const CONTACT_IMPORT_ERRORS_SHOWN = 20;
/** The two columns every contact has, in imports, exports and SMS variables. */
export const BUILT_IN_COLUMNS = { name: "姓名", phone: "手机号" } as const;
/** The headers an imported file may name its name and phone columns with (any case), the usual first. */
export const IMPORT_HEADERS = {
  name: ["姓名", "客户姓名", "name"],
  phone: ["手机号", "手机号码", "电话号码", "电话", "phone"],
} as const satisfies Record<keyof typeof BUILT_IN_COLUMNS, readonly string[]>;
/** Whether a file's header names the built-in column `column`. */
export const namesColumn = (header: string, column: keyof typeof IMPORT_HEADERS) =>
  (IMPORT_HEADERS[column] as readonly string[]).includes(header.trim().toLowerCase());

const propertyTypes = codesOf(CUSTOMER_PROPERTY_TYPES) as [PropertyType, ...PropertyType[]];
export type PropertyType = "text" | "number" | "date" | "single" | "multi" | "phone";

export const CustomerPropertySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(["text", "number", "date", "single", "multi", "phone"]),
  options: z.array(z.string()),
  required: z.boolean(),
  unique: z.boolean(),
  valid: z.boolean(),
  position: z.number().int(),
});
export type CustomerProperty = z.infer<typeof CustomerPropertySchema>;
/** GET /crm_v2/customer/property/list/{tenantId}/{filter} (filter: all | valid) */
export const CustomerPropertyListResponseSchema = envelope(page(CustomerPropertySchema));
export const CustomerPropertyResponseSchema = envelope(CustomerPropertySchema);

/** POST /crm_v2/customer/property, PUT /crm_v2/customer/property/{id} */
export const CustomerPropertyInputSchema = z
  .object({
    name: z
      .string({ required_error: "请输入属性名称" })
      .trim()
      .min(1, "请输入属性名称")
      .max(PROPERTY_NAME_MAX, `属性名称不能超过${PROPERTY_NAME_MAX}个字符`)
      .refine((n) => !/[${}]/.test(n), "属性名称不能包含 $ { }")
      .refine((n) => n !== BUILT_IN_COLUMNS.name && n !== BUILT_IN_COLUMNS.phone, "「姓名」「手机号」是内置字段，请换一个名称"),
    type: z.enum(propertyTypes, { errorMap: () => ({ message: "请选择属性类型" }) }),
    options: z
      .array(z.string().trim().min(1).max(PROPERTY_NAME_MAX, `选项不能超过${PROPERTY_NAME_MAX}个字符`))
      .max(PROPERTY_OPTIONS_MAX, `选项不能超过${PROPERTY_OPTIONS_MAX}个`)
      .default([]),
    required: z.coerce.boolean().default(false),
    unique: z.coerce.boolean().default(false),
  })
  .superRefine((p, ctx) => {
    const choice = p.type === "single" || p.type === "multi";
    if (choice && p.options.length < 2) ctx.addIssue({ code: "custom", path: ["options"], message: "单选或多选至少需要两个选项" });
    if (choice && new Set(p.options).size !== p.options.length)
      ctx.addIssue({ code: "custom", path: ["options"], message: "选项不能重复" });
    if (p.unique && (p.type === "multi" || p.type === "single"))
      ctx.addIssue({ code: "custom", path: ["unique"], message: "单选或多选属性不能设为唯一" });
  })
  .transform((p) => ({ ...p, options: p.type === "single" || p.type === "multi" ? p.options : [] }));
export type CustomerPropertyInput = z.infer<typeof CustomerPropertyInputSchema>;

/** Options typed in one box: separated by commas, 、 or line breaks. */
export function splitOptions(text: string): string[] {
  return text
    .split(/[,，、;；\n\r]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export type PropertyValue = string | string[];

/**
 * A value typed or imported for a property, checked and normalised (numbers as typed digits,
 * dates as YYYY-MM-DD, phones as 11 digits); empty is null. Errors are Chinese and name the property.
 */
export type CheckedValue = { value: PropertyValue | null } | { error: string };

export function checkValue(
  property: Pick<CustomerProperty, "name" | "type" | "options">,
  raw: PropertyValue | undefined | null,
): CheckedValue {
  const label = `「${property.name}」`;
  const items = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : property.type === "multi" ? splitOptions(raw) : [raw])
    .map((s) => String(s).trim())
    .filter(Boolean);
  if (items.length === 0) return { value: null };
  if (property.type === "multi") {
    const unknown = items.find((i) => !property.options.includes(i));
    if (unknown) return { error: `${label}没有选项「${unknown.slice(0, 20)}」` };
    return { value: [...new Set(items)] };
  }
  const text = items.join("，");
  if (text.length > PROPERTY_VALUE_MAX) return { error: `${label}不能超过${PROPERTY_VALUE_MAX}个字符` };
  switch (property.type) {
    case "number":
      return /^-?\d+(\.\d+)?$/.test(text) && text.length <= 20 ? { value: text } : { error: `${label}须为数字` };
    case "date": {
      const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
      const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
      if (!m || !date || date.getUTCDate() !== Number(m[3]) || date.getUTCMonth() !== Number(m[2]) - 1)
        return { error: `${label}须为日期，如 2026-01-31` };
      return { value: date.toISOString().slice(0, 10) };
    }
    case "single":
      return property.options.includes(text) ? { value: text } : { error: `${label}没有选项「${text.slice(0, 20)}」` };
    case "phone": {
      const phone = normaliseMobile(text);
      return phone ? { value: phone } : { error: `${label}须为中国大陆手机号` };
    }
    default:
      return { value: text };
  }
}

export const MobileSchema = z
  .string({ required_error: "请输入手机号" })
  .trim()
  .min(1, "请输入手机号")
  .max(20, "手机号须为中国大陆手机号")
  .transform((raw, ctx) => {
    const phone = normaliseMobile(raw);
    if (!phone) {
      ctx.addIssue({ code: "custom", message: "手机号须为中国大陆手机号（11位，以1开头）" });
      return z.NEVER;
    }
    return phone;
  });

export const ContactGroupRefSchema = z.object({ id: z.number().int(), name: z.string() });
export const CustomerContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  values: z.record(z.union([z.string(), z.array(z.string())])),
  groups: z.array(ContactGroupRefSchema),
  updatedAt: z.string(),
});
export type CustomerContact = z.infer<typeof CustomerContactSchema>;
export const CustomerContactResponseSchema = envelope(CustomerContactSchema);
export const CustomerContactPageResponseSchema = envelope(page(CustomerContactSchema).extend({ estimated: z.boolean().optional() }));

/** POST /crm_v2/contacts/v1/list: keyset (`after`/`before` an id) or a page number. */
export const ContactListQuerySchema = PaginationSchema.extend({
  pageNo: z.coerce.number().int().min(1).max(1_000_000).default(1),
  keyword: z.string().trim().max(30, "关键词不能超过30个字符").optional(),
  groupId: z.coerce.number().int().positive().optional(),
  /** Property filters: property id → value (a multiple choice matches when it holds the value). */
  values: z.record(z.string().regex(/^\d+$/), z.string().trim().max(PROPERTY_VALUE_MAX)).default({}),
  after: z.coerce.number().int().positive().optional(),
  before: z.coerce.number().int().positive().optional(),
});
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;

/** POST /crm_v2/contacts/v1 (a new contact; path decided in decision 020), PUT /crm_v2/contacts/v1/{id} */
export const ContactInputSchema = z.object({
  name: z.string().trim().max(CONTACT_NAME_MAX, `姓名不能超过${CONTACT_NAME_MAX}个字符`).default(""),
  phone: MobileSchema,
  values: z.record(z.string().regex(/^\d+$/), z.union([z.string(), z.array(z.string())])).default({}),
});

const idList = (what: string) =>
  z
    .array(z.coerce.number().int().positive(), { required_error: `请先勾选${what}` })
    .min(1, `请先勾选${what}`)
    .max(CONTACT_BULK_MAX, `一次最多处理${CONTACT_BULK_MAX}个联系人`);

/** POST /crm_v2/contacts/v1/delete */
export const ContactDeleteSchema = z.object({ ids: idList("要删除的联系人") });
export const ContactDeleteResponseSchema = envelope(z.object({ deleted: z.number().int(), missing: z.array(z.number().int()) }));

/** POST /crm_v2/contacts/v1/import answer; GET …/errorexport?importId= streams every rejected row. */
export const ContactImportResultSchema = z.object({
  importId: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  rejected: z.number().int(),
  ignoredColumns: z.array(z.string()),
  errors: z.array(z.object({ row: z.number().int(), phone: z.string(), message: z.string() })),
});
export type ContactImportResult = z.infer<typeof ContactImportResultSchema>;
export const ContactImportResponseSchema = envelope(ContactImportResultSchema);

/**
 * The column-mapping step of an import (decision 020, amended): `POST …/import/upload` keeps the
 * file and answers its columns, each with the target it has by name and a few values;
 * `GET …/import/upload/{uploadId}` answers them again; `POST …/import/mapped` imports it with a
 * target per column: "name", "phone", a property id, or "" (not imported).
 */
export const IMPORT_TARGETS = { name: "name", phone: "phone", none: "" } as const;
export const IMPORT_SAMPLE_ROWS = 3;
export const IMPORT_COLUMNS_MAX = 100;
export const ContactImportUploadSchema = z.object({
  uploadId: z.number().int(),
  fileName: z.string(),
  columns: z.array(z.object({ header: z.string(), target: z.string(), samples: z.array(z.string()) })),
});
export type ContactImportUpload = z.infer<typeof ContactImportUploadSchema>;
export const ContactImportUploadResponseSchema = envelope(ContactImportUploadSchema);
export const ContactImportMappedSchema = z.object({
  uploadId: z.coerce.number().int().positive().max(2_147_483_647),
  mapping: z
    .array(z.string().regex(/^(name|phone|\d{1,9})?$/, "列对应关系不正确"), { required_error: "请选择每一列对应的字段" })
    .min(1, "请选择每一列对应的字段")
    .max(IMPORT_COLUMNS_MAX, `文件不能超过${IMPORT_COLUMNS_MAX}列`),
});

/** POST /crm_v2/contacts/v1/outbound: the selection or a group into a campaign, as a new batch. */
export const ContactOutboundSchema = z
  .object({
    campaignId: z.coerce.number({ invalid_type_error: "请选择外呼活动" }).int().positive("请选择外呼活动"),
    ids: z.array(z.coerce.number().int().positive()).max(CONTACT_BULK_MAX, `一次最多处理${CONTACT_BULK_MAX}个联系人`).default([]),
    groupId: z.coerce.number().int().positive().optional(),
  })
  .refine((o) => o.ids.length > 0 || o.groupId, { message: "请先勾选联系人或选择分组", path: ["ids"] });
export const ContactOutboundResultSchema = z.object({
  /** The campaign import it made: its rejected rows download like a file's. */
  importId: z.number().int(),
  batchId: z.number().int().nullable(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  errors: z.array(z.object({ phone: z.string(), name: z.string(), reason: z.string() })),
});
export type ContactOutboundResult = z.infer<typeof ContactOutboundResultSchema>;
export const ContactOutboundResponseSchema = envelope(ContactOutboundResultSchema);

/** GET /crm_v2/contacts/v1/callhistroy?id=&pageNo=&pageSize= (spelling as spec.md) */
export const ContactCallHistoryQuerySchema = PaginationSchema.extend({ id: z.coerce.number().int().positive() });

export const ContactGroupSchema = z.object({ id: z.number().int(), name: z.string(), memberCount: z.number().int() });
export type ContactGroup = z.infer<typeof ContactGroupSchema>;
export const ContactGroupListResponseSchema = envelope(page(ContactGroupSchema));
export const ContactGroupResponseSchema = envelope(ContactGroupSchema);
/** POST /crm_v2/groups/v1 (with the selection as its first members), PUT /crm_v2/groups/v1/{id} */
export const ContactGroupInputSchema = z.object({
  name: z
    .string({ required_error: "请输入分组名称" })
    .trim()
    .min(1, "请输入分组名称")
    .max(GROUP_NAME_MAX, `分组名称不能超过${GROUP_NAME_MAX}个字符`)
    .optional(),
  addIds: z.array(z.coerce.number().int().positive()).max(CONTACT_BULK_MAX, `一次最多处理${CONTACT_BULK_MAX}个联系人`).default([]),
  removeIds: z.array(z.coerce.number().int().positive()).max(CONTACT_BULK_MAX, `一次最多处理${CONTACT_BULK_MAX}个联系人`).default([]),
});

// ---- SMS ----

/** `${变量}` placeholders of a template, in order, without repeats. */
export function templateVariables(content: string): string[] {
  return [...new Set([...content.matchAll(/\$\{([^${}]*)\}/g)].map((m) => m[1].trim()))];
}

/** The text with each variable filled; a missing value is reported, not sent as blank. */
export function fillTemplate(content: string, values: Record<string, string>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = content.replace(/\$\{([^${}]*)\}/g, (_, name: string) => {
    const value = values[name.trim()];
    if (!value) missing.push(name.trim());
    return value ?? "";
  });
  return { text, missing: [...new Set(missing)] };
}

/** What the count shows beside a template: characters (signature included) and segments. */
export function smsCount(content: string, signature: string) {
  return { length: smsLength(content, signature), segments: smsSegments(content, signature) };
}

export const SmsTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  signature: z.string(),
  content: z.string(),
  state: z.enum(["pending", "approved", "rejected"]),
  reason: z.string().nullable(),
  variables: z.array(z.string()),
  length: z.number().int(),
  segments: z.number().int(),
  updatedAt: z.string(),
});
export type SmsTemplate = z.infer<typeof SmsTemplateSchema>;
export const SmsTemplateResponseSchema = envelope(SmsTemplateSchema);
export const SmsTemplatePageResponseSchema = envelope(page(SmsTemplateSchema));
export const SmsTemplateQuerySchema = PaginationSchema.extend({
  state: z.enum(codesOf(SMS_TEMPLATE_STATES) as ["pending", "approved", "rejected"]).optional(),
});

/** POST /sms/api/sms/template, PUT /sms/api/sms/template/{id} */
export const SmsTemplateInputSchema = z.object({
  name: z.string({ required_error: "请输入模板名称" }).trim().min(1, "请输入模板名称").max(30, "模板名称不能超过30个字符"),
  signature: z
    .string({ required_error: "请输入短信签名" })
    .trim()
    .min(2, "短信签名为2到12个字")
    .max(SMS_SIGNATURE_MAX, "短信签名为2到12个字")
    .refine((s) => !/[【】]/.test(s), "签名不用输入【】"),
  content: z
    .string({ required_error: "请输入短信内容" })
    .trim()
    .min(1, "请输入短信内容")
    .max(SMS_TEMPLATE_MAX, `短信内容不能超过${SMS_TEMPLATE_MAX}个字符`),
});
export type SmsTemplateInput = z.infer<typeof SmsTemplateInputSchema>;

/** PUT /sms/api/sms/template/{id}/review */
export const SmsTemplateReviewSchema = z
  .object({
    state: z.enum(["approved", "rejected"], { errorMap: () => ({ message: "请选择审核结果" }) }),
    reason: z.string().trim().max(200, "原因不能超过200个字符").default(""),
  })
  .refine((r) => r.state === "approved" || r.reason.length > 0, { message: "不通过时请填写原因", path: ["reason"] });

/** POST /msg/api/sms/send: one template to contacts or a group; `preview` answers the texts without sending. */
export const SmsSendSchema = z
  .object({
    templateId: z.coerce.number({ invalid_type_error: "请选择短信模板" }).int().positive("请选择短信模板"),
    ids: z.array(z.coerce.number().int().positive()).max(CONTACT_BULK_MAX, `一次最多发送${CONTACT_BULK_MAX}个联系人`).default([]),
    groupId: z.coerce.number().int().positive().optional(),
    preview: z.coerce.boolean().default(false),
  })
  .refine((s) => s.ids.length > 0 || s.groupId, { message: "请先勾选联系人或选择分组", path: ["ids"] });
export const SmsSendResultSchema = z.object({
  queued: z.number().int(),
  rejected: z.array(z.object({ contactId: z.number().int(), phone: z.string(), reason: z.string() })),
  preview: z.array(
    z.object({ contactId: z.number().int(), phone: z.string(), text: z.string(), length: z.number().int(), segments: z.number().int() }),
  ),
});
export type SmsSendResult = z.infer<typeof SmsSendResultSchema>;
export const SmsSendResponseSchema = envelope(SmsSendResultSchema);

/** GET /sms/api/sms/outbox?status=&pageNo=&pageSize= (the tenant's messages, newest first) */
export const SmsOutboxQuerySchema = PaginationSchema.extend({
  status: z.enum(["queued", "sent", "delivered", "failed"]).optional(),
  phone: z.string().trim().max(20).optional(),
  after: z.coerce.number().int().positive().optional(),
  before: z.coerce.number().int().positive().optional(),
});
export const SmsOutboxResponseSchema = envelope(page(SmsMessageSchema).extend({ estimated: z.boolean().optional() }));
/** How the count is explained beside a template. */
export const SMS_PART_LIMIT_TEXT = "一条短信70字（含签名），超过70字时按每条67字拆分计费。";
