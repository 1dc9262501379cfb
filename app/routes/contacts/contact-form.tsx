import { getCollectionProps, getFormProps, getInputProps } from "@conform-to/react";
import type { CustomerContact, CustomerProperty } from "#contracts/customers";
import { CodeSelect } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalOf, useIntentForm } from "#app/components/intent-form";
import { SCREEN } from "./values";

/** A property's choices for `CodeSelect`. */
export const optionTable = (options: string[]) => options.map((o) => ({ code: o, label: o }));

/** The form's values of a contact: name, phone and each property's value (`v<id>`). */
const contactValues = (contact: CustomerContact) => ({
  id: String(contact.id),
  name: contact.name,
  phone: contact.phone,
  ...Object.fromEntries(Object.entries(contact.values).map(([propertyId, value]) => [`v${propertyId}`, value])),
});

/** A contact created or edited: name, phone and a field per property (`v<id>`, a multiple choice also `m<id>`). */
export function ContactForm({
  properties,
  editing,
  result,
  missing,
}: {
  properties: CustomerProperty[];
  editing: CustomerContact | null;
  /** The action's answer: a refused save comes back with what was typed. */
  result: unknown;
  missing: boolean;
}) {
  const [form, fields] = useIntentForm("contact.save", result, editing ? contactValues(editing) : undefined);
  if (missing && !refusalOf(result, "contact.save")) return <Notice tone="error">要编辑的联系人不在当前页，请在列表中重新选择。</Notice>;
  const id = typeof fields.id.initialValue === "string" ? fields.id.initialValue : undefined;
  return (
    <section aria-labelledby="contact-form-title" className="sb-section">
      <h2 id="contact-form-title" className="sb-section-title">
        {id ? "编辑联系人" : "新建联系人"}
      </h2>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="contact.save" />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.name} label="姓名">
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={64} className={inputClass(fields.name)} />
        </Field>
        <Field field={fields.phone} label="手机号">
          <input {...getInputProps(fields.phone, { type: "tel" })} required maxLength={20} className={inputClass(fields.phone)} />
        </Field>
        {properties.map((p) => {
          const field = fields[`v${p.id}`]!;
          const label = `${p.name}${p.required ? "（必填）" : ""}`;
          if (p.type === "multi") {
            return (
              <fieldset key={p.id} className="sb-field">
                <legend>{label}</legend>
                <input type="hidden" name={`m${p.id}`} value="1" />
                {getCollectionProps(field, { type: "checkbox", options: p.options }).map(({ key, ...box }) => (
                  <label key={key}>
                    <input {...box} /> {box.value}
                  </label>
                ))}
              </fieldset>
            );
          }
          const value = typeof field.initialValue === "string" ? field.initialValue : "";
          if (p.type === "single")
            return (
              <CodeSelect
                key={p.id}
                id={field.id}
                name={field.name}
                label={label}
                table={optionTable(p.options)}
                defaultValue={value}
                empty="未填写"
              />
            );
          return (
            <div className="sb-field" key={p.id}>
              <label htmlFor={field.id}>{label}</label>
              <input
                id={field.id}
                name={field.name}
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
