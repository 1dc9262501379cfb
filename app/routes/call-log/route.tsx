import type { LoaderFunctionArgs } from "@remix-run/node";
import { CallListScreen } from "../../components/call-list";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { loadCallList } from "../../lib/call-list.server";
import type { RouteHandle } from "../../lib/handle";
import { SCREEN_TITLES } from "../../lib/screens";
import { listCampaignRecords } from "../../services/contact.server";

const title = SCREEN_TITLES["/callLog"];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  return loadCallList(request, listCampaignRecords);
}

export default function Page() {
  return <CallListScreen title={title} kind="outbound" exportPath="/callLog/export" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
