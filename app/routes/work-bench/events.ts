import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "../../access.server";
import { eventStreamResponse } from "../../events.server";

/** The phone bar's event stream (`cti.*` events): entitled with the voice workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), "cti.");
}
