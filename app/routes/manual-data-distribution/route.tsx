import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { CAMPAIGN_TYPES, labelOf } from "#contracts/codes";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listUsers } from "#app/services/crm.server";
import { distributeContacts, selectCampaigns, unassignedCount } from "#app/services/outbound.server";
import { isUpstreamError } from "#app/services/upstream.server";

const title = SCREEN_TITLES["/manual/dataDistribution"];
export const handle: RouteHandle = { title };

/** Campaigns whose contacts agents dial themselves. */
const MANUAL_TYPES = [3, 4, 5];
const QuerySchema = z.object({
  campaignId: z.coerce.number().int().positive().optional(),
  assigned: z.coerce.number().int().min(0).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  const [campaigns, users] = await Promise.all([selectCampaigns(access.caller, MANUAL_TYPES), listUsers(access.caller)]);
  // Without a choice, the first running campaign (the one most likely to need its data shared).
  const campaign = campaigns.find((c) => c.id === query.campaignId) ?? campaigns.find((c) => c.state === 1) ?? campaigns[0] ?? null;
  const agents = users.list.filter((u) => u.workType !== 3);
  return {
    campaigns,
    campaign,
    agents,
    assigned: query.assigned ?? null,
    unassigned: campaign ? await unassignedCount(access.caller, campaign.id) : 0,
  };
}

type Refusal = { error: string; values: Record<string, string>; chosen: number[] };

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const values = Object.fromEntries(
    [...form].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "csrf"),
  );
  const campaignId = Number(values.campaignId);
  const mode = values.mode === "count" ? "count" : "even";
  const agentIds = form
    .getAll("agent")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const refuse = (error: string) => data<Refusal>({ error, values, chosen: agentIds }, { status: 400 });
  if (!Number.isInteger(campaignId) || campaignId <= 0) return refuse("请选择活动");
  if (agentIds.length === 0) return refuse("请至少选择一名坐席");
  const agents = agentIds.map((userId) => ({ userId, count: mode === "count" ? Number(values[`count-${userId}`] || 0) : undefined }));
  if (mode === "count" && agents.some((a) => !Number.isInteger(a.count) || (a.count ?? 0) < 0)) return refuse("分配数量应为不小于0的整数");
  if (mode === "count" && agents.every((a) => !a.count)) return refuse("请填写分配数量");
  try {
    const assigned = await distributeContacts(access.caller, { campaignId, mode, agents });
    return redirect(`/manual/dataDistribution?campaignId=${campaignId}&assigned=${assigned.reduce((n, a) => n + a.count, 0)}`);
  } catch (error) {
    if (isUpstreamError(error) && (error.data.status === 400 || error.data.status === 403)) return refuse(error.data.message);
    throw error;
  }
}

export default function DataDistribution() {
  const { campaigns, campaign, agents, assigned, unassigned } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>() as Refusal | undefined;
  const values = refused?.values ?? {};
  const chosen = new Set(refused?.chosen ?? []);
  return (
    <Screen title={title}>
      <form method="get" className="sb-filters" aria-label="选择活动">
        <div className="sb-field">
          <label htmlFor="campaign">活动</label>
          <select id="campaign" name="campaignId" className="p-inputtext" defaultValue={campaign?.id ?? ""}>
            {campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}（{labelOf(CAMPAIGN_TYPES, c.type)}）
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="p-button">
          查看
        </button>
      </form>
      {assigned !== null ? <Notice tone="success">已分配 {assigned} 条数据。</Notice> : null}
      {refused ? <Notice tone="error">{refused.error}</Notice> : null}
      {campaign ? (
        <form method="post" className="sb-form">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="campaignId" value={campaign.id} />
          <p data-testid="unassigned">
            {campaign.name}：待分配 {unassigned} 条
          </p>
          <fieldset className="sb-fieldset">
            <legend>分配方式</legend>
            <label>
              <input type="radio" name="mode" value="even" defaultChecked={values.mode !== "count"} /> 平均分配
            </label>
            <label>
              <input type="radio" name="mode" value="count" defaultChecked={values.mode === "count"} /> 按数量分配
            </label>
          </fieldset>
          <fieldset className="sb-fieldset">
            <legend>坐席（按数量分配时填写每人数量）</legend>
            {agents.map((agent) => (
              <div key={agent.id} className="sb-inline-forms">
                <label>
                  <input type="checkbox" name="agent" value={agent.id} defaultChecked={chosen.has(agent.id)} /> {agent.realName}（
                  {agent.userName}）
                </label>
                <label htmlFor={`count-${agent.id}`} className="p-hidden-accessible">
                  {agent.realName}的分配数量
                </label>
                <input
                  id={`count-${agent.id}`}
                  name={`count-${agent.id}`}
                  type="number"
                  min={0}
                  className="p-inputtext"
                  defaultValue={values[`count-${agent.id}`] ?? ""}
                />
              </div>
            ))}
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
