import { useState, type FormEvent } from "react";
import { AuthenticityTokenInput, useAuthenticityToken } from "remix-utils/csrf/react";
import { WORK_ORDER_VALUE_MAX, checkWorkOrderValues } from "#contracts/work-order-values";
import type { WorkOrderField, WorkOrderTemplate } from "#contracts/work-orders";
import { postAction } from "#app/client/island";

/** A work order as the card shows it once there is one. */
export type LinkedWorkOrder = { id?: number; number: string; title: string; content?: string };

/** What the action kept of a post made without JavaScript (WorkOrderFormState): a refusal, or another template chosen. */
type Refused = { error: string | null; typed: Record<string, string> };

type Props = {
  /** Where the form posts: an island's endpoint (the workbenches) or the page's own action (the call detail). */
  endpoint: string;
  /** Where the form posts without JavaScript, when not the endpoint (a page's own action). */
  formAction?: string;
  /** Hidden fields naming what the order is made from: `{ ctiCallId }` or `{ sessionId }`. */
  link: Record<string, string>;
  /** The order already made from it, shown instead of the form. */
  linked: LinkedWorkOrder | null;
  /** The enabled templates; the first is the default. */
  templates: WorkOrderTemplate[];
  /** Where an order opens for this user (`/businessTemplate/record`), or null for no link. */
  recordBase?: string | null;
  /** Told of the order once made (the text workbench keeps it per chat). */
  onCreated?: (order: LinkedWorkOrder) => void;
  /** A refusal of a post made without JavaScript, with what was typed. */
  refused?: Refused | null;
  /** Whether React runs the card (the workbenches); otherwise a template is chosen by posting 换用此模板. */
  hydrated?: boolean;
};

/** The answer's work order, read without zod (this card ships with hydrated screens). */
function orderOf(result: unknown): LinkedWorkOrder | null {
  const order = (result as { workOrder?: Partial<LinkedWorkOrder> } | null)?.workOrder;
  return order && typeof order.number === "string" && typeof order.title === "string"
    ? { id: order.id, number: order.number, title: order.title, content: order.content }
    : null;
}

/**
 * The work order made from a call or a chat (decision 026): the one linked, or a form built from
 * the enabled templates that makes one. The same card in the voice workbench, the call detail and
 * the text workbench. It posts as a plain form (intent `workOrder`) and, once hydrated, through
 * the island so that what was typed stays on screen when the platform refuses it.
 */
export function WorkOrderCard({
  endpoint,
  formAction,
  link,
  linked,
  templates,
  recordBase = null,
  onCreated,
  refused = null,
  hydrated = true,
}: Props) {
  const csrf = useAuthenticityToken();
  const [created, setCreated] = useState<LinkedWorkOrder | null>(null);
  const [error, setError] = useState<string | null>(refused?.error ?? null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [templateId, setTemplateId] = useState<number | null>(refused?.typed.templateId ? Number(refused.typed.templateId) : null);
  // The templates may arrive after the card (with a call's screen pop): the first is the default.
  const template = templates.find((t) => t.id === templateId) ?? templates[0] ?? null;
  const order = created ?? linked;
  if (order) {
    const href = recordBase && order.id ? `${recordBase}/${order.id}` : null;
    return (
      <section className="sb-wb-card" aria-label="关联工单">
        <h2>关联工单 · {href ? <a href={href}>{order.number}</a> : order.number}</h2>
        <p>
          <strong>{order.title}</strong>
        </p>
        {order.content ? <p>{order.content}</p> : null}
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
    const answer = await postAction(endpoint, csrf, "workOrder", {
      ...link,
      templateId: template ? String(template.id) : "",
      title,
      content: String(form.get("content") ?? ""),
      values: checked.values,
    });
    setSaving(false);
    const saved = answer.ok ? orderOf(answer.result) : null;
    if (saved) {
      setCreated(saved);
      onCreated?.(saved);
    } else setError(answer.ok ? "创建工单失败" : answer.status === 0 ? "网络已断开，工单未创建" : answer.error);
  };
  const typed = refused?.typed ?? {};
  return (
    <section className="sb-wb-card" aria-label="创建工单">
      <h2>创建工单</h2>
      <form method="post" action={formAction ?? endpoint} onSubmit={submit} className="sb-form" noValidate>
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="workOrder" />
        {Object.entries(link).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {templates.length > 1 ? (
          <div className="sb-field">
            <label htmlFor="work-order-template">工单模板</label>
            <select
              id="work-order-template"
              name="templateId"
              value={template?.id ?? ""}
              onChange={(e) => setTemplateId(Number(e.target.value))}
              className="p-inputtext p-component"
            >
              {/* Not CodeOptions: its chunk would weigh on this island (app/components/code-select.tsx). */}
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {hydrated ? null : (
              <button type="submit" name="switchTemplate" value="1" className="p-button p-button-sm p-button-text" formNoValidate>
                换用此模板
              </button>
            )}
          </div>
        ) : template ? (
          <p className="sb-hint">
            <input type="hidden" name="templateId" value={template.id} />
            模板：{template.name}（{template.slaHours} 小时内处理）
          </p>
        ) : null}
        <div className="sb-field">
          <label htmlFor="work-order-title">工单标题</label>
          <input
            id="work-order-title"
            name="title"
            maxLength={100}
            defaultValue={typed.title}
            className="p-inputtext p-component"
            aria-invalid={error === "请填写工单标题" ? true : undefined}
          />
        </div>
        <div className="sb-field">
          <label htmlFor="work-order-content">工单内容</label>
          <textarea
            id="work-order-content"
            name="content"
            maxLength={2000}
            rows={3}
            defaultValue={typed.content}
            className="p-inputtextarea p-inputtext p-component"
          />
        </div>
        {template?.fields.map((field) => (
          <TemplateField
            key={`${template.id}-${field.name}`}
            field={field}
            value={typed[`value-${field.name}`]}
            error={fieldErrors[field.name]}
          />
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
function TemplateField({ field, value, error }: { field: WorkOrderField; value?: string; error?: string }) {
  const id = `work-order-${field.name}`;
  return (
    <div className="sb-field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? "（必填）" : ""}
      </label>
      <WorkOrderValueControl
        field={field}
        id={id}
        name={`value-${field.name}`}
        defaultValue={value ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-required={field.required || undefined}
      />
      {error ? (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

type ControlProps = {
  field: WorkOrderField;
  id: string;
  name: string;
  defaultValue: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  "aria-required"?: true;
};

/** The control a template field's type asks for, within its value limits (this card and the work-orders screen). */
export function WorkOrderValueControl({ field, ...props }: ControlProps) {
  if (field.type === "choice") {
    return (
      <select {...props} className="p-inputtext p-component">
        <option value="">请选择</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  }
  if (field.type === "longText") {
    return <textarea {...props} rows={3} maxLength={WORK_ORDER_VALUE_MAX.longText} className="p-inputtextarea p-inputtext p-component" />;
  }
  return (
    <input
      {...props}
      type={field.type === "date" ? "date" : field.type === "phone" ? "tel" : "text"}
      inputMode={field.type === "number" ? "decimal" : undefined}
      maxLength={WORK_ORDER_VALUE_MAX.text}
      className="p-inputtext p-component"
    />
  );
}
