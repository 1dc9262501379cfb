import { data } from "@remix-run/node";
import type { z } from "zod";
import { IMPORT_TARGETS, type ContactImportUpload } from "#contracts/customers";
import { attempt, type rejectForm } from "#app/server/forms.server";
import { pagination } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  contactCalls,
  contactsToCampaign,
  createGroup,
  deleteContacts,
  deleteGroup,
  describeImport,
  importMapped,
  listContacts,
  listGroups,
  listProperties,
  saveContact,
  sendableTemplates,
  sendSms,
  updateGroup,
} from "#app/services/customers.server";
import { selectCampaigns } from "#app/services/outbound.server";
import type { Caller } from "#app/services/upstream.server";
import type { ContactsQuery, INTENT_SCHEMAS } from "./schema";
import { columnsKnown, postedValues, SCREEN, screenHref, valueFilters } from "./values";

/** The import's mapping step as the page shows it: the file's columns, the choices made, why they were refused. */
export type Mapping = { upload: ContactImportUpload; chosen: string[] | null; error: string | null };
/** A destructive or bulk change's first post answers this; the second post (`confirmed=1`) acts. */
export type Confirm = { title: string; message: string; fields: Record<string, string | string[]>; label: string; preview?: Preview };
export type Preview = {
  texts: Array<{ phone: string; text: string; length: number; segments: number }>;
  rejected: Array<{ phone: string; reason: string }>;
};

type Input<I extends keyof typeof INTENT_SCHEMAS> = z.infer<(typeof INTENT_SCHEMAS)[I]>;
/** What every change needs: who posts, the screen's query (to go back to), and the refusal of this form. */
export type Posted = {
  caller: Caller;
  search: string;
  fail: (done: { message: string; status: number }) => ReturnType<typeof rejectForm>;
};
/** The file as the platform staged it on arrival (`requireUploadAccess`), or why it did not. */
type Staged = Awaited<ReturnType<typeof attempt<ContactImportUpload>>>;

/** The page: properties, groups, a page of contacts, what an administrator may send and hand off to, the contact edited or whose calls are shown. */
export async function loadContacts(caller: Caller, query: ContactsQuery, admin: boolean) {
  const filter = { keyword: query.keyword, groupId: query.group, values: valueFilters(query) };
  const [properties, groups, contacts, templates, campaigns] = await Promise.all([
    listProperties(caller, "valid"),
    listGroups(caller),
    listContacts(caller, {
      ...pagination(query),
      ...filter,
      after: query.after ? Number(query.after) : undefined,
      before: query.before ? Number(query.before) : undefined,
    }),
    sendableTemplates(caller),
    admin ? selectCampaigns(caller) : Promise.resolve([]),
  ]);
  const editing = typeof query.edit === "number" ? (contacts.list.find((c) => c.id === query.edit) ?? null) : null;
  const historyOf = query.history ? (contacts.list.find((c) => c.id === query.history) ?? null) : null;
  const history = historyOf ? await contactCalls(caller, historyOf.id) : null;
  return { query, admin, properties, groups, contacts, templates, campaigns, editing, historyOf, history };
}

/** A contact created or edited, with its property values. */
export async function saveContactForm({ caller, search, fail }: Posted, input: Input<"contact.save">, form: FormData) {
  const values = postedValues(form);
  const done = await attempt(() => saveContact(caller, input.id ?? null, { name: input.name, phone: input.phone, values }));
  if (!done.ok) return fail(done);
  return redirectWithToast(screenHref(search, {}), `联系人「${done.value.name || done.value.phone}」已保存`);
}

/** The contacts ticked deleted, after a confirmation. */
export async function deleteContactsStep({ caller, search, fail }: Posted, input: Input<"contacts.delete">) {
  if (!input.confirmed)
    return data({
      confirm: {
        title: "删除联系人",
        message: `确定删除选中的 ${input.ids.length} 个联系人吗？其分组关系一并删除，不可恢复。`,
        fields: { intent: input.intent, ids: input.ids.map(String) },
        label: "确认删除",
      } satisfies Confirm,
    });
  const done = await attempt(() => deleteContacts(caller, input.ids));
  if (!done.ok) return fail(done);
  return redirectWithToast(
    screenHref(search, { page: undefined }),
    `已删除 ${done.value.deleted} 个联系人${done.value.missing.length ? `，${done.value.missing.length} 个已不存在` : ""}`,
  );
}

/** The groups: one created (with the contacts ticked), contacts added or removed, renamed, deleted after a confirmation. */
export async function changeGroup(
  { caller, search, fail }: Posted,
  input: Input<"group.create" | "group.add" | "group.remove" | "group.rename" | "group.delete">,
) {
  const back = `${SCREEN}${search}`;
  switch (input.intent) {
    case "group.create": {
      const done = await attempt(() => createGroup(caller, input.newGroup, input.ids ?? []));
      if (!done.ok) return fail(done);
      return redirectWithToast(back, `分组「${done.value.name}」已创建，${done.value.memberCount} 人`);
    }
    case "group.add":
    case "group.remove": {
      const change = input.intent === "group.add" ? { addIds: input.ids } : { removeIds: input.ids };
      const done = await attempt(() => updateGroup(caller, input.targetGroup, change));
      if (!done.ok) return fail(done);
      return redirectWithToast(
        back,
        input.intent === "group.add" ? `已加入分组「${done.value.name}」${done.value.added} 人` : `已移出 ${done.value.removed} 人`,
      );
    }
    case "group.rename": {
      const done = await attempt(() => updateGroup(caller, input.groupId, { name: input.name }));
      if (!done.ok) return fail(done);
      return redirectWithToast(back, `分组已重命名为「${done.value.name}」`);
    }
    case "group.delete": {
      if (!input.confirmed)
        return data({
          confirm: {
            title: "删除分组",
            message: "确定删除该分组吗？分组内的联系人保留。",
            fields: { intent: input.intent, groupId: String(input.groupId) },
            label: "确认删除",
          } satisfies Confirm,
        });
      const done = await attempt(() => deleteGroup(caller, input.groupId));
      if (!done.ok) return fail(done);
      return redirectWithToast(SCREEN, "分组已删除");
    }
  }
}

/** Contacts (ticked, or a group) handed off to an outbound campaign, or sent an SMS after its preview. */
export async function reachContacts({ caller, search, fail }: Posted, input: Input<"outbound" | "sms">) {
  if (input.intent === "outbound") {
    const done = await attempt(() => contactsToCampaign(caller, input.campaignId, { ids: input.ids ?? [], groupId: input.groupId }));
    if (!done.ok) return fail(done);
    return data({ outbound: done.value });
  }
  const target = { templateId: input.templateId, ids: input.ids ?? [], groupId: input.groupId };
  if (!input.confirmed) {
    // The preview is the confirmation: the texts as they will be sent, and who will not get one.
    const done = await attempt(() => sendSms(caller, { ...target, preview: true }));
    if (!done.ok) return fail(done);
    const fields: Record<string, string | string[]> = { intent: "sms", templateId: String(input.templateId) };
    if (input.groupId) fields.groupId = String(input.groupId);
    else fields.ids = target.ids.map(String);
    const count = input.groupId ? "分组内的联系人" : `选中的 ${target.ids.length} 个联系人`;
    return data({
      confirm: {
        title: "发送短信",
        message: `确定向${count}发送短信吗？以下为前几条的预览。`,
        fields,
        label: "确认发送",
        preview: { texts: done.value.preview, rejected: done.value.rejected.slice(0, 20) },
      } satisfies Confirm,
    });
  }
  const done = await attempt(() => sendSms(caller, { ...target, preview: false }));
  if (!done.ok) return fail(done);
  return redirectWithToast(
    `${SCREEN}${search}`,
    `已提交 ${done.value.queued} 条短信${done.value.rejected.length ? `，${done.value.rejected.length} 个联系人因缺少变量值未发送` : ""}`,
  );
}

/**
 * The two-step import. A file the platform staged on arrival whose every column is known by its
 * header is imported at once; otherwise (or when asked) the mapping step comes first, and comes
 * back with the choices made when the platform refuses them.
 */
export async function importContacts({ caller, fail }: Posted, input: Input<"import" | "import.mapped">, staged: Staged | undefined) {
  if (input.intent === "import") {
    if (!staged) return fail({ message: "请选择要导入的 CSV 或 XLSX 文件", status: 400 });
    if (!staged.ok) return fail(staged);
    const { uploadId, columns } = staged.value;
    if (input.mapColumns || !columnsKnown(columns))
      return data({ mapping: { upload: staged.value, chosen: null, error: null } satisfies Mapping });
    const done = await attempt(() =>
      importMapped(
        caller,
        uploadId,
        columns.map((c) => c.target),
      ),
    );
    if (!done.ok) return fail(done);
    return data({ imported: done.value });
  }
  const mapping = input.target.map((t) => (t === "none" ? IMPORT_TARGETS.none : t));
  const done = await attempt(() => importMapped(caller, input.uploadId, mapping));
  if (done.ok) return data({ imported: done.value });
  const upload = await attempt(() => describeImport(caller, input.uploadId));
  if (!upload.ok) return fail(done);
  return data({ mapping: { upload: upload.value, chosen: input.target, error: done.message } satisfies Mapping }, { status: done.status });
}
