import { z } from "zod";
import { CONTACT_BULK_MAX, CONTACT_NAME_MAX, GROUP_NAME_MAX, IMPORT_COLUMNS_MAX, MobileSchema } from "#contracts/customers";
import { KeysetPageSchema } from "#app/server/page-query.server";

const id = (message: string) => z.coerce.number({ required_error: message, invalid_type_error: message }).int().positive(message);
const ids = z
  .array(z.coerce.number().int().positive(), { required_error: "请先勾选联系人" })
  .min(1, "请先勾选联系人")
  .max(CONTACT_BULK_MAX, `一次最多处理${CONTACT_BULK_MAX}个联系人`);
const groupName = z
  .string({ required_error: "请输入分组名称" })
  .trim()
  .min(1, "请输入分组名称")
  .max(GROUP_NAME_MAX, `分组名称不能超过${GROUP_NAME_MAX}个字符`);

/** The screen's URL: search, group, property filters (`v<id>`), the page, the contact edited or whose calls are shown. */
export const ContactsQuerySchema = KeysetPageSchema.extend({
  keyword: z.string().trim().max(30).optional(),
  group: z.coerce.number().int().positive().optional(),
  edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
  history: z.coerce.number().int().positive().optional(),
}).catchall(z.string().max(200));
export type ContactsQuery = z.infer<typeof ContactsQuerySchema>;

/** The contact form; property values (`v<id>`) are checked by the platform, which names the property. */
export const ContactFormSchema = z.object({
  intent: z.literal("contact.save"),
  id: z.coerce.number().int().positive().optional(),
  name: z.string().trim().max(CONTACT_NAME_MAX, `姓名不能超过${CONTACT_NAME_MAX}个字符`).default(""),
  phone: MobileSchema,
});

export const INTENT_SCHEMAS = {
  "contact.save": ContactFormSchema,
  "contacts.delete": z.object({ intent: z.literal("contacts.delete"), ids, confirmed: z.literal("1").optional() }),
  "group.create": z.object({ intent: z.literal("group.create"), newGroup: groupName, ids: ids.optional() }),
  "group.add": z.object({ intent: z.literal("group.add"), targetGroup: id("请选择要加入的分组"), ids }),
  "group.remove": z.object({ intent: z.literal("group.remove"), targetGroup: id("请选择要移出的分组"), ids }),
  "group.rename": z.object({ intent: z.literal("group.rename"), groupId: id("请选择分组"), name: groupName }),
  "group.delete": z.object({ intent: z.literal("group.delete"), groupId: id("请选择分组"), confirmed: z.literal("1").optional() }),
  outbound: z
    .object({
      intent: z.literal("outbound"),
      campaignId: id("请选择外呼活动"),
      ids: ids.optional(),
      groupId: z.coerce.number().int().positive().optional(),
    })
    .refine((o) => o.ids?.length || o.groupId, { message: "请先勾选联系人或选择分组", path: ["ids"] }),
  sms: z
    .object({
      intent: z.literal("sms"),
      templateId: id("请选择短信模板"),
      ids: ids.optional(),
      groupId: z.coerce.number().int().positive().optional(),
      confirmed: z.literal("1").optional(),
    })
    .refine((o) => o.ids?.length || o.groupId, { message: "请先勾选联系人或选择分组", path: ["ids"] }),
  import: z.object({ intent: z.literal("import"), mapColumns: z.literal("on").optional() }),
  // The mapping step: one `target` per column of the file, in order ("none": not imported).
  "import.mapped": z.object({
    intent: z.literal("import.mapped"),
    uploadId: id("上传的文件已过期，请重新上传"),
    target: z
      .array(z.string().regex(/^(none|name|phone|\d{1,9})$/, "列对应关系不正确"), { required_error: "请选择每一列对应的字段" })
      .min(1, "请选择每一列对应的字段")
      .max(IMPORT_COLUMNS_MAX, `文件不能超过${IMPORT_COLUMNS_MAX}列`),
  }),
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
