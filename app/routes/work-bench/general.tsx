import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { VoiceWorkbench } from "./voice-workbench";

// The general-purpose voice workbench: the same phone bar, screen pop and data as /workBench,
// under its own title.
export { ErrorBoundary, links, loader } from "./route";

const title = SCREEN_TITLES["/workBench/ty"];
export const handle: RouteHandle = { title, hydrate: true };

export default function Page() {
  return <VoiceWorkbench title={title} />;
}
