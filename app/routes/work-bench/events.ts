import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { CTI_EVENTS, PhoneSnapshotSchema } from "#contracts/cti";
import type { RealtimeNotification } from "#contracts/events";
import { maskNumbers } from "#app/lib/format";
import { eventStreamResponse } from "#app/server/event-stream.server";

/**
 * What the phone bar's stream sends on: every number masked (a phone state's call, a live
 * transcript line); a phone state the console cannot read is not sent at all.
 */
function shownToAgent(notification: RealtimeNotification): RealtimeNotification | null {
  if (notification.type !== CTI_EVENTS.state) return maskNumbers(notification);
  const phone = PhoneSnapshotSchema.safeParse(notification.payload);
  return phone.success ? maskNumbers({ ...notification, payload: phone.data }) : null;
}

/** The phone bar's event stream (`cti.*` events): entitled with the voice workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["cti."], shown: shownToAgent });
}
