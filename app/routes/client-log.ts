import type { LoaderFunctionArgs } from "@remix-run/node";
import { ClientLogSchema, fitClientLog } from "#contracts/client-log";
import { callerFor, requireUser } from "#app/server/access.server";
import { writeClientLog } from "#app/services/client-log.server";

/**
 * GET /clientLog — a line of the signed-in browser's log (app/client/client-log.ts), passed on to
 * the platform's /api/log. A GET like the platform's: it changes nothing a user can see.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  const parsed = ClientLogSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return Response.json({ message: parsed.error.issues[0]?.message ?? "请求参数错误" }, { status: 400 });
  return Response.json(await writeClientLog(callerFor(auth, request), fitClientLog(parsed.data)));
}
