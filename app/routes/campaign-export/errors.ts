import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { idParam } from "#app/server/page-query.server";
import { exportImportErrors } from "#app/services/outbound.server";
import { streamDownload } from "#app/server/download.server";

/** GET /campaign/:id/imports/:importId/errors — an import's rejected rows with their reasons, as CSV. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const id = idParam(params.id);
  const importId = idParam(params.importId);
  return streamDownload(await exportImportErrors(access.caller, id, importId), `import-${importId}-errors.csv`);
}
