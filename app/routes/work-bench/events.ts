import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { eventStreamResponse } from "#app/server/event-stream.server";

/** The phone bar's event stream (`cti.*` events): entitled with the voice workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), { topics: ["cti."] });
}
