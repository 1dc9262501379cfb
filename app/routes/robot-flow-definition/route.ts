import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireAccess } from "#app/server/access.server";
import { idParam } from "#app/server/page-query.server";
import { relayDownload } from "#app/server/relay.server";
import { downloadFlowDefinition } from "#app/services/robot.server";

/** GET /robot/flow/:id/definition?versionId= — a version's nodes as an Excel file. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const id = idParam(params.id);
  const versionId = Number(new URL(request.url).searchParams.get("versionId"));
  if (!Number.isSafeInteger(versionId) || versionId <= 0)
    throw data({ what: "导出流程定义", status: 400, message: "请选择版本" }, { status: 400 });
  return relayDownload(await downloadFlowDefinition(caller, id, versionId));
}
