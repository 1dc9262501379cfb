import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { PHONE_BAR_STYLESHEET } from "#app/client/softphone";
import { VoiceWorkbench } from "./voice-workbench";
import { loadWorkbench } from "./workbench.server";

// The general-purpose voice workbench: the same phone bar and screen pop under its own title.
const title = SCREEN_TITLES["/workBench/ty"];
export const handle: RouteHandle = { title, hydrate: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: PHONE_BAR_STYLESHEET }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadWorkbench(await requireAccess(request));
}

export default function Page() {
  return <VoiceWorkbench title={title} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
