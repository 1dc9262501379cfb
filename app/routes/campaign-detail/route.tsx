import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { BATCH_STATUSES, CAMPAIGN_STATES, CAMPAIGN_TYPES, SCHEDULE_CYCLES, TASK_TYPES, labelOf } from "#contracts/codes";
import type { Batch } from "#contracts/outbound";
import { requireAccess, requireUploadAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ListPageSchema, idParam, pagination, parseListQuery } from "#app/server/page-query.server";
import { CAMPAIGN_TITLES } from "#app/lib/screens";
import {
  changeCampaignState,
  checkScheduler,
  getCampaign,
  getTransTemplate,
  listBatches,
  listCampaignImports,
  setCampaignRatio,
  uploadContacts,
} from "#app/services/outbound.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalMessageOf, useIntentForm } from "#app/components/intent-form";
import { ContactSources } from "./contact-sources";
import { contactsToCampaign, listGroups } from "#app/services/customers.server";

export const handle: RouteHandle = { title: CAMPAIGN_TITLES.detail };

/** The user's moves from each campaign state (the scheduler has the last word). */
const STATE_ACTIONS: Record<number, Array<{ to: number; label: string }>> = {
  0: [
    { to: 1, label: "启动" },
    { to: 4, label: "取消活动" },
  ],
  1: [
    { to: 2, label: "暂停" },
    { to: 4, label: "取消活动" },
  ],
  2: [
    { to: 1, label: "恢复" },
    { to: 4, label: "取消活动" },
  ],
};

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("state"), state: z.coerce.number().int() }),
  z.object({
    intent: z.literal("ratio"),
    ratio: z.coerce.number({ invalid_type_error: "外呼比例应为数字" }).min(0.1, "外呼比例应在0.1到5之间").max(5, "外呼比例应在0.1到5之间"),
  }),
  z.object({ intent: z.literal("import") }),
  z.object({
    intent: z.literal("group"),
    groupId: z.coerce
      .number({ required_error: "请选择联系人分组", invalid_type_error: "请选择联系人分组" })
      .int()
      .positive("请选择联系人分组"),
  }),
]);

/** What an action answers when it does not redirect: a refusal (with the value typed) or an import's outcome. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const id = idParam(params.id);
  const query = parseListQuery(request, ListPageSchema);
  const [campaign, batches, imports, groups] = await Promise.all([
    getCampaign(access.caller, id),
    listBatches(access.caller, { ...pagination(query), campaignId: id }),
    listCampaignImports(access.caller, id),
    listGroups(access.caller),
  ]);
  const template = campaign.transTemplateId === null ? null : await getTransTemplate(access.caller, campaign.transTemplateId);
  return { campaign, template, batches, imports, groups, query };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = idParam(params.id);
  // The list goes on to the platform as it arrives (the import form's intent comes before its file).
  const {
    access,
    form,
    sent: imported,
  } = await requireUploadAccess(request, (access, fieldsBefore, file) =>
    fieldsBefore.get("intent") === "import" ? attempt(() => uploadContacts(access.caller, id, file)) : undefined,
  );
  const submission = parseWithZod(form, { schema: ActionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  if (input.intent === "import") {
    if (!imported) return rejectForm(submission, { formErrors: ["请选择要导入的 CSV 或 XLSX 文件"] });
    // The import's outcome is shown here, with its refused rows: a page, not a redirect.
    if (!imported.ok) return rejectForm(submission, { formErrors: [imported.message] }, imported.status);
    if (imported.value.status === "running") return redirectWithToast(`/campaign/${id}`, "名单较大，正在后台导入；进度见下方导入记录");
    return data({ imported: imported.value });
  }
  if (input.intent === "group") {
    // A contact group as the source of a new batch: the same checks as a file, per-row reasons.
    const sent = await attempt(() => contactsToCampaign(access.caller, id, { ids: [], groupId: input.groupId }));
    if (!sent.ok) return rejectForm(submission, { formErrors: [sent.message] }, sent.status);
    return data({ fromGroup: sent.value });
  }
  if (input.intent === "state") {
    // Spec §4: every state change is preceded by the scheduler's check; its refusal says why.
    const check = await checkScheduler(access.caller, id, input.state);
    if (!check.allowed) return rejectForm(submission, { formErrors: [`调度检查未通过：${check.reason ?? "未知原因"}`] });
  }
  const done = await attempt(() =>
    input.intent === "state" ? changeCampaignState(access.caller, id, input.state) : setCampaignRatio(access.caller, id, input.ratio),
  );
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  const message = input.intent === "state" ? `活动已${labelOf(CAMPAIGN_STATES, input.state)}` : `外呼比例已设为 ${input.ratio}`;
  return redirectWithToast(`/campaign/${id}`, message);
}

export default function CampaignDetail() {
  const { campaign, template, batches, imports, groups, query } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // A refusal names its form by the intent it was posted with; an import answers its outcome.
  const errorOf = (intent: string) => refusalMessageOf(result, intent);
  const [ratioForm, ratio] = useIntentForm("ratio", result, { ratio: String(campaign.ratio) });
  const { pathname, search } = useLocation();
  return (
    <Screen
      title={`${CAMPAIGN_TITLES.detail}：${campaign.name}`}
      actions={
        <>
          <a className="p-button p-button-outlined" href={`/campaign/${campaign.id}/edit`}>
            编辑
          </a>
          <a className="p-button p-button-outlined" href="/campaign">
            返回列表
          </a>
        </>
      }
    >
      <dl className="sb-facts">
        <dt>活动类型</dt>
        <dd>{labelOf(CAMPAIGN_TYPES, campaign.type)}</dd>
        <dt>任务类型</dt>
        <dd>{labelOf(TASK_TYPES, campaign.taskType)}</dd>
        <dt>调度周期</dt>
        <dd>{labelOf(SCHEDULE_CYCLES, campaign.cycle)}</dd>
        <dt>状态</dt>
        <dd data-testid="campaign-state">
          <CodeLabel table={CAMPAIGN_STATES} code={campaign.state} />
        </dd>
        <dt>外呼时段</dt>
        <dd>{campaign.windows.map((w) => `${w.start}–${w.end}`).join("，")}</dd>
        <dt>机器人</dt>
        <dd>{campaign.instanceName ?? "—"}</dd>
        <dt>坐席队列</dt>
        <dd>{campaign.queueName ?? "—"}</dd>
        <dt>主叫号码</dt>
        <dd>{campaign.callerNumber ?? "—"}</dd>
        <dt>转接模板</dt>
        <dd>{template?.name ?? "—"}</dd>
        <dt>已呼/名单</dt>
        <dd>
          {campaign.callDone} / {campaign.callTotal}
        </dd>
      </dl>

      <section aria-labelledby="state-title" className="sb-section">
        <h2 id="state-title" className="sb-section-title">
          活动状态
        </h2>
        {errorOf("state") ? <Notice tone="error">{errorOf("state")}</Notice> : null}
        <div className="sb-inline-forms">
          {(STATE_ACTIONS[campaign.state] ?? []).map((move) => (
            <form method="post" key={move.to}>
              <AuthenticityTokenInput name="csrf" />
              <input type="hidden" name="intent" value="state" />
              <input type="hidden" name="state" value={move.to} />
              <button type="submit" className={`p-button${move.to === 4 ? " p-button-danger p-button-outlined" : ""}`}>
                {move.label}
              </button>
            </form>
          ))}
          {STATE_ACTIONS[campaign.state] ? null : <p>活动已{labelOf(CAMPAIGN_STATES, campaign.state)}，不能再变更状态。</p>}
        </div>
      </section>

      <section aria-labelledby="ratio-title" className="sb-section">
        <h2 id="ratio-title" className="sb-section-title">
          外呼比例
        </h2>
        <form method="post" {...getFormProps(ratioForm)} className="sb-inline-forms">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="ratio" />
          <FormErrors id={ratioForm.errorId} errors={ratioForm.errors} />
          <Field field={ratio.ratio} label="外呼比例（0.1–5）">
            <input
              {...getInputProps(ratio.ratio, { type: "number" })}
              step="0.1"
              min="0.1"
              max="5"
              required
              className={inputClass(ratio.ratio)}
            />
          </Field>
          <button type="submit" className="p-button">
            保存比例
          </button>
        </form>
      </section>

      <section aria-labelledby="import-title" className="sb-section">
        <h2 id="import-title" className="sb-section-title">
          导入名单
        </h2>
        <ContactSources
          campaignId={campaign.id}
          groups={groups}
          imports={imports}
          result={result}
          imported={result && "imported" in result ? result.imported : undefined}
          fromGroup={result && "fromGroup" in result ? result.fromGroup : undefined}
        />
      </section>

      <section aria-labelledby="batches-title" className="sb-section">
        <h2 id="batches-title" className="sb-section-title">
          批次
        </h2>
        <p>
          <a href={`/campaign/${campaign.id}/export`}>导出名单数据（CSV）</a>
        </p>
        <DataTable<Batch>
          caption="批次"
          rowKey="id"
          config={{
            list: batches.list,
            total: batches.total,
            eleItem: [
              { prop: "name", label: "批次", render: (b) => <a href={`/campaign/${campaign.id}/batch/${b.id}`}>{b.name}</a> },
              { prop: "status", label: "状态", render: (b) => <CodeLabel table={BATCH_STATUSES} code={b.status} /> },
              { prop: "total", label: "名单数" },
              { prop: "open", label: "待呼/呼叫中" },
              { prop: "startedAt", label: "开始时间", type: "datetime", minWidth: 150 },
              { prop: "finishedAt", label: "结束时间", type: "datetime", minWidth: 150 },
            ],
          }}
        />
        <Paginator total={batches.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
