import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { answerAction } from "#app/server/island.server";
import { phoneAction, readPhone } from "./workbench.server";

/**
 * The voice workbench island's endpoint, entitled with the workbench: GET reads the screen pop and
 * panels (or searches knowledge, or lists colleagues), POST performs a phone action.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  return Response.json(await readPhone(access, new URL(request.url)), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  return answerAction(request, () => phoneAction(access, form), { back: "/workBench" });
}
