import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { FlowState } from "#contracts/flow-versions";
import { FLOW_PARAMS_MAX, type FlowDesign, type FlowParamItem } from "#contracts/robot";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, editedVersion } from "#app/components/edited-version";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { useIntentForm } from "#app/components/intent-form";
import { BLANK_PARAM_ROWS, PARAM_KINDS, paramField } from "./schema";

/**
 * A version's input parameters (查看入参) and output states (输出状态): a form on a draft, a list
 * otherwise (a version under review or published never changes).
 */
export function FlowParams({ design, refusal }: { design: FlowDesign; refusal: SubmissionResult<string[]> | undefined }) {
  const { version } = design;
  const lists = { input: design.params, state: design.states };
  const editable = version.state === FlowState.draft;
  const [form, fields] = useIntentForm("params", refusal, { ...paramValues(lists), ...editedVersion(version) });
  // A refused edit keeps its rows on the page even when the version is no longer a draft (409).
  const showForm = editable || refusal !== undefined;
  return (
    <section aria-labelledby="params-title" className="sb-section">
      <h2 id="params-title" className="sb-section-title">
        流程参数（{version.name}）
      </h2>
      <p className="sb-hint">
        入参是外呼时传给机器人的客户数据（话术和条件里写作 {"{变量名}"}
        ），输出状态是通话结束后机器人给出的结果；通话详情的“查看入参”和“输出状态”显示使用中版本的这两组参数。
        {editable ? "清空一行即删除该参数。" : "只有草稿可以修改，请先复制为新草稿。"}
      </p>
      {showForm ? (
        <form method="post" {...getFormProps(form)} aria-label="编辑流程参数">
          <CsrfInput />
          <input type="hidden" name="intent" value="params" />
          <EditedVersionInputs versionId={fields.versionId} updatedAt={fields.updatedAt} />
          <FormErrors id={form.errorId} errors={form.errors} />
          {PARAM_KINDS.map(({ kind, label }) => (
            <ParamRows
              key={kind}
              kind={kind}
              label={label}
              items={lists[kind]}
              typed={refusal?.initialValue ?? undefined}
              fields={fields}
            />
          ))}
          {editable ? (
            <button type="submit" className="p-button">
              保存参数
            </button>
          ) : null}
        </form>
      ) : (
        PARAM_KINDS.map(({ kind, label }) => (
          <p key={kind}>
            {label}：{lists[kind].length ? lists[kind].map((p) => `${p.name}（${p.variable}）`).join("、") : "无"}
          </p>
        ))
      )}
    </section>
  );
}

function ParamRows({
  kind,
  label,
  items,
  typed,
  fields,
}: {
  kind: string;
  label: string;
  items: FlowParamItem[];
  typed: Record<string, unknown> | undefined;
  fields: ReturnType<typeof useIntentForm>[1];
}) {
  // Rows as posted when refused (so nothing typed is lost), else the version's and blank ones.
  const posted = Array.from({ length: FLOW_PARAMS_MAX }, (_, i) => i).filter(
    (i) => typed?.[paramField(kind, "Name", i)] !== undefined || typed?.[paramField(kind, "Variable", i)] !== undefined,
  );
  const count = Math.min(FLOW_PARAMS_MAX, Math.max(items.length + BLANK_PARAM_ROWS, (posted.at(-1) ?? -1) + 1));
  return (
    <fieldset className="sb-params">
      <legend>{label}</legend>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="sb-inline-forms">
          {(["Name", "Variable"] as const).map((part) => {
            const field = fields[paramField(kind, part, i)];
            return (
              <Field key={part} field={field} label={`${label}${i + 1} ${part === "Name" ? "名称" : "变量名"}`}>
                <input {...getInputProps(field, { type: "text" })} maxLength={30} className={inputClass(field)} />
              </Field>
            );
          })}
        </div>
      ))}
    </fieldset>
  );
}

/** The version's rows as the form names them: what the form shows before anything is posted. */
function paramValues(lists: Record<string, FlowParamItem[]>): Record<string, string> {
  return Object.fromEntries(
    PARAM_KINDS.flatMap(({ kind }) =>
      lists[kind].flatMap((item, i) => [
        [paramField(kind, "Name", i), item.name],
        [paramField(kind, "Variable", i), item.variable],
      ]),
    ),
  );
}
