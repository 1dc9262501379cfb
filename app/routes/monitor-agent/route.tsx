import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { parseListQuery } from "#app/server/page-query.server";
import { getRealtimeStart } from "#app/services/events.server";
import { getMonitorRules, monitorSnapshot } from "#app/services/monitor.server";
import { Monitor } from "./monitor";
import { MonitorQuerySchema } from "./query";

const title = SCREEN_TITLES["/monitor/agent"];
export const handle: RouteHandle = { title, hydrate: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, MonitorQuerySchema);
  // The stream starts where the tenant's notifications are now, before the snapshot is read:
  // whatever changes in between arrives again, and newer states replace older ones.
  const startId = await getRealtimeStart(caller, { scope: "tenant" });
  // A page of the agents shown in full; every agent's live state in brief, for the queues' counts.
  const { page, size, sort, ...filter } = query;
  const [agents, rules] = await Promise.all([
    monitorSnapshot(caller, { ...filter, page: { pageNo: page, pageSize: size, sort } }),
    getMonitorRules(caller),
  ]);
  const { list: rows, total, states, groups, at } = agents;
  return { startId, rows, total, states, groups, rules, at, query };
}

export default function Page() {
  const data = useLoaderData<typeof loader>();
  return (
    <Screen
      title={title}
      actions={
        <a className="p-button p-button-outlined" href="/monitor/rules">
          监控阈值
        </a>
      }
    >
      <Monitor {...data} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
