import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { INTENT_LABELS, FLOW_NODE_TYPES } from "#contracts/codes";
import { FLOW_PROMPT_MAX, type FlowNode } from "#contracts/robot";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, type EditedVersion } from "#app/components/edited-version";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { useKeyedIntentForm } from "#app/components/intent-form";
import { PostButton } from "#app/components/row-actions";
import { nodeFormValue, type NodeFormValue } from "./node-edits";
import { CodeOptions, nameChoices } from "#app/components/code-select";

/**
 * A node of the flow: its fields and routes (read-only unless the version is a draft), made the
 * first or deleted. A refused save comes back with every field and row as typed.
 */
export function NodeForm({
  node,
  first,
  nodes,
  queues,
  edited,
  editable,
  result,
}: {
  node: FlowNode;
  first: boolean;
  nodes: FlowNode[];
  queues: string[];
  edited: EditedVersion;
  editable: boolean;
  result: unknown;
}) {
  const [form, fields] = useKeyedIntentForm<NodeFormValue & EditedVersion>("node.save", node.key, result, {
    ...nodeFormValue(node),
    ...edited,
  });
  // What the node is as saved decides which fields it has (a type changed shows its fields once saved).
  const type = node.type;
  const targets = (field: FieldMetadata<string>, label: string) => (
    <Field field={field} label={label}>
      <select {...getSelectProps(field)} disabled={!editable} className={inputClass(field)}>
        <option value="">（未设置）</option>
        {nodes
          .filter((n) => n.key !== node.key || type === "listen")
          .map((n) => (
            <option key={n.key} value={n.key}>
              {n.name}（{n.key}）
            </option>
          ))}
        {field.initialValue && !nodes.some((n) => n.key === field.initialValue) ? (
          <option value={field.initialValue}>不存在的节点「{field.initialValue}」</option>
        ) : null}
      </select>
    </Field>
  );
  return (
    <fieldset id={`node-${node.key}`} className="sb-flow-node" aria-labelledby={`node-${node.key}-legend`}>
      <legend id={`node-${node.key}-legend`}>
        {first ? "【开始】" : ""}
        {node.name}（{node.key}）
      </legend>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="node.save" />
        <EditedVersionInputs versionId={fields.versionId} updatedAt={fields.updatedAt} />
        <input type="hidden" name="key" value={node.key} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.type} label="类型">
          <select {...getSelectProps(fields.type)} disabled={!editable} className={inputClass(fields.type)}>
            <CodeOptions table={FLOW_NODE_TYPES} />
          </select>
        </Field>
        <Field field={fields.name} label="节点名称">
          <input
            {...getInputProps(fields.name, { type: "text" })}
            maxLength={30}
            readOnly={!editable}
            className={inputClass(fields.name)}
          />
        </Field>
        {type !== "branch" ? (
          <div className="sb-kb-wide">
            <Field field={fields.prompt} label={`话术（可用 {变量名} 插入流程入参，如 {customerName}）`}>
              <textarea
                {...getTextareaProps(fields.prompt)}
                rows={2}
                maxLength={FLOW_PROMPT_MAX}
                readOnly={!editable}
                className={`p-inputtextarea ${inputClass(fields.prompt)}`}
              />
            </Field>
          </div>
        ) : null}
        {type === "speak" ? targets(fields.next, "下一节点") : null}
        {type === "transfer" ? (
          <Field field={fields.queueName} label="转人工队列">
            <select {...getSelectProps(fields.queueName)} disabled={!editable} className={inputClass(fields.queueName)}>
              <option value="">机器人分配的队列（未分配时用活动的队列）</option>
              <CodeOptions table={nameChoices([...new Set([...queues, ...(node.queueName ? [node.queueName] : [])])])} />
            </select>
          </Field>
        ) : null}
        {type === "listen" ? (
          <>
            {fields.intents.getFieldList().map((item, i) => {
              const row = item.getFieldset();
              return (
                <div key={item.key} className="sb-flow-route" role="group" aria-label={`意图 ${i + 1}`}>
                  <Field field={row.intent} label={`意图 ${i + 1}`}>
                    <select {...getSelectProps(row.intent)} disabled={!editable} className={inputClass(row.intent)}>
                      <option value="">（不用）</option>
                      <CodeOptions table={INTENT_LABELS} />
                    </select>
                  </Field>
                  <Field field={row.keywords} label={`关键词 ${i + 1}（逗号分隔，留空用默认）`}>
                    <input {...getInputProps(row.keywords, { type: "text" })} readOnly={!editable} className={inputClass(row.keywords)} />
                  </Field>
                  {targets(row.next, `意图 ${i + 1} 去向`)}
                </div>
              );
            })}
            {targets(fields.otherNext, "未识别时去向")}
          </>
        ) : null}
        {type === "branch" ? (
          <>
            {fields.branches.getFieldList().map((item, i) => {
              const row = item.getFieldset();
              return (
                <div key={item.key} className="sb-flow-route" role="group" aria-label={`条件 ${i + 1}`}>
                  <Field field={row.variable} label={`条件 ${i + 1} 变量`}>
                    <input
                      {...getInputProps(row.variable, { type: "text" })}
                      maxLength={30}
                      readOnly={!editable}
                      className={inputClass(row.variable)}
                    />
                  </Field>
                  <Field field={row.value} label={`条件 ${i + 1} 等于`}>
                    <input
                      {...getInputProps(row.value, { type: "text" })}
                      maxLength={50}
                      readOnly={!editable}
                      className={inputClass(row.value)}
                    />
                  </Field>
                  {targets(row.next, `条件 ${i + 1} 去向`)}
                </div>
              );
            })}
            {targets(fields.otherNext, "其他情况去向")}
          </>
        ) : null}
        {editable ? (
          <div className="sb-form-actions">
            <button type="submit" className="p-button p-button-sm" aria-label={`保存节点「${node.name}」`}>
              保存节点
            </button>
          </div>
        ) : null}
      </form>
      {editable ? (
        <div className="sb-row-actions">
          {!first ? (
            <PostButton
              fields={{ intent: "node.first", ...edited, key: node.key }}
              label="设为开始节点"
              ariaLabel={`将「${node.name}」设为开始节点`}
            />
          ) : null}
          <PostButton
            fields={{ intent: "node.delete", ...edited, key: node.key }}
            label="删除节点"
            ariaLabel={`删除节点「${node.name}」`}
            danger
          />
        </div>
      ) : null}
    </fieldset>
  );
}
