import type { LoaderFunctionArgs } from "@remix-run/node";
import { CHAT_EVENT, ChatAddPayloadSchema, ChatClosePayloadSchema, ChatUpdatePayloadSchema } from "#contracts/chat";
import { SupervisorNoticeSchema } from "#contracts/monitor";
import { requireAccess } from "#app/server/access.server";
import { checkedPayloads, eventStreamResponse } from "#app/server/event-stream.server";

/** What the chat's stream sends on: the notifications the island reads only when the console can read them (the island checks none). */
const shownToChatAgent = checkedPayloads({
  [CHAT_EVENT.add]: ChatAddPayloadSchema,
  [CHAT_EVENT.update]: ChatUpdatePayloadSchema,
  [CHAT_EVENT.close]: ChatClosePayloadSchema,
  [CHAT_EVENT.supervisor]: SupervisorNoticeSchema,
});

/** The chat's event stream (`chat.*` events): entitled with the text workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["chat."], shown: shownToChatAgent });
}
