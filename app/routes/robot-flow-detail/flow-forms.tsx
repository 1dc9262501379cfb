import { getFormProps, getInputProps } from "@conform-to/react";
import { FLOW_REASON_MAX } from "#contracts/robot";
import { CsrfInput } from "#app/components/csrf-input";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";

/** A version in review returned to draft with a reason; a refused reason comes back as typed. */
export function ReturnForm({ result }: { result: unknown }) {
  const [form, fields] = useIntentForm("return", result);
  return (
    <form method="post" {...getFormProps(form)} className="sb-inline-forms" aria-label="退回审核">
      <CsrfInput />
      <input type="hidden" name="intent" value="return" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field field={fields.reason} label="退回原因（必填）">
        <input
          {...getInputProps(fields.reason, { type: "text" })}
          required
          maxLength={FLOW_REASON_MAX}
          className={inputClass(fields.reason)}
        />
      </Field>
      <button type="submit" className="p-button p-button-warning">
        退回为草稿
      </button>
    </form>
  );
}

/** A sentence heard by the flow's first listening node: the one tested stays, so does one refused. */
export function NluForm({ result, tested }: { result: unknown; tested: string | undefined }) {
  const [form, fields] = useIntentForm("nlu", result, { sentence: tested ?? "" });
  return (
    <form method="post" {...getFormProps(form)} className="sb-inline-forms">
      <CsrfInput />
      <input type="hidden" name="intent" value="nlu" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field field={fields.sentence} label="客户说">
        <input {...getInputProps(fields.sentence, { type: "text" })} required maxLength={200} className={inputClass(fields.sentence)} />
      </Field>
      <button type="submit" className="p-button p-button-outlined">
        测试
      </button>
    </form>
  );
}
