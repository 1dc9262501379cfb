import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { labelOf, RESULT_CODES } from "#contracts/codes";
import {
  BUILT_IN_COLUMNS,
  IMPORT_TARGETS,
  smsCount,
  type ContactImportUpload,
  type CustomerContact,
  type CustomerProperty,
} from "#contracts/customers";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice, FilterBar } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import uploadProgress from "#app/client/upload-progress.js?url";
import { EnhancementScript } from "#app/components/enhancement-script";
import type { RouteHandle } from "#app/lib/handle";
import { idCursors, recordHref } from "#app/lib/list-url";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireUploadAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { pagination, parseListQuery } from "#app/server/page-query.server";
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
  stageImport,
  updateGroup,
} from "#app/services/customers.server";
import { selectCampaigns } from "#app/services/outbound.server";
import { ContactsQuerySchema, INTENT_SCHEMAS, isIntent, type ContactsQuery } from "./schema";

const SCREEN = "/contacts";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

/** Property filters of the URL (`v<id>=value`) as the platform takes them. */
function valueFilters(query: ContactsQuery): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([key, value]) => /^v\d+$/.test(key) && typeof value === "string" && value)
      .map(([key, value]) => [key.slice(1), String(value)]),
  );
}

/** The screen's address with filters kept and some parameters changed. */
function screenHref(search: string, change: Record<string, string | number | undefined>) {
  const params = new URLSearchParams(search);
  for (const key of ["edit", "history", "after", "before"]) params.delete(key);
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${SCREEN}?${text}` : SCREEN;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const query = parseListQuery(request, ContactsQuerySchema) as ContactsQuery;
  const admin = user.role === "admin";
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

type Mapping = { upload: ContactImportUpload; chosen: string[] | null; error: string | null };
type Confirm = { title: string; message: string; fields: Record<string, string | string[]>; label: string; preview?: Preview };
type Preview = {
  texts: Array<{ phone: string; text: string; length: number; segments: number }>;
  rejected: Array<{ phone: string; reason: string }>;
};

export async function action({ request }: ActionFunctionArgs) {
  // A contact file goes on to the platform as it arrives; the platform keeps it and names its columns.
  const {
    access,
    form,
    sent: staged,
  } = await requireUploadAccess(request, (access, fieldsBefore, file) =>
    fieldsBefore.get("intent") === "import" ? attempt(() => stageImport(access.caller, file)) : undefined,
  );
  const url = new URL(request.url);
  const back = `${SCREEN}${url.search}`;
  const intent = form.get("intent");
  if (!isIntent(intent)) throw data({ message: "请求参数错误", status: 400, what: title }, { status: 400 });
  const submission = parseWithZod(form, { schema: INTENT_SCHEMAS[intent] });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  const fail = (done: { message: string; status: number }) => rejectForm(submission, { formErrors: [done.message] }, done.status);

  switch (input.intent) {
    case "contact.save": {
      // Property values are `v<id>`; a multiple choice also posts `m<id>`, so none chosen is an empty list.
      const values: Record<string, string | string[]> = {};
      for (const key of new Set([...form.keys()].filter((k) => /^v\d+$/.test(k)))) {
        const all = form.getAll(key).map(String);
        values[key.slice(1)] = form.has(`m${key.slice(1)}`) ? all : (all[0] ?? "");
      }
      for (const key of [...form.keys()].filter((k) => /^m\d+$/.test(k))) values[key.slice(1)] ??= [];
      const done = await attempt(() => saveContact(caller, input.id ?? null, { name: input.name, phone: input.phone, values }));
      if (!done.ok) return fail(done);
      return redirectWithToast(screenHref(url.search, {}), `联系人「${done.value.name || done.value.phone}」已保存`);
    }
    case "contacts.delete": {
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
        screenHref(url.search, { page: undefined }),
        `已删除 ${done.value.deleted} 个联系人${done.value.missing.length ? `，${done.value.missing.length} 个已不存在` : ""}`,
      );
    }
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
    case "outbound": {
      const done = await attempt(() => contactsToCampaign(caller, input.campaignId, { ids: input.ids ?? [], groupId: input.groupId }));
      if (!done.ok) return fail(done);
      return data({ outbound: done.value });
    }
    case "sms": {
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
        back,
        `已提交 ${done.value.queued} 条短信${done.value.rejected.length ? `，${done.value.rejected.length} 个联系人因缺少变量值未发送` : ""}`,
      );
    }
    case "import": {
      // A file whose every column is known by its header is imported at once; otherwise (or when
      // asked) the mapping step comes first.
      if (!staged) return rejectForm(submission, { formErrors: ["请选择要导入的 CSV 或 XLSX 文件"] });
      if (!staged.ok) return fail(staged);
      const { uploadId, columns } = staged.value;
      const known = columns.every((c) => c.target || !c.header) && columns.some((c) => c.target === IMPORT_TARGETS.phone);
      if (input.mapColumns || !known) return data({ mapping: { upload: staged.value, chosen: null, error: null } satisfies Mapping });
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
    case "import.mapped": {
      const mapping = input.target.map((t) => (t === "none" ? IMPORT_TARGETS.none : t));
      const done = await attempt(() => importMapped(caller, input.uploadId, mapping));
      if (done.ok) return data({ imported: done.value });
      // The step again, with the choices made and the reason they were refused.
      const upload = await attempt(() => describeImport(caller, input.uploadId));
      if (!upload.ok) return fail(done);
      return data(
        { mapping: { upload: upload.value, chosen: input.target, error: done.message } satisfies Mapping },
        { status: done.status },
      );
    }
  }
}

function valueText(contact: CustomerContact, property: CustomerProperty) {
  const value = contact.values[String(property.id)];
  return Array.isArray(value) ? value.join("、") : (value ?? "");
}

export default function Contacts() {
  const { query, admin, properties, groups, contacts, templates, campaigns, editing, historyOf, history } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? result : undefined;
  const refusedIntent = refusal?.initialValue?.intent as string | undefined;
  const error = refusal ? firstError(refusal) : null;
  const confirm = result && "confirm" in result ? (result.confirm as Confirm) : undefined;
  const imported = result && "imported" in result ? result.imported : undefined;
  const mapping = result && "mapping" in result ? (result.mapping as Mapping) : undefined;
  const outbound = result && "outbound" in result ? result.outbound : undefined;
  const group = groups.find((g) => g.id === query.group) ?? null;
  const showForm = admin && (query.edit !== undefined || refusedIntent === "contact.save");
  const filters = valueFilters(query);

  return (
    <Screen
      title={title}
      actions={
        admin ? (
          <>
            <a className="p-button p-button-outlined" href={`${SCREEN}/export${search}`} download>
              导出联系人
            </a>
            <a className="p-button" href={screenHref(search, { edit: "new" })}>
              新建联系人
            </a>
          </>
        ) : null
      }
    >
      {confirm ? (
        <ConfirmStep
          title={confirm.title}
          fields={confirm.fields}
          confirmLabel={confirm.label}
          cancelHref={`${pathname}${search}`}
          danger={confirm.title !== "发送短信"}
        >
          <p>{confirm.message}</p>
          {confirm.preview ? <SmsPreview preview={confirm.preview} /> : null}
        </ConfirmStep>
      ) : null}
      {error && refusedIntent !== "contact.save" ? <Notice tone="error">{error}</Notice> : null}
      {outbound ? (
        <Notice tone={outbound.rejected > 0 ? "info" : "success"}>
          已转入外呼活动：成功 {outbound.accepted} 个，失败 {outbound.rejected} 个。
          {outbound.errors.length
            ? ` 失败原因：${outbound.errors.map((e: { phone: string; reason: string }) => `${e.phone} ${e.reason}`).join("；")}`
            : ""}
        </Notice>
      ) : null}

      <div className="sb-kb">
        <nav className="sb-kb-groups" aria-labelledby="contact-groups-title">
          <h2 id="contact-groups-title" className="sb-section-title">
            联系人分组
          </h2>
          <ul className="sb-kb-group-list">
            <li>
              <a href={screenHref(search, { group: undefined, page: undefined })} aria-current={group ? undefined : "page"}>
                全部联系人
              </a>
            </li>
            {groups.map((g) => (
              <li key={g.id}>
                <a href={screenHref(search, { group: g.id, page: undefined })} aria-current={group?.id === g.id ? "page" : undefined}>
                  {g.name}（{g.memberCount}）
                </a>
              </li>
            ))}
          </ul>
          {group ? <GroupPanel group={group} admin={admin} campaigns={campaigns} templates={templates} /> : null}
        </nav>

        <div className="sb-kb-main">
          <FilterBar label="搜索联系人" search resetHref={query.group ? `${SCREEN}?group=${query.group}` : SCREEN}>
            {query.group ? <input type="hidden" name="group" value={query.group} /> : null}
            <div className="sb-field">
              <label htmlFor="contacts-keyword">姓名或手机号</label>
              <input
                id="contacts-keyword"
                name="keyword"
                type="search"
                maxLength={30}
                defaultValue={query.keyword ?? ""}
                className="p-inputtext"
              />
            </div>
            {/* The properties' filters fold away: however many a tenant defines, the bar keeps its size;
                it opens when one of them is in use. */}
            <details className="sb-filters-more" open={Object.values(filters).some(Boolean)}>
              <summary>按客户属性筛选</summary>
              <div className="sb-filters-more-fields">
                {properties.length === 0 ? (
                  <p className="sb-hint">
                    还没有客户属性
                    {admin ? (
                      <>
                        ，可在<a href="/customerProperty">客户属性</a>中添加
                      </>
                    ) : null}
                    。
                  </p>
                ) : null}
                {properties.map((p) => (
                  <div className="sb-field" key={p.id}>
                    <label htmlFor={`filter-v${p.id}`}>{p.name}</label>
                    {p.type === "single" || p.type === "multi" ? (
                      <select id={`filter-v${p.id}`} name={`v${p.id}`} defaultValue={filters[String(p.id)] ?? ""} className="p-inputtext">
                        <option value="">全部</option>
                        {p.options.map((o) => (
                          <option key={o} value={o}>
                            {o}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input
                        id={`filter-v${p.id}`}
                        name={`v${p.id}`}
                        maxLength={200}
                        defaultValue={filters[String(p.id)] ?? ""}
                        className="p-inputtext"
                      />
                    )}
                  </div>
                ))}
              </div>
            </details>
          </FilterBar>

          {showForm ? (
            <ContactForm
              properties={properties}
              editing={editing}
              refusal={refusedIntent === "contact.save" ? { initial: refusal!.initialValue ?? {}, error } : undefined}
              missing={typeof query.edit === "number" && !editing}
            />
          ) : null}

          <BulkForm admin={admin} groups={groups} campaigns={campaigns} templates={templates} />
          <DataTable<CustomerContact>
            caption="联系人列表"
            rowKey="id"
            selectionForm="contacts-bulk"
            emptyMessage={query.keyword ? `没有找到“${query.keyword}”` : "暂无联系人"}
            config={{
              list: contacts.list,
              total: contacts.total,
              attributes: { selection: true },
              eleItem: [
                { prop: "name", label: "姓名", render: (c) => <strong>{c.name || "—"}</strong> },
                { prop: "phone", label: "手机号" },
                ...properties.map((p) => ({
                  prop: "values" as const,
                  label: p.name,
                  render: (c: CustomerContact) => valueText(c, p) || "—",
                })),
                { prop: "groups", label: "分组", render: (c) => c.groups.map((g) => g.name).join("、") || "—" },
                {
                  prop: "id",
                  label: "操作",
                  render: (c) => (
                    <div className="sb-row-actions">
                      {admin ? (
                        <a href={screenHref(search, { edit: c.id })} aria-label={`编辑「${c.name || c.phone}」`}>
                          编辑
                        </a>
                      ) : null}
                      <a href={screenHref(search, { history: c.id })} aria-label={`「${c.name || c.phone}」的通话记录`}>
                        通话记录
                      </a>
                    </div>
                  ),
                },
              ],
            }}
          />
          <Paginator
            total={contacts.total}
            estimated={contacts.estimated}
            pageNo={query.page}
            pageSize={query.size}
            pathname={pathname}
            search={search}
            cursors={idCursors(contacts.list)}
          />

          {historyOf && history ? (
            <section aria-labelledby="contact-history-title" className="sb-section">
              <h2 id="contact-history-title" className="sb-section-title">
                「{historyOf.name || historyOf.phone}」的通话记录
              </h2>
              <DataTable
                caption="通话记录"
                rowKey="callId"
                emptyMessage="暂无通话记录"
                config={{
                  list: history.list,
                  total: history.total,
                  eleItem: [
                    { prop: "callTime", label: "时间", type: "datetime", minWidth: 150 },
                    { prop: "direction", label: "方向", render: (r) => (r.direction === "inbound" ? "呼入" : "外呼") },
                    { prop: "campaignName", label: "活动", render: (r) => r.campaignName ?? "—" },
                    { prop: "callResult", label: "结果", render: (r) => labelOf(RESULT_CODES, r.callResult, r.callResultName) },
                    { prop: "callDuration", label: "时长（秒）" },
                    { prop: "callId", label: "详情", render: (r) => <a href={recordHref("/callHistory", r.callId)}>查看通话详情</a> },
                  ],
                }}
              />
            </section>
          ) : null}

          {admin ? (
            <section aria-labelledby="contacts-import-title" className="sb-section">
              <h2 id="contacts-import-title" className="sb-section-title">
                导入联系人
              </h2>
              <p className="sb-hint">
                CSV（UTF-8）或 XLSX 文件，不超过 20MB、10 万行。第一行为表头：姓名、手机号，以及与客户属性同名的列（
                {properties.map((p) => p.name).join("、") || "暂无属性"}
                ）。列名不同或有不需要的列时，上传后可设置列对应关系。已有的手机号会更新该联系人，文件中重复的手机号只取第一行。
              </p>
              <form method="post" encType="multipart/form-data" className="sb-inline-forms" data-upload-progress>
                <CsrfInput />
                <input type="hidden" name="intent" value="import" />
                <div className="sb-field">
                  <label htmlFor="contacts-file">联系人文件</label>
                  <input id="contacts-file" name="file" type="file" accept=".csv,.xlsx" required className="p-inputtext" />
                </div>
                <label>
                  <input type="checkbox" name="mapColumns" value="on" /> 导入前设置列对应关系
                </label>
                <button type="submit" className="p-button">
                  上传并导入
                </button>
                <progress className="sb-upload-progress" max={100} value={0} hidden aria-label="上传进度" />
              </form>
              <EnhancementScript src={uploadProgress} />
              {mapping ? <ColumnMapping mapping={mapping} properties={properties} /> : null}
              {imported ? (
                <Notice tone={imported.rejected > 0 ? "info" : "success"}>
                  导入完成：新增 {imported.created} 个，更新 {imported.updated} 个，失败 {imported.rejected} 行。
                  {imported.ignoredColumns.length ? ` 未导入的列：${imported.ignoredColumns.join("、")}。` : ""}
                  {imported.rejected > 0 ? (
                    <>
                      {" "}
                      <a href={`${SCREEN}/imports/${imported.importId}/errors`} download>
                        下载全部失败行
                      </a>
                      <DataTable
                        caption="导入失败的行"
                        rowKey="row"
                        config={{
                          list: imported.errors,
                          total: imported.rejected,
                          eleItem: [
                            { prop: "row", label: "行号" },
                            { prop: "phone", label: "手机号" },
                            { prop: "message", label: "原因" },
                          ],
                        }}
                      />
                    </>
                  ) : null}
                </Notice>
              ) : null}
            </section>
          ) : null}
        </div>
      </div>
    </Screen>
  );
}

type Option = { id: number; name: string };

/** The import's mapping step: each column of the file, a few of its values, and what it becomes. */
function ColumnMapping({ mapping, properties }: { mapping: Mapping; properties: CustomerProperty[] }) {
  const { upload, chosen, error } = mapping;
  const targets = [
    { value: "none", label: "不导入" },
    { value: IMPORT_TARGETS.name, label: BUILT_IN_COLUMNS.name },
    { value: IMPORT_TARGETS.phone, label: BUILT_IN_COLUMNS.phone },
    ...properties.map((p) => ({ value: String(p.id), label: p.name })),
  ];
  const rows = upload.columns.map((c, index) => ({ ...c, index, chosen: chosen?.[index] ?? (c.target || "none") }));
  return (
    <section aria-labelledby="mapping-title" className="sb-section">
      <h3 id="mapping-title">设置列对应关系：{upload.fileName}</h3>
      <p className="sb-hint">
        为文件的每一列选择导入为哪个字段：“手机号”必选，每个字段只能对应一列，不需要的列选“不导入”。已按列名填好能识别的列。
      </p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="import.mapped" />
        <input type="hidden" name="uploadId" value={upload.uploadId} />
        <DataTable
          caption="文件的列"
          rowKey="index"
          config={{
            list: rows,
            total: rows.length,
            eleItem: [
              { prop: "header", label: "文件中的列", render: (r) => r.header || `第 ${r.index + 1} 列（无表头）` },
              { prop: "samples", label: "示例值", render: (r) => r.samples.filter(Boolean).join("、") || "—" },
              {
                prop: "target",
                label: "导入为",
                render: (r) => (
                  <select
                    name="target"
                    defaultValue={r.chosen}
                    aria-label={`「${r.header || `第 ${r.index + 1} 列`}」导入为`}
                    className="p-inputtext"
                  >
                    {targets.map((t) => (
                      <option key={t.value} value={t.value}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                ),
              },
            ],
          }}
        />
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            按此对应导入
          </button>
          <a className="p-button p-button-text" href={SCREEN}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}

function SmsPreview({ preview }: { preview: Preview }) {
  return (
    <>
      <ul>
        {preview.texts.map((t) => (
          <li key={t.phone}>
            {t.phone}：{t.text}（{t.length} 字，{t.segments} 条）
          </li>
        ))}
      </ul>
      {preview.rejected.length ? <p>不会发送：{preview.rejected.map((r) => `${r.phone} ${r.reason}`).join("；")}</p> : null}
    </>
  );
}

function TemplateSelect({ id, templates }: { id: string; templates: Array<Option & { signature: string; content: string }> }) {
  return (
    <div className="sb-field">
      <label htmlFor={id}>短信模板（已审核通过）</label>
      <select id={id} name="templateId" className="p-inputtext" defaultValue="">
        <option value="">请选择</option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}（{smsCount(t.content, t.signature).length} 字）
          </option>
        ))}
      </select>
    </div>
  );
}

function BulkForm({
  admin,
  groups,
  campaigns,
  templates,
}: {
  admin: boolean;
  groups: Option[];
  campaigns: Option[];
  templates: Array<Option & { signature: string; content: string }>;
}) {
  return (
    <form method="post" id="contacts-bulk" className="sb-section" aria-label="对勾选的联系人操作">
      <CsrfInput />
      <p className="sb-hint">勾选下表中的联系人后操作，每次最多 500 个。</p>
      <div className="sb-inline-forms">
        <TemplateSelect id="bulk-template" templates={templates} />
        <button type="submit" name="intent" value="sms" className="p-button p-button-outlined">
          发送短信
        </button>
      </div>
      {admin ? (
        <>
          <div className="sb-inline-forms">
            <div className="sb-field">
              <label htmlFor="bulk-group">分组</label>
              <select id="bulk-group" name="targetGroup" className="p-inputtext" defaultValue="">
                <option value="">请选择</option>
                {groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" name="intent" value="group.add" className="p-button p-button-outlined">
              加入分组
            </button>
            <button type="submit" name="intent" value="group.remove" className="p-button p-button-text">
              移出分组
            </button>
          </div>
          <div className="sb-inline-forms">
            <div className="sb-field">
              <label htmlFor="bulk-new-group">新分组名称</label>
              <input id="bulk-new-group" name="newGroup" maxLength={30} className="p-inputtext" />
            </div>
            <button type="submit" name="intent" value="group.create" className="p-button p-button-outlined">
              新建分组
            </button>
          </div>
          <div className="sb-inline-forms">
            <div className="sb-field">
              <label htmlFor="bulk-campaign">外呼活动</label>
              <select id="bulk-campaign" name="campaignId" className="p-inputtext" defaultValue="">
                <option value="">请选择</option>
                {campaigns.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" name="intent" value="outbound" className="p-button p-button-outlined">
              转入外呼活动
            </button>
            <button type="submit" name="intent" value="contacts.delete" className="p-button p-button-danger p-button-outlined">
              删除所选
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}

function GroupPanel({
  group,
  admin,
  campaigns,
  templates,
}: {
  group: { id: number; name: string; memberCount: number };
  admin: boolean;
  campaigns: Option[];
  templates: Array<Option & { signature: string; content: string }>;
}) {
  if (!admin) return null;
  return (
    <>
      <form method="post" className="sb-form" aria-label={`向分组「${group.name}」发送短信`}>
        <CsrfInput />
        <input type="hidden" name="intent" value="sms" />
        <input type="hidden" name="groupId" value={group.id} />
        <TemplateSelect id="group-template" templates={templates} />
        <button type="submit" className="p-button p-button-outlined">
          向本组发送短信
        </button>
      </form>
      <form method="post" className="sb-form" aria-label={`分组「${group.name}」转入外呼活动`}>
        <CsrfInput />
        <input type="hidden" name="intent" value="outbound" />
        <input type="hidden" name="groupId" value={group.id} />
        <div className="sb-field">
          <label htmlFor="group-campaign">外呼活动</label>
          <select id="group-campaign" name="campaignId" className="p-inputtext" defaultValue="">
            <option value="">请选择</option>
            {campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="p-button p-button-outlined">
          本组转入外呼活动
        </button>
      </form>
      <form method="post" className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="group.rename" />
        <input type="hidden" name="groupId" value={group.id} />
        <div className="sb-field">
          <label htmlFor="group-name">分组名称</label>
          <input id="group-name" name="name" maxLength={30} required defaultValue={group.name} className="p-inputtext" />
        </div>
        <button type="submit" className="p-button p-button-text">
          重命名
        </button>
      </form>
      <PostButton
        fields={{ intent: "group.delete", groupId: group.id }}
        label="删除分组"
        className="p-button p-button-danger p-button-text"
      />
    </>
  );
}

function ContactForm({
  properties,
  editing,
  refusal,
  missing,
}: {
  properties: CustomerProperty[];
  editing: CustomerContact | null;
  refusal: { initial: Record<string, unknown>; error: string | null } | undefined;
  missing: boolean;
}) {
  if (missing && !refusal) return <Notice tone="error">要编辑的联系人不在当前页，请在列表中重新选择。</Notice>;
  // What was typed comes back on a refusal; otherwise the contact's own values.
  const typed = (name: string): unknown => (refusal ? refusal.initial[name] : undefined);
  const initial = (name: string, fallback: string) => String(typed(name) ?? (refusal ? "" : fallback));
  const id = editing?.id ?? (refusal?.initial.id ? String(refusal.initial.id) : undefined);
  return (
    <section aria-labelledby="contact-form-title" className="sb-section">
      <h2 id="contact-form-title" className="sb-section-title">
        {id ? "编辑联系人" : "新建联系人"}
      </h2>
      <form method="post" className="sb-form-grid" aria-describedby={refusal?.error ? "contact-form-error" : undefined}>
        <CsrfInput />
        <input type="hidden" name="intent" value="contact.save" />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        {refusal?.error ? (
          <div id="contact-form-error" className="p-message p-message-error sb-message" role="alert">
            {refusal.error}
          </div>
        ) : null}
        <div className="sb-field">
          <label htmlFor="contact-name">姓名</label>
          <input id="contact-name" name="name" maxLength={64} defaultValue={initial("name", editing?.name ?? "")} className="p-inputtext" />
        </div>
        <div className="sb-field">
          <label htmlFor="contact-phone">手机号</label>
          <input
            id="contact-phone"
            name="phone"
            type="tel"
            required
            maxLength={20}
            defaultValue={initial("phone", editing?.phone ?? "")}
            className="p-inputtext"
          />
        </div>
        {properties.map((p) => {
          const key = `v${p.id}`;
          const own = editing?.values[String(p.id)];
          const label = `${p.name}${p.required ? "（必填）" : ""}`;
          if (p.type === "multi") {
            const chosen = refusal ? [typed(key)].flat().map(String) : Array.isArray(own) ? own : [];
            return (
              <fieldset key={p.id} className="sb-field">
                <legend>{label}</legend>
                <input type="hidden" name={`m${p.id}`} value="1" />
                {p.options.map((o) => (
                  <label key={o}>
                    <input type="checkbox" name={key} value={o} defaultChecked={chosen.includes(o)} /> {o}
                  </label>
                ))}
              </fieldset>
            );
          }
          const value = initial(key, typeof own === "string" ? own : "");
          return (
            <div className="sb-field" key={p.id}>
              <label htmlFor={`contact-${key}`}>{label}</label>
              {p.type === "single" ? (
                <select id={`contact-${key}`} name={key} defaultValue={value} className="p-inputtext">
                  <option value="">未填写</option>
                  {p.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`contact-${key}`}
                  name={key}
                  type={p.type === "date" ? "date" : p.type === "phone" ? "tel" : "text"}
                  inputMode={p.type === "number" ? "decimal" : undefined}
                  maxLength={200}
                  defaultValue={value}
                  className="p-inputtext"
                />
              )}
            </div>
          );
        })}
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={SCREEN}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
