import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { eventStreamResponse } from "#app/server/event-stream.server";

/** The chat's event stream (`chat.*` events): entitled with the text workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["chat."] });
}
