import type { LoaderFunctionArgs } from "@remix-run/node";
import { CallListScreen } from "#app/components/call-list";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { loadCallList } from "#app/server/call-list.server";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listIncomingCalls } from "#app/services/contact.server";

const title = SCREEN_TITLES["/incoming/call"];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  return loadCallList(request, listIncomingCalls);
}

export default function Page() {
  return <CallListScreen title={title} kind="inbound" path="/incoming/call" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
