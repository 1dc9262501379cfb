import { data } from "@remix-run/node";
import { WORK_ORDER_CREATE_REFUSED, WorkOrderRecordInputSchema } from "#contracts/work-orders";
import type { Access } from "./access.server";
import { IslandRefusal, answerAction, fromIsland, refuse } from "./island.server";
import { redirectWithToast } from "./toast.server";
import { isUpstreamError } from "#app/services/upstream.server";
import { mayCreateWorkOrders } from "#app/lib/work-order-access";

/**
 * What a work-order form kept when it was posted without JavaScript and not made: refused (with the
 * reason), or with another template chosen (no error): shown again, typed values and all.
 */
export type WorkOrderFormState = { error: string | null; typed: Record<string, string> };

/** The work-order form's action refuses whoever may not make work orders (the platform does too). */
export function requireWorkOrderCreator(access: Access): void {
  if (!mayCreateWorkOrders(access.menu)) throw new IslandRefusal(WORK_ORDER_CREATE_REFUSED);
}

/**
 * The shared work-order form (app/components/work-order-form.tsx) as posted: its values come as
 * one JSON `values` field from the island, or as `value-<key>` fields from a plain form post.
 */
export function readWorkOrderForm(form: FormData) {
  let values: unknown = Object.fromEntries(
    [...form.entries()].filter(([key]) => key.startsWith("value-")).map(([key, value]) => [key.slice(6), String(value)]),
  );
  const posted = form.get("values");
  if (typeof posted === "string" && posted.length <= 40_000) {
    try {
      values = JSON.parse(posted);
    } catch {
      refuse([{ message: "工单字段格式错误" }]);
    }
  }
  const parsed = WorkOrderRecordInputSchema.safeParse({
    templateId: form.get("templateId") || undefined,
    title: form.get("title") ?? "",
    content: form.get("content") ?? "",
    values,
  });
  if (!parsed.success) refuse(parsed.error.issues);
  return parsed.data;
}

/**
 * Answers the form: JSON for the island; without JavaScript, back to the page with a toast when
 * the order is made, or the page again with the refusal and what was typed (a 4xx, never lost).
 * 换用此模板 (`switchTemplate`) posts the form only to show the chosen template's fields.
 */
export async function answerWorkOrder<T>(request: Request, form: FormData, run: () => Promise<T>, back: string) {
  if (fromIsland(request)) return answerAction(request, run, { back });
  const typed = Object.fromEntries(
    [...form.entries()].filter(([key]) => !["csrf", "intent", "switchTemplate"].includes(key)).map(([key, value]) => [key, String(value)]),
  );
  if (form.has("switchTemplate")) return { workOrder: { error: null, typed } satisfies WorkOrderFormState };
  try {
    await run();
  } catch (error) {
    if (error instanceof IslandRefusal)
      return data({ workOrder: { error: error.message, typed } satisfies WorkOrderFormState }, { status: 400 });
    if (isUpstreamError(error) && error.init.status < 500) {
      return data({ workOrder: { error: error.data.message, typed } satisfies WorkOrderFormState }, { status: error.init.status });
    }
    throw error;
  }
  return redirectWithToast(back, "工单已创建");
}
