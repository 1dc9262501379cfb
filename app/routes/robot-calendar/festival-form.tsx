import { getFormProps, getInputProps } from "@conform-to/react";
import { FESTIVAL_DAYS_MAX, FESTIVAL_NAME_MAX, type Festival } from "#contracts/robot-resources";
import { CsrfInput } from "#app/components/csrf-input";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";
import { SCREEN } from "./schema";

/** A festival added, or the one chosen edited: its name and days; a refused one comes back as typed. */
export function FestivalForm({ editing, result }: { editing: Festival | null; result: unknown }) {
  const [form, fields] = useIntentForm(
    "festival.save",
    result,
    editing ? { id: String(editing.id), name: editing.name, startDate: editing.startDate, endDate: editing.endDate } : undefined,
  );
  const edited = Boolean(fields.id.initialValue);
  return (
    <form method="post" {...getFormProps(form)} className="sb-form-grid" aria-label={edited ? "编辑节假日" : "新建节假日"}>
      <CsrfInput />
      <input type="hidden" name="intent" value="festival.save" />
      <input {...getInputProps(fields.id, { type: "hidden" })} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field field={fields.name} label="节日名称">
        <input
          {...getInputProps(fields.name, { type: "text" })}
          required
          maxLength={FESTIVAL_NAME_MAX}
          className={inputClass(fields.name)}
        />
      </Field>
      <Field field={fields.startDate} label="开始日期">
        <input {...getInputProps(fields.startDate, { type: "date" })} required className={inputClass(fields.startDate)} />
      </Field>
      <Field field={fields.endDate} label="结束日期（含当天）">
        <input {...getInputProps(fields.endDate, { type: "date" })} required className={inputClass(fields.endDate)} />
      </Field>
      <p className="sb-hint sb-kb-wide">节假日之间不能重叠；一个节日最长{FESTIVAL_DAYS_MAX}天。</p>
      <div className="sb-form-actions">
        <button type="submit" className="p-button">
          {edited ? "保存节假日" : "添加节假日"}
        </button>
        <a className="p-button p-button-text" href={SCREEN}>
          取消
        </a>
      </div>
    </form>
  );
}
