import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { idParam } from "#app/server/page-query.server";
import { exportImportErrors } from "#app/services/customers.server";
import { streamDownload } from "#app/server/download.server";

/** GET /contacts/imports/:importId/errors — a contact import's rejected rows with their reasons, as CSV. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const importId = idParam(params.importId);
  return streamDownload(await exportImportErrors(caller, importId), `联系人导入失败行-${importId}.csv`);
}
