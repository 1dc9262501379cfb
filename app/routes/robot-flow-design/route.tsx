import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { FLOW_VERSION_STATES } from "#contracts/codes";
import { FlowState } from "#contracts/flow-versions";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { editedVersion } from "#app/components/edited-version";
import { refusalOf } from "#app/components/intent-form";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { FlowDiagram } from "#app/components/flow-diagram";
import { FlowDiff } from "#app/components/flow-diff";
import { firstError } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { parseIntent, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { AddNodeForm } from "./add-node-form";
import { editDesign, loadDesign } from "./design.server";
import { NodeForm } from "./node-form";
import { DESIGN_SCHEMAS } from "./schema";

export const handle: RouteHandle = { title: ROBOT_TITLES.design };
const VersionQuerySchema = z.object({ version: z.coerce.number().int().positive().optional() });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = VersionQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  return loadDesign(caller, idParam(params.id), query.success ? query.data.version : undefined);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = idParam(params.id);
  const { submission } = parseIntent(form, DESIGN_SCHEMAS, ROBOT_TITLES.design);
  if (submission.status !== "success") return rejectForm(submission);
  return editDesign(access.caller, id, submission.value, (errors, status) => rejectForm(submission, errors, status));
}

export default function RobotFlowDesign() {
  const { design, queues } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = refusalOf(result);
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const { flow, version, nodes, problems, diff } = design;
  const editable = version.state === FlowState.draft;
  const problemKeys = new Set(problems.flatMap((p) => (p.nodeKey ? [p.nodeKey] : [])));
  // A node's save or an added node is refused on its form; the page shows any other refusal.
  const onForm = refusalOf(result, "node.save") ?? refusalOf(result, "node.add");
  const generalError = refusal && !onForm ? firstError(refusal) : null;
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
            result={result}
          />
        ))}
        {editable ? <AddNodeForm edited={edited} result={result} /> : null}
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
