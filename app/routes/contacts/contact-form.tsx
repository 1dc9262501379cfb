import type { CustomerContact, CustomerProperty } from "#contracts/customers";
import { CodeSelect } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { SCREEN } from "./values";

/** A property's choices for `CodeSelect`. */
export const optionTable = (options: string[]) => options.map((o) => ({ code: o, label: o }));

/** A contact created or edited: name, phone and a field per property (`v<id>`, a multiple choice also `m<id>`). */
export function ContactForm({
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
          if (p.type === "single")
            return (
              <CodeSelect
                key={p.id}
                id={`contact-${key}`}
                name={key}
                label={label}
                table={optionTable(p.options)}
                defaultValue={value}
                empty="未填写"
              />
            );
          return (
            <div className="sb-field" key={p.id}>
              <label htmlFor={`contact-${key}`}>{label}</label>
              <input
                id={`contact-${key}`}
                name={key}
                type={p.type === "date" ? "date" : p.type === "phone" ? "tel" : "text"}
                inputMode={p.type === "number" ? "decimal" : undefined}
                maxLength={200}
                defaultValue={value}
                className="p-inputtext"
              />
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
