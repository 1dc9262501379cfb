import type { LoaderFunctionArgs } from "@remix-run/node";
import { AsrEventSchema, CTI_EVENTS, PhoneSnapshotSchema } from "#contracts/cti";
import type { RealtimeNotification } from "#contracts/events";
import { SupervisorNoticeSchema } from "#contracts/monitor";
import { maskNumbers } from "#app/lib/format";
import { requireAccess } from "#app/server/access.server";
import { checkedPayloads, eventStreamResponse } from "#app/server/event-stream.server";

const checked = checkedPayloads({
  [CTI_EVENTS.state]: PhoneSnapshotSchema,
  [CTI_EVENTS.asr]: AsrEventSchema,
  [CTI_EVENTS.supervisor]: SupervisorNoticeSchema,
});

/**
 * What the phone bar's stream sends on, every number masked: a phone state, live transcript line or
 * supervisor's notice only when the console can read it (the island checks none).
 */
function shownToAgent(notification: RealtimeNotification): RealtimeNotification | null {
  const shown = checked(notification);
  return shown && maskNumbers(shown);
}

/** The phone bar's event stream (`cti.*` events): entitled with the voice workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["cti."], shown: shownToAgent });
}
