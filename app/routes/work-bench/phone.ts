import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { phoneAction, readPhone } from "./workbench.server";

/**
 * The softphone SDK's endpoint (public/cti/softphone.js), entitled with the voice workbench:
 * GET reads the screen pop and panels (or searches knowledge), POST performs a phone action.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  return Response.json(await readPhone(access, new URL(request.url)), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  return phoneAction(access, form);
}
