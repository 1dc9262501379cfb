import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "../../access.server";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { Screen } from "../../components/screen";
import type { RouteHandle } from "../../lib/handle";
import { SCREEN_TITLES } from "../../lib/screens";

const title = SCREEN_TITLES["/textWorkBench"];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return null;
}

export default function Page() {
  return <Screen title={title} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
