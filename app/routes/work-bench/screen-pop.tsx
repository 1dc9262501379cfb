import { useEffect, useRef, useState, type FormEvent } from "react";
import { CALL_ORIGIN_LABELS, CALL_RESULTS, CUSTOMER_ROLE, DIALOG_ROLES, GENDERS, INTENT_LABELS, labelOf } from "#contracts/codes";
import type { PhoneSnapshot } from "#contracts/cti";
import { WorkOrderInfoSchema, type WorkOrderInfo } from "#contracts/workbench";
import { WORK_ORDER_VALUE_MAX, checkWorkOrderValues, type WorkOrderField, type WorkOrderTemplate } from "#contracts/work-orders";
import { formatDateTime, maskPhone } from "#app/lib/format";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { postAction } from "#app/client/island";
import { PHONE_ENDPOINT } from "./types";
import type { WorkbenchData } from "./types";

/** The screen pop of the current call: customer, live transcript, script, previous record, work order. */
export function ScreenPop({ phone, pop }: { phone: PhoneSnapshot; pop: WorkbenchData["pop"] }) {
  const call = phone.call;
  const transcriptEnd = useRef<HTMLLIElement>(null);
  // A block body: newer browsers return a promise from scrollIntoView, which must not become the cleanup.
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: "nearest" });
  }, [call?.transcript.length]);
  if (!call) {
    return (
      <section className="sb-wb-card" aria-label="来电信息">
        <h2>来电信息</h2>
        <p>{phone.agent.state === "READY" ? "等待来电…" : "就绪后即可接听来电"}</p>
      </section>
    );
  }
  const current = pop?.ctiCallId === call.ctiCallId ? pop : null;
  const contact = current?.contact;
  return (
    <>
      <section className="sb-wb-card" aria-label="客户信息">
        <h2>客户信息</h2>
        <dl>
          <dt>客户</dt>
          <dd data-testid="customer-name">{contact?.name ?? (current ? "未知客户" : "加载中…")}</dd>
          <dt>电话</dt>
          <dd>{maskPhone(call.phone)}</dd>
          <dt>来源</dt>
          <dd>{labelOf(CALL_ORIGIN_LABELS, call.origin)}</dd>
          {contact ? (
            <>
              <dt>性别</dt>
              <dd>{labelOf(GENDERS, contact.gender)}</dd>
              <dt>公司</dt>
              <dd>{contact.company ?? "—"}</dd>
              <dt>标签</dt>
              <dd>{contact.tags.join("、") || "—"}</dd>
              <dt>备注</dt>
              <dd>{contact.remark ?? "—"}</dd>
            </>
          ) : null}
          {current?.campaign ? (
            <>
              <dt>外呼活动</dt>
              <dd>{current.campaign.name}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="sb-wb-card" aria-label="对话记录">
        <h2>对话记录</h2>
        {call.transcript.length === 0 ? (
          <p>暂无对话</p>
        ) : (
          <ol className="sb-transcript">
            {call.transcript.map((line) => (
              <li key={line.segmentId} className={line.thisRole === CUSTOMER_ROLE ? "sb-transcript-customer" : undefined}>
                <small>{labelOf(DIALOG_ROLES, line.thisRole)}</small>
                {line.dialogContent}
              </li>
            ))}
            <li ref={transcriptEnd} hidden />
          </ol>
        )}
      </section>
      {current?.flow ? (
        <section className="sb-wb-card" aria-label="服务话术">
          <h2>服务话术 · {current.flow.flowName}</h2>
          <ol>
            {current.flow.steps.map((step) => (
              <li key={step.title}>
                <strong>{step.title}</strong>：{step.content}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {current?.previous ? (
        <section className="sb-wb-card" aria-label="上次业务记录">
          <h2>上次业务记录</h2>
          <dl>
            <dt>通话结果</dt>
            <dd>{labelOf(CALL_RESULTS, current.previous.callResult)}</dd>
            <dt>意向</dt>
            <dd>{current.previous.intent ? labelOf(INTENT_LABELS, current.previous.intent) : "—"}</dd>
            <dt>备注</dt>
            <dd>{current.previous.remark || "—"}</dd>
            <dt>处理坐席</dt>
            <dd>{current.previous.agentName}</dd>
            <dt>时间</dt>
            <dd>{formatDateTime(Date.parse(current.previous.createdAt))}</dd>
          </dl>
        </section>
      ) : null}
      <WorkOrder key={call.ctiCallId} ctiCallId={call.ctiCallId} linked={current?.workOrder ?? null} templates={current?.templates ?? []} />
    </>
  );
}

/** The call's work order: the linked one, or a form built from the enabled templates that creates one for this call. */
function WorkOrder({ ctiCallId, linked, templates }: { ctiCallId: string; linked: WorkOrderInfo | null; templates: WorkOrderTemplate[] }) {
  const csrf = useAuthenticityToken();
  const [created, setCreated] = useState<WorkOrderInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [templateId, setTemplateId] = useState<number | null>(null);
  // The templates may arrive after the card (with the call's screen pop): the first is the default.
  const template = templates.find((t) => t.id === templateId) ?? templates[0] ?? null;
  const order = created ?? linked;
  if (order) {
    return (
      <section className="sb-wb-card" aria-label="关联工单">
        <h2>关联工单 · {order.number}</h2>
        <p>
          <strong>{order.title}</strong>
        </p>
        <p>{order.content}</p>
      </section>
    );
  }
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const title = String(form.get("title") ?? "").trim();
    const raw = Object.fromEntries((template?.fields ?? []).map((f) => [f.name, String(form.get(`value-${f.name}`) ?? "")]));
    const checked = checkWorkOrderValues(template?.fields ?? [], raw);
    setFieldErrors(checked.errors);
    if (!title) return setError("请填写工单标题");
    if (Object.keys(checked.errors).length > 0) return setError("请检查工单字段");
    setSaving(true);
    setError(null);
    // What was typed stays in the form until the platform has the order.
    const answer = await postAction<{ workOrder?: unknown }>(PHONE_ENDPOINT, csrf, "workOrder", {
      ctiCallId,
      templateId: template ? String(template.id) : "",
      title,
      content: String(form.get("content") ?? ""),
      values: checked.values,
    });
    setSaving(false);
    const saved = answer.ok ? WorkOrderInfoSchema.safeParse(answer.result.workOrder) : null;
    if (saved?.success) setCreated(saved.data);
    else setError(answer.ok ? "创建工单失败" : answer.status === 0 ? "网络已断开，工单未创建" : answer.error);
  };
  return (
    <section className="sb-wb-card" aria-label="创建工单">
      <h2>创建工单</h2>
      <form onSubmit={submit} className="sb-form" noValidate>
        {templates.length > 1 ? (
          <div className="sb-field">
            <label htmlFor="work-order-template">工单模板</label>
            <select
              id="work-order-template"
              value={template?.id ?? ""}
              onChange={(e) => setTemplateId(Number(e.target.value))}
              className="p-inputtext p-component"
            >
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
        ) : template ? (
          <p className="sb-hint">
            模板：{template.name}（{template.slaHours} 小时内处理）
          </p>
        ) : null}
        <div className="sb-field">
          <label htmlFor="work-order-title">工单标题</label>
          <input
            id="work-order-title"
            name="title"
            maxLength={100}
            className="p-inputtext p-component"
            aria-invalid={error === "请填写工单标题" ? true : undefined}
          />
        </div>
        <div className="sb-field">
          <label htmlFor="work-order-content">工单内容</label>
          <textarea id="work-order-content" name="content" maxLength={2000} rows={3} className="p-inputtextarea p-inputtext p-component" />
        </div>
        {template?.fields.map((field) => (
          <TemplateField key={`${template.id}-${field.name}`} field={field} error={fieldErrors[field.name]} />
        ))}
        {error ? (
          <p className="p-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="p-button p-button-sm p-button-outlined" disabled={saving}>
          {saving ? "创建中…" : "创建工单"}
        </button>
      </form>
    </section>
  );
}

/** One field of the template, as the control its type asks for. */
function TemplateField({ field, error }: { field: WorkOrderField; error?: string }) {
  const id = `work-order-${field.name}`;
  const common = {
    id,
    name: `value-${field.name}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
    "aria-required": field.required || undefined,
  };
  const control =
    field.type === "choice" ? (
      <select {...common} className="p-inputtext p-component" defaultValue="">
        <option value="">请选择</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    ) : field.type === "longText" ? (
      <textarea {...common} rows={3} maxLength={WORK_ORDER_VALUE_MAX.longText} className="p-inputtextarea p-inputtext p-component" />
    ) : (
      <input
        {...common}
        type={field.type === "date" ? "date" : field.type === "phone" ? "tel" : "text"}
        inputMode={field.type === "number" ? "decimal" : undefined}
        maxLength={WORK_ORDER_VALUE_MAX.text}
        className="p-inputtext p-component"
      />
    );
  return (
    <div className="sb-field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? "（必填）" : ""}
      </label>
      {control}
      {error ? (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}
