import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { FLOW_NODE_TYPES, FLOW_VERSION_STATES, INTENT_LABELS } from "#contracts/codes";
import { FlowState } from "#contracts/flow-versions";
import { FLOW_NODE_KEY_RULE, FLOW_PROMPT_MAX, type FlowNode } from "#contracts/robot";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, editedVersion, type EditedVersion } from "#app/components/edited-version";
import { PostButton } from "#app/components/row-actions";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { FlowDiagram } from "#app/components/flow-diagram";
import { FlowDiff } from "#app/components/flow-diff";
import { firstError } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listQueues } from "#app/services/config.server";
import { getFlowDesign, saveFlowDesign } from "#app/services/robot.server";
import { BRANCH_ROWS, DESIGN_SCHEMAS, INTENT_ROWS, isDesignIntent } from "./schema";

export const handle: RouteHandle = { title: ROBOT_TITLES.design };
const VersionQuerySchema = z.object({ version: z.coerce.number().int().positive().optional() });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const id = idParam(params.id);
  const query = VersionQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const [design, queues] = await Promise.all([
    getFlowDesign(caller, id, query.success ? query.data.version : undefined),
    listQueues(caller),
  ]);
  return { design, queues: queues.map((q) => q.name) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = idParam(params.id);
  const intent = form.get("intent");
  if (!isDesignIntent(intent)) throw data({ message: "请求参数错误", status: 400, what: ROBOT_TITLES.design }, { status: 400 });
  const submission = parseWithZod(form, { schema: DESIGN_SCHEMAS[intent] });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const current = await attempt(() => getFlowDesign(access.caller, id, input.versionId));
  if (!current.ok) return rejectForm(submission, { formErrors: [current.message] }, current.status);
  const nodes = current.value.nodes;
  const here = `/robot/flow/${id}/design?version=${input.versionId}`;
  let next: FlowNode[];
  let toast: string;
  if (input.intent === "node.save") {
    const { node } = input;
    next = nodes.map((n) => (n.key === node.key ? node : n));
    toast = `节点「${node.name}」已保存`;
  } else if (input.intent === "node.add") {
    if (nodes.some((n) => n.key === input.key)) return rejectForm(submission, { fieldErrors: { key: [`节点编号「${input.key}」已存在`] } });
    next = [
      ...nodes,
      { key: input.key, type: input.type, name: input.name, prompt: "", next: "", intents: [], branches: [], otherNext: "" },
    ];
    toast = `已添加节点「${input.name}」，请填写它的话术和去向`;
  } else if (input.intent === "node.first") {
    const first = nodes.find((n) => n.key === input.key);
    next = first ? [first, ...nodes.filter((n) => n !== first)] : nodes;
    toast = `「${first?.name ?? input.key}」已设为开始节点`;
  } else {
    const gone = nodes.find((n) => n.key === input.key);
    if (!input.confirmed) {
      return data({ confirm: { key: input.key, name: gone?.name ?? input.key, versionId: input.versionId, updatedAt: input.updatedAt } });
    }
    next = nodes.filter((n) => n.key !== input.key);
    toast = `节点「${gone?.name ?? input.key}」已删除`;
  }
  if (next.length === 0) return rejectForm(submission, { formErrors: ["流程至少需要一个节点"] });
  // Written on the version the form was read from, as it was then: never on a draft that replaced
  // it, never over a save made since, in another tab or by someone else (the platform refuses both, 409).
  const edited = { versionId: input.versionId, updatedAt: input.updatedAt };
  const saved = await attempt(() => saveFlowDesign(access.caller, id, next, edited));
  if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
  const problems = saved.value.problems.length;
  return redirectWithToast(here, problems ? `${toast}；流程还有 ${problems} 个问题待修改` : toast);
}

export default function RobotFlowDesign() {
  const { design, queues } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? result : undefined;
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const { flow, version, nodes, problems, diff } = design;
  const editable = version.state === FlowState.draft;
  const problemKeys = new Set(problems.flatMap((p) => (p.nodeKey ? [p.nodeKey] : [])));
  const refusedKey = refusal?.initialValue?.intent === "node.save" ? String(refusal.initialValue.key ?? "") : null;
  const addRefused = refusal?.initialValue?.intent === "node.add" ? refusal : undefined;
  const generalError = refusal && !refusedKey && !addRefused ? firstError(refusal) : null;
  const edited = editedVersion(version, refusal);

  return (
    <Screen
      title={`${ROBOT_TITLES.design}：${flow.name} ${version.name}`}
      actions={
        <a className="p-button p-button-text" href={`/robot/flow/${flow.id}`}>
          返回版本列表
        </a>
      }
    >
      {confirm ? (
        <ConfirmStep
          title="删除节点"
          fields={{ intent: "node.delete", key: confirm.key, versionId: String(confirm.versionId), updatedAt: confirm.updatedAt }}
          confirmLabel="确认删除"
          cancelHref={`${pathname}${search}`}
        >
          <p>确定删除节点「{confirm.name}」吗？指向它的去向会变为无效，需要重新设置。</p>
        </ConfirmStep>
      ) : null}
      {generalError ? <Notice tone="error">{generalError}</Notice> : null}
      <p>
        状态：
        <CodeLabel table={FLOW_VERSION_STATES} code={version.state} />
        {version.inService ? "（使用中）" : ""} · 使用中的版本：{flow.serviceVersion ?? "未发布"}
        {version.returnReason ? ` · 退回原因：${version.returnReason}` : ""}
      </p>
      {!editable ? (
        <Notice tone="info">
          {version.state === FlowState.review
            ? "该版本正在审核，不能修改；审核人可在版本列表发布或退回。"
            : "已发布的版本不可修改；要修改请在版本列表中“复制为新草稿”。"}
        </Notice>
      ) : null}

      <section aria-labelledby="problems-title" className="sb-section">
        <h2 id="problems-title" className="sb-section-title">
          设计检查
        </h2>
        {problems.length === 0 ? (
          <Notice tone="success">没有发现问题，可以提交审核。</Notice>
        ) : (
          <div>
            <p>发现 {problems.length} 个问题，修改后才能提交审核：</p>
            <ul className="sb-flow-problems">
              {problems.map((p, i) => (
                <li key={i}>{p.nodeKey ? <a href={`#node-${p.nodeKey}`}>{p.message}</a> : p.message}</li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <section aria-labelledby="diagram-title" className="sb-section">
        <h2 id="diagram-title" className="sb-section-title">
          流程图
        </h2>
        <div className="sb-flow-diagram-wrap">
          <FlowDiagram nodes={nodes} problemKeys={problemKeys} title={`${flow.name} ${version.name} 流程图`} />
        </div>
      </section>

      {diff ? (
        <section aria-labelledby="diff-title" className="sb-section">
          <h2 id="diff-title" className="sb-section-title">
            与使用中版本的差异
          </h2>
          <FlowDiff against={diff.against} changes={diff.changes} caption={`${version.name} 与 ${diff.against} 的差异`} />
        </section>
      ) : null}

      <section aria-labelledby="nodes-title" className="sb-section">
        <h2 id="nodes-title" className="sb-section-title">
          节点（第一个为开始节点）
        </h2>
        {nodes.map((node, index) => (
          <NodeForm
            key={node.key}
            node={node}
            first={index === 0}
            nodes={nodes}
            queues={queues}
            edited={edited}
            editable={editable}
            refusal={refusedKey === node.key ? refusal : undefined}
          />
        ))}
        {editable ? (
          <form method="post" className="sb-inline-forms" aria-labelledby="node-add-title">
            <h3 id="node-add-title">添加节点</h3>
            <CsrfInput />
            <input type="hidden" name="intent" value="node.add" />
            <EditedVersionInputs edited={edited} />
            <div className="sb-field">
              <label htmlFor="add-key">节点编号</label>
              <input
                id="add-key"
                name="key"
                required
                maxLength={20}
                pattern="[A-Za-z0-9_\-]{1,20}"
                title={FLOW_NODE_KEY_RULE}
                defaultValue={String(addRefused?.initialValue?.key ?? "")}
                className={`p-inputtext${addRefused ? " p-invalid" : ""}`}
                aria-invalid={addRefused ? true : undefined}
                aria-describedby={addRefused ? "add-key-hint add-error" : "add-key-hint"}
              />
              <small id="add-key-hint" className="sb-hint">
                {FLOW_NODE_KEY_RULE}
              </small>
              {addRefused ? (
                <small id="add-error" className="p-error">
                  {firstError(addRefused)}
                </small>
              ) : null}
            </div>
            <div className="sb-field">
              <label htmlFor="add-type">类型</label>
              <select id="add-type" name="type" defaultValue={String(addRefused?.initialValue?.type ?? "speak")} className="p-inputtext">
                {FLOW_NODE_TYPES.map((t) => (
                  <option key={t.code} value={t.code}>
                    {t.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="sb-field">
              <label htmlFor="add-name">节点名称</label>
              <input
                id="add-name"
                name="name"
                required
                maxLength={30}
                defaultValue={String(addRefused?.initialValue?.name ?? "")}
                className="p-inputtext"
              />
            </div>
            <button type="submit" className="p-button p-button-outlined">
              添加节点
            </button>
          </form>
        ) : null}
      </section>
    </Screen>
  );
}

type Refusal = { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };

function NodeForm({
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
