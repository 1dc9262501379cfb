import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { EXPORT_FORMATS } from "#contracts/contact";
import { requireAccess } from "#app/server/access.server";
import { parseCallListQuery } from "#app/server/call-list-query.server";
import { exportCampaignRecords } from "#app/services/contact.server";
import { relayDownload } from "#app/server/relay.server";

/**
 * The campaign call records export (CSV or XLSX) with the list's filters, streamed from the
 * platform to the browser as a download: nothing is held in the console's memory.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const params = new URL(request.url).searchParams;
  const format = params.get("format") ?? "csv";
  params.delete("format");
  const parsed = parseCallListQuery(params);
  if (!parsed.ok || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    const message = parsed.ok ? "导出格式只能是 CSV 或 XLSX" : parsed.errors.join("；");
    throw data({ what: "导出外呼通话记录", status: 400, message }, { status: 400 });
  }
  const { pageNo: _page, pageSize: _size, after: _after, before: _before, ...filter } = parsed.filter;
  const upstream = await exportCampaignRecords(caller, { ...filter, format: format as (typeof EXPORT_FORMATS)[number] });
  return relayDownload(upstream);
}
