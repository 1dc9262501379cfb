import type { LoaderFunctionArgs } from "@remix-run/node";
import { callWorkOrderAction } from "#app/server/call-work-order.server";
import { requireAccess } from "#app/server/access.server";
import { postOnly } from "#app/server/island.server";

/** POST /…/:id/workOrder: the call detail's work-order card, once hydrated (JSON). */
export const action = callWorkOrderAction;

/** Nothing to read here: the card only posts. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return postOnly();
}
