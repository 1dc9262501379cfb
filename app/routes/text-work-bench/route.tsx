import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { getChatSession, listChatSessions, listQuickReplies } from "#app/services/chat.server";
import { getRealtimeStart } from "#app/services/events.server";
import { listWorkOrderTemplates } from "#app/services/work-orders.server";
import { mayCreateWorkOrders, workOrderScreen } from "#app/lib/work-order-access";
import { TextWorkbench } from "./workbench";

const title = SCREEN_TITLES["/textWorkBench"];
export const handle: RouteHandle = { title, hydrate: true };

/** The most sessions an agent holds at once, with room to spare. */
const MAX_OPEN_SESSIONS = 100;

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, menu } = await requireAccess(request);
  // The stream starts where the platform is now, before the sessions are read: whatever happens
  // in between arrives again as an event, and the session rules ignore what is already shown.
  const startId = await getRealtimeStart(caller);
  const mayCreate = mayCreateWorkOrders(menu);
  const [active, waiting, quickReplies, templates] = await Promise.all([
    listChatSessions(caller, { state: ["active"], pageSize: MAX_OPEN_SESSIONS }),
    listChatSessions(caller, { state: ["waiting"], pageSize: 20 }),
    listQuickReplies(caller),
    // The work-order card of each chat, for whoever makes work orders (decision 026).
    mayCreate ? listWorkOrderTemplates(caller, 1) : [],
  ]);
  const sessions = await Promise.all(active.list.map((s) => getChatSession(caller, s.sessionId)));
  const workOrders = { mayCreate, templates, recordBase: workOrderScreen(menu) };
  return { startId, sessions: sessions.reverse(), waiting: waiting.list, quickReplies, workOrders };
}

export default function Page() {
  const data = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <TextWorkbench {...data} title={title} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
