import { getFormProps, getInputProps } from "@conform-to/react";
import { FLOW_NODE_TYPES } from "#contracts/codes";
import { FLOW_NODE_KEY_RULE } from "#contracts/robot";
import { CodeSelect } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, type EditedVersion } from "#app/components/edited-version";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";

/** A node added at the end of a draft: its key, type and name; what was typed comes back on a refusal. */
export function AddNodeForm({ edited, result }: { edited: EditedVersion; result: unknown }) {
  const [form, fields] = useIntentForm("node.add", result, { type: "speak", ...edited });
  const keyErrors = fields.key.errors ? ` ${fields.key.errorId}` : "";
  return (
    <form method="post" {...getFormProps(form)} className="sb-inline-forms" aria-labelledby="node-add-title">
      <h3 id="node-add-title">添加节点</h3>
      <CsrfInput />
      <input type="hidden" name="intent" value="node.add" />
      <EditedVersionInputs versionId={fields.versionId} updatedAt={fields.updatedAt} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field field={fields.key} label="节点编号">
        <input
          {...getInputProps(fields.key, { type: "text" })}
          required
          maxLength={20}
          pattern="[A-Za-z0-9_\-]{1,20}"
          title={FLOW_NODE_KEY_RULE}
          className={inputClass(fields.key)}
          aria-describedby={`add-key-hint${keyErrors}`}
        />
        <small id="add-key-hint" className="sb-hint">
          {FLOW_NODE_KEY_RULE}
        </small>
      </Field>
      <CodeSelect
        id={fields.type.id}
        name={fields.type.name}
        label="类型"
        table={FLOW_NODE_TYPES}
        defaultValue={String(fields.type.initialValue ?? "")}
      />
      <Field field={fields.name} label="节点名称">
        <input {...getInputProps(fields.name, { type: "text" })} required maxLength={30} className={inputClass(fields.name)} />
      </Field>
      <button type="submit" className="p-button p-button-outlined">
        添加节点
      </button>
    </form>
  );
}
