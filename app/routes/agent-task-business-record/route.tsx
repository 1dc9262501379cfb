import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { PaginationSchema } from "../../../contracts/envelope";
import { requireAccess } from "../../access.server";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { PageLinks } from "../../components/outbound-table";
import { Screen } from "../../components/screen";
import type { RouteHandle } from "../../lib/handle";
import { parseListQuery } from "../../lib/page-query";
import { SCREEN_TITLES } from "../../lib/screens";
import { listCampaignData } from "../../services/outbound.server";
import { CallStatusFilter, CallTable } from "../../components/outbound-calls";

const title = SCREEN_TITLES["/agentTask/businessRecord"];
export const handle: RouteHandle = { title };

const QuerySchema = PaginationSchema.extend({ status: z.coerce.number().int().min(0).max(7).optional() });

/** My outbound business records: every contact assigned to me, with what became of it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  return { query, page: await listCampaignData(access.caller, { ...query, mine: true }) };
}

export default function BusinessRecord() {
  const { query, page } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <Screen title={title}>
      <CallStatusFilter status={query.status} />
      <CallTable caption={title} calls={page.list} />
      <PageLinks total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} search={location.search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
