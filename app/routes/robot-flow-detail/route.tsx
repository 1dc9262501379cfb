import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { AUDIT_ACTIONS, FLOW_VERSION_STATES, labelOf } from "#contracts/codes";
import { FlowState, flowActionsFor } from "#contracts/flow-versions";
import { FlowReturnInputSchema, type FlowDesign, type FlowVersion } from "#contracts/robot";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { FlowDiff } from "#app/components/flow-diff";
import { firstError } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { getFlow, getFlowDesign, moveFlowVersion, saveFlowParams, testNlu } from "#app/services/robot.server";
import { NluForm, ReturnForm } from "./flow-forms";
import { FlowParams } from "./params-form";
import { ParamsFormSchema } from "./schema";

export const handle: RouteHandle = { title: ROBOT_TITLES.flow };

const versionId = z.coerce.number({ required_error: "请选择版本", invalid_type_error: "请选择版本" }).int().positive("请选择版本");
const IntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("submit") }),
  FlowReturnInputSchema.extend({ intent: z.literal("return") }),
  z.object({ intent: z.literal("publish"), versionId, confirmed: z.literal("1").optional() }),
  z.object({ intent: z.literal("market"), versionId }),
  z.object({ intent: z.literal("cover"), versionId }),
  z.object({
    intent: z.literal("nlu"),
    sentence: z.string({ required_error: "请输入客户说的话" }).trim().min(1, "请输入客户说的话").max(200, "句子不能超过200个字符"),
  }),
]);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const id = idParam(params.id);
  // The working version's design (else the one in service): its parameters are edited here.
  const [detail, design] = await Promise.all([getFlow(caller, id), getFlowDesign(caller, id)]);
  return { detail, design };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = idParam(params.id);
  const here = `/robot/flow/${id}`;
  if (form.get("intent") === "params") {
    const submission = parseWithZod(form, { schema: ParamsFormSchema });
    if (submission.status !== "success") return rejectForm(submission);
    const done = await attempt(() => saveFlowParams(access.caller, id, submission.value.params));
    if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
    return redirectWithToast(`${here}#params-title`, `${done.value.version.name} 的参数已保存`);
  }
  const submission = parseWithZod(form, { schema: IntentSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  switch (input.intent) {
    case "nlu": {
      const done = await attempt(() => testNlu(access.caller, { flowId: id, sentence: input.sentence }));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return data({ nlu: { sentence: input.sentence, ...done.value } });
    }
    case "publish": {
      // The reviewer sees what changes against the version in service, then confirms.
      if (!input.confirmed) {
        const done = await attempt(() => getFlowDesign(access.caller, id, input.versionId));
        if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
        return data({ review: done.value });
      }
      const done = await attempt(() => moveFlowVersion(access.caller, id, "publish", { versionId: input.versionId }));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(here, `${done.value.flow.serviceVersion} 已发布，机器人的下一通电话按此版本进行`);
    }
    case "submit":
    case "return":
    case "market":
    case "cover": {
      const body = input.intent === "return" ? { reason: input.reason } : "versionId" in input ? { versionId: input.versionId } : {};
      const done = await attempt(() => moveFlowVersion(access.caller, id, input.intent, body));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      const words = {
        submit: "已提交审核",
        return: "已退回为草稿",
        market: "已上架",
        cover: `已复制为新草稿 ${done.value.versions[0]?.name ?? ""}`,
      };
      if (input.intent === "cover") return redirectWithToast(`${here}/design`, words.cover);
      return redirectWithToast(here, words[input.intent]);
    }
  }
}

export default function RobotFlowDetail() {
  const { detail, design } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname } = useLocation();
  const refusal = refusalOf(result);
  const refusedIntent = refusal?.initialValue?.intent;
  const error = refusal ? firstError(refusal) : null;
  const review = result && "review" in result ? result.review : undefined;
  const nlu = result && "nlu" in result ? result.nlu : undefined;
  const { flow, versions, history } = detail;
  const base = `/robot/flow/${flow.id}`;

  return (
    <Screen
      title={`${ROBOT_TITLES.flow}：${flow.name}`}
      actions={
        <>
          <a className="p-button" href={`${base}/design`}>
            设计
          </a>
          <a className="p-button p-button-text" href="/robot/flow">
            返回流程列表
          </a>
        </>
      }
    >
      {review ? <PublishReview review={review} cancelHref={pathname} /> : null}
      {error && refusedIntent !== "return" && refusedIntent !== "nlu" && refusedIntent !== "params" ? (
        <Notice tone="error">{error}</Notice>
      ) : null}
      <p>
        {flow.description || "（无说明）"} · 使用中的版本：<strong>{flow.serviceVersion ?? "未发布"}</strong> · 使用此流程的机器人：
        {flow.robotCount} 个
      </p>

      <section aria-labelledby="versions-title" className="sb-section">
        <h2 id="versions-title" className="sb-section-title">
          版本
        </h2>
        <DataTable<FlowVersion>
          caption="流程版本"
          rowKey="id"
          config={{
            list: versions,
            total: versions.length,
            eleItem: [
              { prop: "name", label: "版本", render: (v) => (v.inService ? <strong>{v.name}（使用中）</strong> : v.name) },
              { prop: "state", label: "状态", render: (v) => <CodeLabel table={FLOW_VERSION_STATES} code={v.state} /> },
              { prop: "basedOn", label: "复制自", render: (v) => v.basedOn ?? "—" },
              { prop: "nodeCount", label: "节点数", render: (v) => (v.nodeCount === 0 ? "0（录音话术）" : String(v.nodeCount)) },
              { prop: "returnReason", label: "退回原因", render: (v) => v.returnReason ?? "—" },
              { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
              { prop: "id", label: "操作", render: (v) => <VersionActions version={v} base={base} /> },
              {
                prop: "id",
                label: "定义",
                render: (v) => (
                  <a href={`${base}/definition?versionId=${v.id}`} download aria-label={`导出 Excel（${v.name} 的流程定义）`}>
                    导出 Excel
                  </a>
                ),
              },
            ],
          }}
        />
        {versions.some((v) => v.state === FlowState.review) ? <ReturnForm result={result} /> : null}
      </section>

      <FlowParams design={design} refusal={refusedIntent === "params" ? refusal : undefined} />

      <section aria-labelledby="nlu-title" className="sb-section">
        <h2 id="nlu-title" className="sb-section-title">
          意图测试
        </h2>
        <p className="sb-hint">
          输入客户可能说的一句话，查看第一个收听节点识别出的意图和走向（测试工作区版本，没有时测试使用中的版本）。
          <a href="/robot/flow/nlu-template" download>
            下载意图模板（Excel）
          </a>
        </p>
        <NluForm result={result} tested={nlu?.sentence} />
        {nlu ? (
          <p className="sb-nlu-result" id="nlu-result">
            节点「{nlu.nodeName}」识别为：<strong>{nlu.intentLabel}</strong>
            {nlu.keyword ? `（关键词“${nlu.keyword}”）` : ""}，走向：<strong>{nlu.nextName ?? (nlu.next || "（未设置）")}</strong>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="history-title" className="sb-section">
        <h2 id="history-title" className="sb-section-title">
          变更记录
        </h2>
        <DataTable
          caption="变更记录"
          rowKey="at"
          emptyMessage="暂无记录"
          config={{
            list: history.map((h, i) => ({ ...h, key: i })),
            total: history.length,
            eleItem: [
              { prop: "at", label: "时间", type: "datetime", minWidth: 150 },
              { prop: "actorName", label: "操作人" },
              { prop: "action", label: "操作", render: (h) => labelOf(AUDIT_ACTIONS, h.action) },
              { prop: "summary", label: "内容" },
              { prop: "reason", label: "原因", render: (h) => h.reason ?? "—" },
            ],
          }}
        />
      </section>
    </Screen>
  );
}

/** The buttons a version's state offers (contracts/flow-versions.ts); return has its own form (a reason is required). */
function VersionActions({ version, base }: { version: FlowVersion; base: string }) {
  const actions = flowActionsFor(version.state);
  const button = (intent: string, label: string) => (
    <PostButton key={intent} fields={{ intent, versionId: version.id }} label={label} ariaLabel={`${label} ${version.name}`} />
  );
  return (
    <div className="sb-row-actions">
      <a
        href={`${base}/design?version=${version.id}`}
        aria-label={`${version.state === FlowState.draft ? "设计" : "查看"} ${version.name}`}
      >
        {version.state === FlowState.draft ? "设计" : "查看"}
      </a>
      {actions.includes("submit") ? button("submit", "提交审核") : null}
      {actions.includes("publish") ? button("publish", "审核发布") : null}
      {actions.includes("rollback") && !version.inService ? button("publish", "回滚到此版本") : null}
      {actions.includes("market") ? button("market", "上架") : null}
      {actions.includes("cover") ? button("cover", "复制为新草稿") : null}
    </div>
  );
}

function PublishReview({ review, cancelHref }: { review: FlowDesign; cancelHref: string }) {
  const rollback = review.version.state !== FlowState.review;
  return (
    <ConfirmStep
      title={rollback ? `回滚到 ${review.version.name}` : `发布 ${review.version.name}`}
      fields={{ intent: "publish", versionId: String(review.version.id) }}
      confirmLabel={rollback ? "确认回滚" : "确认发布"}
      cancelHref={cancelHref}
      danger={false}
    >
      <p>
        {rollback ? "回滚后" : "发布后"}，使用此流程的机器人从下一通电话起按 {review.version.name} 对话。
        {review.problems.length > 0 ? `该版本有 ${review.problems.length} 个设计问题。` : ""}
      </p>
      {review.diff ? (
        <FlowDiff against={review.diff.against} changes={review.diff.changes} caption={`${review.version.name} 与使用中版本的差异`} />
      ) : (
        <p>目前没有使用中的版本。</p>
      )}
    </ConfirmStep>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
