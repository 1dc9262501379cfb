import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { exportProperties } from "#app/services/customers.server";
import { streamDownload } from "#app/server/download.server";

/** GET /customerProperty/export — the tenant's properties as CSV. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return streamDownload(await exportProperties(caller), "客户属性.csv");
}
