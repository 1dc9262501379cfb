import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ConfirmStep } from "#app/components/confirm";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { idCursors } from "#app/lib/list-url";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireUploadAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { stageImport } from "#app/services/customers.server";
import { ContactFilters } from "./contact-filters";
import { ContactForm } from "./contact-form";
import { ContactHistory, ContactTable } from "./contact-list";
import {
  changeGroup,
  deleteContactsStep,
  importContacts,
  loadContacts,
  reachContacts,
  saveContactForm,
  type Confirm,
  type Mapping,
  type Posted,
} from "./contacts.server";
import { ContactImport } from "./import";
import { ContactsQuerySchema, INTENT_SCHEMAS, type ContactsQuery } from "./schema";
import { BulkForm, GroupPanel, SmsPreview } from "./sending";
import { SCREEN, screenHref } from "./values";

const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const query = parseListQuery(request, ContactsQuerySchema) as ContactsQuery;
  return loadContacts(caller, query, user.role === "admin");
}

export async function action({ request }: ActionFunctionArgs) {
  // A contact file goes on to the platform as it arrives; the platform keeps it and names its columns.
  const {
    access,
    form,
    sent: staged,
  } = await requireUploadAccess(request, (access, fieldsBefore, file) =>
    fieldsBefore.get("intent") === "import" ? attempt(() => stageImport(access.caller, file)) : undefined,
  );
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const posted: Posted = {
    caller: access.caller,
    search: new URL(request.url).search,
    fail: (done) => rejectForm(submission, { formErrors: [done.message] }, done.status),
  };
  switch (input.intent) {
    case "contact.save":
      return saveContactForm(posted, input, form);
    case "contacts.delete":
      return deleteContactsStep(posted, input);
    case "group.create":
    case "group.add":
    case "group.remove":
    case "group.rename":
    case "group.delete":
      return changeGroup(posted, input);
    case "outbound":
    case "sms":
      return reachContacts(posted, input);
    case "import":
    case "import.mapped":
      return importContacts(posted, input, staged);
  }
}

export default function Contacts() {
  const { query, admin, properties, groups, contacts, templates, campaigns, editing, historyOf, history } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = refusalOf(result);
  const refusedIntent = refusal?.initialValue?.intent;
  const error = refusal ? firstError(refusal) : null;
  const confirm = result && "confirm" in result ? (result.confirm as Confirm) : undefined;
  const imported = result && "imported" in result ? result.imported : undefined;
  const mapping = result && "mapping" in result ? (result.mapping as Mapping) : undefined;
  const outbound = result && "outbound" in result ? result.outbound : undefined;
  const group = groups.find((g) => g.id === query.group) ?? null;
  const showForm = admin && (query.edit !== undefined || refusedIntent === "contact.save");

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
          <ContactFilters query={query} properties={properties} admin={admin} />
          {showForm ? (
            <ContactForm properties={properties} editing={editing} result={result} missing={typeof query.edit === "number" && !editing} />
          ) : null}
          <BulkForm admin={admin} groups={groups} campaigns={campaigns} templates={templates} />
          <ContactTable contacts={contacts} properties={properties} admin={admin} keyword={query.keyword} search={search} />
          <Paginator
            total={contacts.total}
            estimated={contacts.estimated}
            pageNo={query.page}
            pageSize={query.size}
            pathname={pathname}
            search={search}
            cursors={idCursors(contacts.list)}
          />
          {historyOf && history ? <ContactHistory contact={historyOf} history={history} /> : null}
          {admin ? <ContactImport properties={properties} mapping={mapping} imported={imported} /> : null}
        </div>
      </div>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
