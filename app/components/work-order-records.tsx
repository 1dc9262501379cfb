import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { useActionData, useLocation } from "@remix-run/react";
import { WORK_ORDER_FIELD_TYPES, WORK_ORDER_STATES, labelOf } from "#contracts/codes";
import { WORK_ORDER_NOTE_MAX, isWorkOrderOpen, nextWorkOrderStates, type WorkOrderRecord } from "#contracts/work-orders";
import { CodeOptions, CodeSelect, FilterSelect, namedChoices } from "#app/components/code-select";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { FilterBar, Notice } from "#app/components/filters";
import { Field, FormErrors, firstError } from "#app/components/form-field";
import { refusalOf, useIntentForm } from "#app/components/intent-form";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { WorkOrderValueControl } from "#app/components/work-order-form";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { loadWorkOrders } from "#app/server/work-order-records.server";

type Loaded = Awaited<ReturnType<typeof loadWorkOrders>>;
type ListData = Extract<Loaded, { kind: "list" }>;
type DetailData = Extract<Loaded, { kind: "detail" }>;

const at = (iso: string | null) => (iso ? formatDateTime(Date.parse(iso)) : "—");

/** A record's due time, marked when it is past due and still open. */
function Due({ record }: { record: WorkOrderRecord }) {
  if (!record.dueAt) return <>—</>;
  return record.overdue ? <span className="sb-wo-overdue">{at(record.dueAt)}（已超时）</span> : <>{at(record.dueAt)}</>;
}

export function WorkOrderScreen({ title, base, loaded }: { title: string; base: string; loaded: Loaded }) {
  return loaded.kind === "list" ? (
    <WorkOrderList title={title} base={base} loaded={loaded} />
  ) : (
    <WorkOrderDetailView base={base} loaded={loaded} />
  );
}

function WorkOrderList({ title, base, loaded }: { title: string; base: string; loaded: ListData }) {
  const { query, templates, page, users, me, nextNumber } = loaded;
  const { pathname, search } = useLocation();
  const reply = useActionData<unknown>();
  const creating = query.create === "1" || refusalOf(reply, "create") !== undefined;
  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={`${base}?create=1`}>
          新建工单
        </a>
      }
    >
      {creating ? <CreateForm base={base} loaded={loaded} reply={reply} nextNumber={nextNumber} /> : null}
      <FilterBar label="筛选工单" size={query.size} resetHref={pathname}>
        <div className="sb-field">
          <label htmlFor="wo-keyword">编号或标题</label>
          <input id="wo-keyword" name="keyword" type="search" maxLength={50} defaultValue={query.keyword ?? ""} className="p-inputtext" />
        </div>
        <FilterSelect id="wo-template" name="templateId" label="模板" table={namedChoices(templates)} value={query.templateId} />
        <FilterSelect id="wo-state" name="state" label="状态" table={WORK_ORDER_STATES} value={query.state} />
        {me.canReassign ? (
          <FilterSelect id="wo-owner" name="ownerId" label="处理人" table={namedChoices(users)} value={query.ownerId} />
        ) : (
          <div className="sb-field sb-field-check">
            <input id="wo-mine" name="mine" type="checkbox" value="1" defaultChecked={query.mine === "1"} />
            <label htmlFor="wo-mine">只看我处理的</label>
          </div>
        )}
        <div className="sb-field">
          <label htmlFor="wo-from">创建日期从</label>
          <input id="wo-from" name="from" type="date" defaultValue={query.from ?? ""} className="p-inputtext" />
        </div>
        <div className="sb-field">
          <label htmlFor="wo-to">到</label>
          <input id="wo-to" name="to" type="date" defaultValue={query.to ?? ""} className="p-inputtext" />
        </div>
        <div className="sb-field sb-field-check">
          <input id="wo-overdue" name="overdue" type="checkbox" value="1" defaultChecked={query.overdue === "1"} />
          <label htmlFor="wo-overdue">只看已超时</label>
        </div>
      </FilterBar>
      <DataTable<WorkOrderRecord>
        caption="工单列表"
        rowKey="id"
        emptyMessage="暂无工单"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            {
              prop: "number",
              label: "工单编号",
              render: (r) => (
                <a href={`${base}/${r.id}`} aria-label={`工单 ${r.number}`}>
                  {r.number}
                </a>
              ),
            },
            { prop: "title", label: "标题" },
            { prop: "templateName", label: "模板", render: (r) => r.templateName ?? "—" },
            { prop: "state", label: "状态", render: (r) => <CodeLabel table={WORK_ORDER_STATES} code={r.state} /> },
            { prop: "ownerName", label: "处理人", render: (r) => r.ownerName ?? "待接收" },
            { prop: "createdByName", label: "创建人", render: (r) => r.createdByName ?? "—" },
            { prop: "createdAt", label: "创建时间", type: "datetime", minWidth: 150 },
            { prop: "dueAt", label: "截止时间", minWidth: 150, render: (r) => <Due record={r} /> },
          ],
        }}
      />
      <Paginator total={page.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

/** A new record: first the template (a GET form), then its fields; the platform gives the number. */
function CreateForm({
  base,
  loaded,
  reply,
  nextNumber,
}: {
  base: string;
  loaded: ListData;
  /** The action's answer: a refused order comes back with its template and everything typed. */
  reply: unknown;
  nextNumber: string | null;
}) {
  const [form, fields] = useIntentForm("create", reply);
  const enabled = loaded.templates.filter((t) => t.status === 1);
  const typedTemplate = Number(fields.templateId.initialValue) || undefined;
  const template = enabled.find((t) => t.id === (loaded.query.template ?? typedTemplate)) ?? (enabled.length === 1 ? enabled[0] : null);
  // A control with an error says so, and names the message under it.
  const described = (field: FieldMetadata<unknown>) =>
    field.errors ? { "aria-invalid": true as const, "aria-describedby": field.errorId } : {};
  return (
    <section aria-labelledby="wo-create-title" className="sb-section">
      <h2 id="wo-create-title" className="sb-section-title">
        新建工单{nextNumber ? `（编号将为 ${nextNumber}）` : ""}
      </h2>
      <form method="get" action={base} className="sb-inline-forms" aria-label="选择工单模板">
        <input type="hidden" name="create" value="1" />
        <CodeSelect
          id="wo-create-template-choice"
          name="template"
          label="工单模板"
          table={namedChoices(enabled)}
          defaultValue={template ? String(template.id) : ""}
          empty="不使用模板"
        />
        <button type="submit" className="p-button p-button-outlined">
          选择模板
        </button>
      </form>
      <form method="post" action={base} {...getFormProps(form)} className="sb-form" aria-label="工单内容">
        <CsrfInput />
        <input type="hidden" name="intent" value="create" />
        {template ? <input type="hidden" name="templateId" value={template.id} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="sb-form-grid">
          <Field field={fields.title} label="工单标题（必填）">
            <input {...getInputProps(fields.title, { type: "text" })} required maxLength={100} className="p-inputtext" />
          </Field>
          <Field field={fields.content} label="工单内容">
            <textarea {...getTextareaProps(fields.content)} rows={3} maxLength={2000} className="p-inputtextarea p-inputtext" />
          </Field>
          {template?.fields.map((f) => {
            const field = fields[`values.${f.name}`]!;
            return (
              <Field key={f.name} field={field} label={`${f.label}${f.required ? "（必填）" : ""}`}>
                <WorkOrderValueControl
                  field={f}
                  id={field.id}
                  name={field.name}
                  defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
                  {...described(field)}
                />
              </Field>
            );
          })}
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            创建工单
          </button>
          <a className="p-button p-button-text" href={base}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}

/** A state the order moves to and why; a refusal (someone moved it first) keeps what was typed. */
function FollowForm({ result, stateChoices }: { result: unknown; stateChoices: readonly number[] }) {
  const [form, fields] = useIntentForm("follow", result);
  return (
    <form method="post" {...getFormProps(form)} className="sb-form" aria-label="跟进工单">
      <CsrfInput />
      <input type="hidden" name="intent" value="follow" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="sb-form-grid">
        <Field field={fields.state} label="变更为">
          <select {...getSelectProps(fields.state)} required className="p-inputtext">
            <option value="">请选择</option>
            {stateChoices.map((code) => (
              <option key={code} value={code}>
                {labelOf(WORK_ORDER_STATES, code)}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.note} label="跟进说明">
          <textarea
            {...getTextareaProps(fields.note)}
            required
            rows={3}
            maxLength={WORK_ORDER_NOTE_MAX}
            className="p-inputtextarea p-inputtext"
          />
        </Field>
      </div>
      <div className="sb-form-actions">
        <button type="submit" className="p-button">
          提交跟进
        </button>
      </div>
    </form>
  );
}

/** The order handed to another user, with a note; a refusal keeps who was chosen and the note. */
function ReassignForm({ result, users }: { result: unknown; users: Array<{ id: number; name: string }> }) {
  const [form, fields] = useIntentForm("reassign", result);
  return (
    <form method="post" {...getFormProps(form)} className="sb-form" aria-label="转派工单">
      <CsrfInput />
      <input type="hidden" name="intent" value="reassign" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="sb-form-grid">
        <Field field={fields.userId} label="转派给">
          <select {...getSelectProps(fields.userId)} required className="p-inputtext">
            <option value="">请选择</option>
            <CodeOptions table={namedChoices(users)} />
          </select>
        </Field>
        <Field field={fields.note} label="转派说明">
          <input {...getInputProps(fields.note, { type: "text" })} maxLength={WORK_ORDER_NOTE_MAX} className="p-inputtext" />
        </Field>
      </div>
      <div className="sb-form-actions">
        <button type="submit" className="p-button p-button-outlined">
          转派
        </button>
      </div>
    </form>
  );
}

function WorkOrderDetailView({ base, loaded }: { base: string; loaded: DetailData }) {
  const { detail, users, me } = loaded;
  const { record, template, follows, call } = detail;
  const result = useActionData<SubmissionResult<string[]>>();
  const refused = refusalOf(result);
  const refusedIntent = refused?.initialValue?.intent;
  const errorOf = (intent: string) => (refusedIntent === intent ? firstError(refused!) : null);
  const open = isWorkOrderOpen(record.state);
  const mine = record.ownerId === me.id;
  // A refused follow (a state this one no longer allows: someone else moved it first) keeps its form and what was typed.
  const canFollow = (open && (mine || me.canReassign)) || refusedIntent === "follow";
  const offered = nextWorkOrderStates(record.state);
  const typedState = refusedIntent === "follow" ? Number(refused?.initialValue?.state) : 0;
  const stateChoices = offered.length > 0 || !typedState ? offered : [typedState];
  return (
    <Screen
      title={`工单 ${record.number}`}
      actions={
        <a className="p-button p-button-outlined" href={base}>
          返回工单列表
        </a>
      }
    >
      <dl className="sb-facts">
        <div>
          <dt>状态</dt>
          <dd>
            <CodeLabel table={WORK_ORDER_STATES} code={record.state} />
          </dd>
        </div>
        <div>
          <dt>模板</dt>
          <dd>{record.templateName ?? "—"}</dd>
        </div>
        <div>
          <dt>处理人</dt>
          <dd>{record.ownerName ?? "待接收"}</dd>
        </div>
        <div>
          <dt>创建人</dt>
          <dd>{record.createdByName ?? "—"}</dd>
        </div>
        <div>
          <dt>创建时间</dt>
          <dd>{at(record.createdAt)}</dd>
        </div>
        <div>
          <dt>截止时间</dt>
          <dd>
            <Due record={record} />
          </dd>
        </div>
      </dl>

      <div className="sb-wo-columns">
        <section aria-labelledby="wo-content-title" className="sb-section">
          <h2 id="wo-content-title" className="sb-section-title">
            {record.title}
          </h2>
          <p>{record.content || "（无内容）"}</p>
          {template && template.fields.length > 0 ? (
            <dl className="sb-facts">
              {template.fields.map((f) => (
                <div key={f.name}>
                  <dt>
                    {f.label}（{labelOf(WORK_ORDER_FIELD_TYPES, f.type)}）
                  </dt>
                  <dd>{record.values[f.name] ? (f.type === "phone" ? maskPhone(record.values[f.name]) : record.values[f.name]) : "—"}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </section>

        <section aria-labelledby="wo-call-title" className="sb-section">
          <h2 id="wo-call-title" className="sb-section-title">
            关联通话
          </h2>
          {call ? (
            <>
              <p>
                {maskPhone(call.phone)} · {call.direction === "inbound" ? "呼入" : "外呼"} · {at(call.callTime)} · 时长{" "}
                {formatDuration(call.callDuration)}
              </p>
              <p className="sb-row-actions">
                <a href={`/callHistory/${call.id}`}>查看通话详情</a>
                {call.hasRecording ? <a href={`/callHistory/${call.id}/recording`}>下载通话录音</a> : <span>暂无录音可下载</span>}
              </p>
            </>
          ) : (
            <p>{record.ctiCallId ? "通话尚未结束或记录不可见" : "该工单未关联通话"}</p>
          )}
        </section>
      </div>

      <section aria-labelledby="wo-actions-title" className="sb-section">
        <h2 id="wo-actions-title" className="sb-section-title">
          处理
        </h2>
        {!open && refusedIntent !== "follow" ? <p>工单{labelOf(WORK_ORDER_STATES, record.state)}，无需再处理。</p> : null}
        {open && !mine ? (
          <form method="post" className="sb-inline-forms">
            <CsrfInput />
            <input type="hidden" name="intent" value="receive" />
            <button type="submit" className="p-button">
              接收工单
            </button>
            {errorOf("receive") ? <Notice tone="error">{errorOf("receive")}</Notice> : null}
          </form>
        ) : null}
        {canFollow ? (
          <FollowForm result={result} stateChoices={stateChoices} />
        ) : open && !me.canReassign ? (
          <p className="sb-hint">接收工单后即可跟进。</p>
        ) : null}
        {open && me.canReassign ? <ReassignForm result={result} users={users.filter((u) => u.id !== record.ownerId)} /> : null}
      </section>

      <section aria-labelledby="wo-history-title" className="sb-section">
        <h2 id="wo-history-title" className="sb-section-title">
          处理记录
        </h2>
        <ol className="sb-wo-history">
          {follows.map((f) => (
            <li key={f.id}>
              <strong>{at(f.createdAt)}</strong> {f.actorName}{" "}
              {f.kind === "create"
                ? "创建了工单"
                : f.kind === "receive"
                  ? "接收了工单"
                  : f.kind === "reassign"
                    ? "转派了工单"
                    : `将状态由「${labelOf(WORK_ORDER_STATES, f.fromState)}」变更为「${labelOf(WORK_ORDER_STATES, f.toState)}」`}
              {f.note ? `：${f.note}` : ""}
            </li>
          ))}
        </ol>
      </section>
    </Screen>
  );
}
