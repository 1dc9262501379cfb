import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { idParam } from "#app/server/page-query.server";
import { exportCampaignData } from "#app/services/outbound.server";
import { streamDownload } from "#app/server/download.server";

/** GET /campaign/:id/export — the campaign's contacts and their call states as CSV. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const id = idParam(params.id);
  return streamDownload(await exportCampaignData(access.caller, { campaignId: id }), `campaign-${id}-data.csv`);
}
