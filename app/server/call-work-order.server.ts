import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireActionAccess } from "./access.server";
import { IslandRefusal } from "./island.server";
import { answerWorkOrder, readWorkOrderForm, requireWorkOrderCreator } from "./work-order-form.server";
import { getCallDetail } from "#app/services/contact.server";
import { createWorkOrderForCall } from "#app/services/workbench.server";

/** The route's call id, or a 404. */
export function callIdOf(id: string | undefined): number {
  const callId = Number(id);
  if (!/^\d{1,15}$/.test(id ?? "") || !Number.isSafeInteger(callId) || callId <= 0) {
    throw data({ what: "获取通话详情", status: 404, message: "通话记录不存在" }, { status: 404 });
  }
  return callId;
}

/**
 * A work order made from a recorded call (decision 026), by whoever makes work orders; one per
 * call (a second is refused, naming the first). The island gets JSON; a plain post, the dialog.
 */
export async function callWorkOrderAction({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const callId = callIdOf(params.id);
  const url = new URL(request.url);
  const dialog = `${url.pathname.replace(/\/workOrder$/, "")}${url.search}`;
  return answerWorkOrder(
    request,
    form,
    async () => {
      if (form.get("intent") !== "workOrder") throw new IslandRefusal("未知的操作");
      requireWorkOrderCreator(access);
      const input = readWorkOrderForm(form);
      const detail = await getCallDetail(access.caller, callId);
      if (detail.workOrder) throw new IslandRefusal(`该通话已有工单 ${detail.workOrder.number}`);
      return { workOrder: await createWorkOrderForCall(access.caller, { ...input, ctiCallId: detail.ctiCallId }) };
    },
    dialog,
  );
}
