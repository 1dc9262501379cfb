import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { CTI_EVENTS, PhoneSnapshotSchema } from "#contracts/cti";
import type { RealtimeNotification } from "#contracts/events";
import { maskedPhone } from "#app/lib/phone-snapshot";
import { eventStreamResponse } from "#app/server/event-stream.server";

/** A phone state reaches the browser with its number masked; one the console cannot read is not sent on. */
function shownToAgent(notification: RealtimeNotification): RealtimeNotification | null {
  if (notification.type !== CTI_EVENTS.state) return notification;
  const phone = PhoneSnapshotSchema.safeParse(notification.payload);
  return phone.success ? { ...notification, payload: maskedPhone(phone.data) } : null;
}

/** The phone bar's event stream (`cti.*` events): entitled with the voice workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["cti."], shown: shownToAgent });
}
