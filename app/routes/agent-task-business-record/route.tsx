import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { requireAccess, requireMenuUrl } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { KeysetPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listCampaignData } from "#app/services/outbound.server";
import { CallStatusFilter, CallTable } from "#app/components/outbound-calls";

const title = SCREEN_TITLES["/agentTask/businessRecord"];
export const handle: RouteHandle = { title };

const QuerySchema = KeysetPageSchema.extend({ status: z.coerce.number().int().min(0).max(7).optional() });

/** My outbound business records: every contact assigned to me, with what became of it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = requireMenuUrl(await requireAccess(request), "/agentTask/businessRecord");
  const query = parseListQuery(request, QuerySchema);
  return {
    query,
    page: await listCampaignData(access.caller, {
      ...pagination(query),
      after: query.after,
      before: query.before,
      status: query.status,
      mine: true,
    }),
  };
}

export default function BusinessRecord() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <CallStatusFilter status={query.status} size={query.size} />
      <CallTable caption={title} calls={page} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
