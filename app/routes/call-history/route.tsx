import type { LoaderFunctionArgs } from "@remix-run/node";
import { CallListScreen } from "../../components/call-list";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { loadCallList } from "../../lib/call-list.server";
import type { RouteHandle } from "../../lib/handle";
import { SCREEN_TITLES } from "../../lib/screens";
import { listBusinessCallHistory } from "../../services/contact.server";

const title = SCREEN_TITLES["/callHistory"];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  return loadCallList(request, listBusinessCallHistory);
}

export default function Page() {
  return <CallListScreen title={title} kind="all" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
