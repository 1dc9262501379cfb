import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { INSPECTION_NOTIFICATIONS } from "#contracts/inspection";
import { requireAccess } from "#app/server/access.server";
import { eventStreamResponse } from "#app/server/event-stream.server";

/** The live inspection queue's stream (decision 033): the tenant's inspection changes, for inspectors only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  if (access.user.role === "agent")
    throw data({ message: "仅质检员可以查看质检队列的实时变化", status: 403, what: "质检" }, { status: 403 });
  return eventStreamResponse(request, access, { topics: [INSPECTION_NOTIFICATIONS.calls], scope: { scope: "tenant" } });
}
