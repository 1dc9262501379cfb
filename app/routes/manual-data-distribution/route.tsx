import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { AGENT_DIALLED_CAMPAIGN_TYPES, CAMPAIGN_TYPES, labelOf } from "#contracts/codes";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { CodeSelect } from "#app/components/code-select";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listUsers } from "#app/services/crm.server";
import { distributeContacts, selectCampaigns, unassignedCount } from "#app/services/outbound.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { FormErrors } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";

const title = SCREEN_TITLES["/manual/dataDistribution"];
export const handle: RouteHandle = { title };

const QuerySchema = z.object({
  campaignId: z.coerce.number().int().positive().optional(),
});

/**
 * Spec §2's first-segment rule opens this page to an agent who has /manual/preview; distributing
 * is a supervisor's or administrator's act (the platform refuses it from an agent too), so an
 * agent sees what waits, not the form.
 */
const MODES = [
  { value: "even", label: "平均分配" },
  { value: "count", label: "按数量分配" },
];
const DISTRIBUTORS_ONLY = "仅主管或管理员可以分配数据";
const mayDistribute = (role: string) => role !== "agent";

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  const distributor = mayDistribute(access.user.role);
  const [campaigns, users] = await Promise.all([
    selectCampaigns(access.caller, AGENT_DIALLED_CAMPAIGN_TYPES),
    distributor ? listUsers(access.caller) : { list: [] },
  ]);
  // Without a choice, the first running campaign (the one most likely to need its data shared).
  const campaign = campaigns.find((c) => c.id === query.campaignId) ?? campaigns.find((c) => c.state === 1) ?? campaigns[0] ?? null;
  const agents = users.list.filter((u) => u.workType !== 3);
  return {
    distributor,
    campaigns,
    campaign,
    agents,
    unassigned: campaign ? await unassignedCount(access.caller, campaign.id) : 0,
  };
}

/**
 * The distribution form: a campaign, a mode, the agents chosen and, by count, how many each gets
 * (`count-<userId>` fields, one per agent listed).
 */
const DistributionSchema = z
  .object({
    campaignId: z.coerce.number({ required_error: "请选择活动", invalid_type_error: "请选择活动" }).int().positive("请选择活动"),
    mode: z.enum(["even", "count"]).default("even"),
    agent: z.array(z.coerce.number().int().positive(), { required_error: "请至少选择一名坐席" }).min(1, "请至少选择一名坐席"),
  })
  .passthrough()
  .transform((form, ctx) => {
    const agents = form.agent.map((userId) => {
      const raw = (form as Record<string, unknown>)[`count-${userId}`];
      return { userId, count: form.mode === "count" ? Number(raw || 0) : undefined };
    });
    if (form.mode === "count" && agents.some((a) => !Number.isInteger(a.count) || (a.count ?? 0) < 0)) {
      ctx.addIssue({ code: "custom", message: "分配数量应为不小于0的整数" });
    } else if (form.mode === "count" && agents.every((a) => !a.count)) {
      ctx.addIssue({ code: "custom", message: "请填写分配数量" });
    }
    return { campaignId: form.campaignId, mode: form.mode, agents };
  });

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const submission = parseWithZod(form, { schema: DistributionSchema });
  if (!mayDistribute(access.user.role)) return rejectForm(submission, { formErrors: [DISTRIBUTORS_ONLY] }, 403);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const distributed = await attempt(() => distributeContacts(access.caller, input));
  if (!distributed.ok) return rejectForm(submission, { formErrors: [distributed.message] }, distributed.status);
  const assigned = distributed.value.reduce((n, a) => n + a.count, 0);
  return redirectWithToast(`/manual/dataDistribution?campaignId=${input.campaignId}`, `已分配 ${assigned} 条数据。`);
}

export default function DataDistribution() {
  const { distributor, campaigns, campaign, agents, unassigned } = useLoaderData<typeof loader>();
  const [form, fields] = useForm<Record<string, string | string[]>>({
    id: "distribution",
    lastResult: refusalOf(useActionData<typeof action>()),
    defaultValue: { mode: "even" },
  });
  const modes = getCollectionProps(fields.mode, { type: "radio", options: MODES.map((m) => m.value) });
  const agentBoxes = getCollectionProps(fields.agent, { type: "checkbox", options: agents.map((agent) => String(agent.id)) });
  return (
    <Screen title={title}>
      <form method="get" className="sb-filters" aria-label="选择活动">
        <CodeSelect
          id="campaign"
          name="campaignId"
          label="活动"
          table={campaigns.map((c) => ({ code: c.id, label: `${c.name}（${labelOf(CAMPAIGN_TYPES, c.type)}）` }))}
          defaultValue={campaign ? String(campaign.id) : ""}
        />
        <button type="submit" className="p-button">
          查看
        </button>
      </form>
      <FormErrors id={form.errorId} errors={form.errors} />
      {!distributor && campaign ? (
        <>
          <p data-testid="unassigned">
            {campaign.name}：待分配 {unassigned} 条
          </p>
          <Notice tone="info">{DISTRIBUTORS_ONLY}，您可以在“预览外呼”中领取分配给您的数据。</Notice>
        </>
      ) : campaign ? (
        <form method="post" {...getFormProps(form)} className="sb-form">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="campaignId" value={campaign.id} />
          <p data-testid="unassigned">
            {campaign.name}：待分配 {unassigned} 条
          </p>
          <fieldset className="sb-fieldset">
            <legend>分配方式</legend>
            {modes.map(({ key, ...radio }, i) => (
              <label key={key}>
                <input {...radio} /> {MODES[i]!.label}
              </label>
            ))}
          </fieldset>
          <fieldset className="sb-fieldset">
            <legend>坐席（按数量分配时填写每人数量）</legend>
            {fields.agent.errors ? (
              <small id={fields.agent.errorId} className="p-error">
                {fields.agent.errors[0]}
              </small>
            ) : null}
            {agents.map((agent, i) => {
              const { key, ...box } = agentBoxes[i]!;
              const count = fields[`count-${agent.id}`]!;
              return (
                <div key={key} className="sb-inline-forms">
                  <label>
                    <input {...box} /> {agent.realName}（{agent.userName}）
                  </label>
                  <label htmlFor={count.id} className="p-hidden-accessible">
                    {agent.realName}的分配数量
                  </label>
                  <input {...getInputProps(count, { type: "number" })} min={0} className="p-inputtext" />
                </div>
              );
            })}
          </fieldset>
          <button type="submit" className="p-button">
            分配
          </button>
        </form>
      ) : (
        <p>暂无人工外呼活动。</p>
      )}
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
