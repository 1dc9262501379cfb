import { INTENT_LABELS, FLOW_NODE_TYPES } from "#contracts/codes";
import { FLOW_PROMPT_MAX, type FlowNode } from "#contracts/robot";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, type EditedVersion } from "#app/components/edited-version";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { PostButton } from "#app/components/row-actions";
import { BRANCH_ROWS, INTENT_ROWS } from "./schema";

type Refusal = { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };

/** A node of the flow: its fields and routes (read-only unless the version is a draft), made the first or deleted. */
export function NodeForm({
  node,
  first,
  nodes,
  queues,
  edited,
  editable,
  refusal,
}: {
  node: FlowNode;
  first: boolean;
  nodes: FlowNode[];
  queues: string[];
  edited: EditedVersion;
  editable: boolean;
  refusal: Refusal | undefined;
}) {
  const id = (field: string) => `node-${node.key}-${field}`;
  const typed = refusal?.initialValue as Record<string, string> | undefined;
  const value = (field: string, fallback: string) => (typed ? (typed[field] ?? "") : fallback);
  const errorOf = (field: string) => refusal?.error?.[field]?.[0] ?? null;
  const invalid = (field: string) =>
    errorOf(field)
      ? { "aria-invalid": true as const, "aria-describedby": `${id(field)}-error`, className: "p-inputtext p-invalid" }
      : { className: "p-inputtext" };
  const errorText = (field: string) =>
    errorOf(field) ? (
      <small id={`${id(field)}-error`} className="p-error">
        {errorOf(field)}
      </small>
    ) : null;
  const targets = (field: string, current: string, label: string) => (
    <div className="sb-field">
      <label htmlFor={id(field)}>{label}</label>
      <select id={id(field)} name={field} defaultValue={value(field, current)} disabled={!editable} {...invalid(field)}>
        <option value="">（未设置）</option>
        {nodes
          .filter((n) => n.key !== node.key || node.type === "listen")
          .map((n) => (
            <option key={n.key} value={n.key}>
              {n.name}（{n.key}）
            </option>
          ))}
        {current && !nodes.some((n) => n.key === current) ? <option value={current}>不存在的节点「{current}」</option> : null}
      </select>
      {errorText(field)}
    </div>
  );
  const type = node.type;
  return (
    <fieldset id={`node-${node.key}`} className="sb-flow-node" aria-labelledby={id("legend")}>
      <legend id={id("legend")}>
        {first ? "【开始】" : ""}
        {node.name}（{node.key}）
      </legend>
      <form method="post" className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="node.save" />
        <EditedVersionInputs edited={edited} />
        <input type="hidden" name="key" value={node.key} />
        {refusal && firstError(refusal as never) && !Object.keys(refusal.error ?? {}).some((k) => k && errorOf(k)) ? (
          <Notice tone="error">{firstError(refusal as never)}</Notice>
        ) : null}
        <div className="sb-field">
          <label htmlFor={id("type")}>类型</label>
          <select id={id("type")} name="type" defaultValue={value("type", type)} disabled={!editable} {...invalid("type")}>
            {FLOW_NODE_TYPES.map((t) => (
              <option key={t.code} value={t.code}>
                {t.label}
              </option>
            ))}
          </select>
          {errorText("type")}
        </div>
        <div className="sb-field">
          <label htmlFor={id("name")}>节点名称</label>
          <input
            id={id("name")}
            name="name"
            maxLength={30}
            defaultValue={value("name", node.name)}
            readOnly={!editable}
            {...invalid("name")}
          />
          {errorText("name")}
        </div>
        {type !== "branch" ? (
          <div className="sb-field sb-kb-wide">
            <label htmlFor={id("prompt")}>
              话术（可用 {"{变量名}"} 插入流程入参，如 {"{customerName}"}）
            </label>
            <textarea
              id={id("prompt")}
              name="prompt"
              rows={2}
              maxLength={FLOW_PROMPT_MAX}
              defaultValue={value("prompt", node.prompt)}
              readOnly={!editable}
              {...invalid("prompt")}
              className={`p-inputtextarea ${invalid("prompt").className}`}
            />
            {errorText("prompt")}
          </div>
        ) : null}
        {type === "speak" ? targets("next", node.next, "下一节点") : null}
        {type === "transfer" ? (
          <div className="sb-field">
            <label htmlFor={id("queueName")}>转人工队列</label>
            <select
              id={id("queueName")}
              name="queueName"
              defaultValue={value("queueName", node.queueName ?? "")}
              disabled={!editable}
              {...invalid("queueName")}
            >
              <option value="">机器人分配的队列（未分配时用活动的队列）</option>
              {[...new Set([...queues, ...(node.queueName ? [node.queueName] : [])])].map((queue) => (
                <option key={queue} value={queue}>
                  {queue}
                </option>
              ))}
            </select>
            {errorText("queueName")}
          </div>
        ) : null}
        {type === "listen" ? (
          <>
            {Array.from({ length: INTENT_ROWS }, (_, i) => {
              const route = node.intents[i];
              return (
                <div key={i} className="sb-flow-route" role="group" aria-label={`意图 ${i + 1}`}>
                  <div className="sb-field">
                    <label htmlFor={id(`intent${i}`)}>意图 {i + 1}</label>
                    <select
                      id={id(`intent${i}`)}
                      name={`intent${i}`}
                      defaultValue={value(`intent${i}`, route?.intent ?? "")}
                      disabled={!editable}
                      {...invalid(`intent${i}`)}
                    >
                      <option value="">（不用）</option>
                      {INTENT_LABELS.map((intent) => (
                        <option key={intent.code} value={intent.code}>
                          {intent.label}
                        </option>
                      ))}
                    </select>
                    {errorText(`intent${i}`)}
                  </div>
                  <div className="sb-field">
                    <label htmlFor={id(`keywords${i}`)}>关键词 {i + 1}（逗号分隔，留空用默认）</label>
                    <input
                      id={id(`keywords${i}`)}
                      name={`keywords${i}`}
                      defaultValue={value(`keywords${i}`, route?.keywords.join("，") ?? "")}
                      readOnly={!editable}
                      {...invalid(`keywords${i}`)}
                    />
                    {errorText(`keywords${i}`)}
                  </div>
                  {targets(`intentNext${i}`, route?.next ?? "", `意图 ${i + 1} 去向`)}
                </div>
              );
            })}
            {targets("otherNext", node.otherNext, "未识别时去向")}
          </>
        ) : null}
        {type === "branch" ? (
          <>
            {Array.from({ length: BRANCH_ROWS }, (_, i) => {
              const route = node.branches[i];
              return (
                <div key={i} className="sb-flow-route" role="group" aria-label={`条件 ${i + 1}`}>
                  <div className="sb-field">
                    <label htmlFor={id(`variable${i}`)}>条件 {i + 1} 变量</label>
                    <input
                      id={id(`variable${i}`)}
                      name={`variable${i}`}
                      maxLength={30}
                      defaultValue={value(`variable${i}`, route?.variable ?? "")}
                      readOnly={!editable}
                      {...invalid(`variable${i}`)}
                    />
                    {errorText(`variable${i}`)}
                  </div>
                  <div className="sb-field">
                    <label htmlFor={id(`value${i}`)}>条件 {i + 1} 等于</label>
                    <input
                      id={id(`value${i}`)}
                      name={`value${i}`}
                      maxLength={50}
                      defaultValue={value(`value${i}`, route?.value ?? "")}
                      readOnly={!editable}
                      className="p-inputtext"
                    />
                  </div>
                  {targets(`branchNext${i}`, route?.next ?? "", `条件 ${i + 1} 去向`)}
                </div>
              );
            })}
            {targets("otherNext", node.otherNext, "其他情况去向")}
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
