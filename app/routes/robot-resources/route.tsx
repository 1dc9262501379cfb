import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { GatewayLine } from "#contracts/robot-resources";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { listCallerIdNumbers } from "#app/services/config.server";
import { listGatewayLines } from "#app/services/robot-resources.server";

const title = ROBOT_RESOURCE_TITLES.resources;
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const [lines, numbers] = await Promise.all([listGatewayLines(caller), listCallerIdNumbers(caller)]);
  return { lines, numbers };
}

/** What the tenant's robots dial out on (read-only: lines and numbers are the carrier's, set up by the platform). */
export default function RobotResources() {
  const { lines, numbers } = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <section aria-labelledby="lines-title" className="sb-section">
        <h2 id="lines-title" className="sb-section-title">
          网关线路
        </h2>
        <DataTable<GatewayLine>
          caption="网关线路"
          rowKey="id"
          emptyMessage="暂无线路"
          config={{
            list: lines,
            total: lines.length,
            eleItem: [
              { prop: "name", label: "线路名称", render: (l) => <strong>{l.name}</strong> },
              { prop: "carrier", label: "运营商" },
              { prop: "prefix", label: "号码前缀" },
              { prop: "concurrency", label: "最大并发" },
              // The dialer starts no call past the line's capacity, across every campaign whose robot uses it (decision 031).
              { prop: "inUse", label: "当前通话", render: (l) => `${l.inUse} / ${l.concurrency}` },
              { prop: "enabled", label: "状态", render: (l) => (l.enabled ? "可用" : "停用") },
            ],
          }}
        />
      </section>
      <section aria-labelledby="numbers-title" className="sb-section">
        <h2 id="numbers-title" className="sb-section-title">
          主叫号码
        </h2>
        <DataTable<{ id: number; number: string }>
          caption="主叫号码"
          rowKey="id"
          emptyMessage="暂无主叫号码"
          config={{ list: numbers, total: numbers.length, eleItem: [{ prop: "number", label: "号码" }] }}
        />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
