import type { LoaderFunctionArgs } from "@remix-run/node";
import { MONITOR_NOTIFICATIONS } from "#contracts/monitor";
import { requireAccess } from "#app/server/access.server";
import { eventStreamResponse } from "#app/server/event-stream.server";
import { shownToSupervisor } from "#app/services/monitor.server";

/** The monitor's stream: the tenant's agent and queue changes (supervisors and administrators only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const lines = new URL(request.url).searchParams.has("lines");
  const topics = lines
    ? [MONITOR_NOTIFICATIONS.agent, MONITOR_NOTIFICATIONS.line]
    : [MONITOR_NOTIFICATIONS.agent, MONITOR_NOTIFICATIONS.queue];
  return eventStreamResponse(request, access, { topics, scope: { scope: "tenant" }, shown: shownToSupervisor });
}
