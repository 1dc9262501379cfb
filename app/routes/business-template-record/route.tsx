import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { WorkOrderScreen } from "#app/components/work-order-records";
import { loadWorkOrders, workOrderAction } from "#app/server/work-order-records.server";

const BASE = "/businessTemplate/record";
const title = SCREEN_TITLES["/businessTemplate/record/:id?"];
export const handle: RouteHandle = { title };

/** Work-order records of the tenant (supervisors and administrators): filters, detail, receive, reassign, follow. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadWorkOrders(request, params.id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return workOrderAction(request, params.id, BASE);
}

export default function Page() {
  return <WorkOrderScreen title={title} base={BASE} loaded={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
