import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { parseListQuery } from "#app/server/page-query.server";
import { relayDownload } from "#app/server/relay.server";
import { exportInspections } from "#app/services/inspection.server";
import { InspectionScreenQuerySchema, platformQuery } from "./query.server";

/** The inspection list with its filters as CSV or XLSX, streamed from the platform to the browser. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const url = new URL(request.url);
  const format = url.searchParams.get("format") ?? "csv";
  if (format !== "csv" && format !== "xlsx")
    throw data({ what: "导出质检结果", status: 400, message: "导出格式只能是 CSV 或 XLSX" }, { status: 400 });
  const query = parseListQuery(request, InspectionScreenQuerySchema);
  const { pageNo: _p, pageSize: _s, after: _a, before: _b, ...filter } = platformQuery(query);
  const upstream = await exportInspections(caller, { ...filter, format });
  return relayDownload(upstream);
}
