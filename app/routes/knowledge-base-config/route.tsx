import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";

const title = SCREEN_TITLES["/knowledgeBase/config"];
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
