import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { relayDownload } from "#app/server/relay.server";
import { downloadNluTemplate } from "#app/services/robot.server";

/** GET /robot/flow/nlu-template — every intent and the words it is heard by, as an Excel file. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return relayDownload(await downloadNluTemplate(caller));
}
