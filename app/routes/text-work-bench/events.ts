import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "../../access.server";
import { eventStreamResponse } from "../../events.server";

/** The chat's event stream (`chat.*` events): entitled with the text workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  return eventStreamResponse(request, await requireAccess(request), "chat.");
}
