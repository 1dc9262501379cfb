import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { WORK_ORDER_STATES, labelOf } from "#contracts/codes";
import { requireAccess, requireActionAccess, type Access } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { idParam, pagination, parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listUsers } from "#app/services/crm.server";
import {
  followWorkOrder,
  getWorkOrderDetail,
  listWorkOrders,
  createWorkOrder,
  listWorkOrderTemplates,
  peekWorkOrderNumber,
  receiveWorkOrder,
} from "#app/services/work-orders.server";
import { checkWorkOrderValues } from "#contracts/work-orders";
import { CreateSchema, INTENT_SCHEMAS, WorkOrderListQuerySchema } from "./work-order-records.schema.server";

/**
 * The work-order records screen, served at two places: /agentTask/workOrder (an agent's own, the
 * platform decides which) and /businessTemplate/record (supervisors and administrators: all of the
 * tenant's, with owner filter and reassigning). Without an id, the list; with one, the detail.
 */
const NOT_FOUND = { message: "工单不存在", status: 404, what: "工单" };

export const canReassign = (access: Access) => access.user.role !== "agent";

/** The tenant's users a record can be handed to (supervisors and administrators only need them). */
async function assignees(access: Access) {
  if (!canReassign(access)) return [];
  const users = await listUsers(access.caller);
  return users.list.map((u) => ({ id: u.id, name: u.realName || u.userName }));
}

export async function loadWorkOrders(request: Request, id: string | undefined) {
  const access = await requireAccess(request);
  const me = { id: access.user.id, canReassign: canReassign(access) };
  if (id !== undefined) {
    const [detail, users] = await Promise.all([getWorkOrderDetail(access.caller, idParam(id)), assignees(access)]);
    if (!detail) throw data(NOT_FOUND, { status: 404 });
    return { kind: "detail" as const, me, detail, users };
  }
  const query = parseListQuery(request, WorkOrderListQuerySchema);
  const { page: _page, size: _size, create, template: _template, ...filters } = query;
  const [templates, page, users, nextNumber] = await Promise.all([
    listWorkOrderTemplates(access.caller),
    listWorkOrders(access.caller, { ...filters, ...pagination(query) }),
    assignees(access),
    create ? peekWorkOrderNumber(access.caller) : null,
  ]);
  return { kind: "list" as const, me, query, templates, page, users, nextNumber };
}

/** The detail's forms; every change goes back to the detail with a toast, or to the form with what was typed. */
export async function workOrderAction(request: Request, id: string | undefined, base: string) {
  const { access, form } = await requireActionAccess(request);
  if (id === undefined) return createAction(access, form, base);
  const recordId = idParam(id);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, "工单");
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const back = `${base}/${recordId}`;
  switch (input.intent) {
    case "receive": {
      const done = await attempt(() => receiveWorkOrder(access.caller, recordId, {}));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `已接收工单 ${done.value.number}`);
    }
    case "reassign": {
      if (!canReassign(access)) return rejectForm(submission, { formErrors: ["仅主管或管理员可以转派工单"] }, 403);
      const done = await attempt(() => receiveWorkOrder(access.caller, recordId, { userId: input.userId, note: input.note }));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `工单 ${done.value.number} 已转派给${done.value.ownerName ?? ""}`);
    }
    case "follow": {
      const done = await attempt(() => followWorkOrder(access.caller, recordId, input.state, input.note));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `工单 ${done.value.number} 已变更为「${labelOf(WORK_ORDER_STATES, done.value.state)}」`);
    }
  }
}

/**
 * The list's create form: the values are checked against the chosen template here first, so each
 * problem shows under its field; the platform checks them again and numbers the record.
 */
async function createAction(access: Access, form: FormData, base: string) {
  const submission = parseWithZod(form, { schema: CreateSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { intent: _intent, ...input } = submission.value;
  if (input.templateId !== undefined) {
    const template = (await listWorkOrderTemplates(access.caller, 1)).find((t) => t.id === input.templateId);
    if (!template) return rejectForm(submission, { formErrors: ["工单模板不存在或已停用，请重新选择"] });
    const { errors } = checkWorkOrderValues(template.fields, input.values);
    if (Object.keys(errors).length > 0) {
      return rejectForm(submission, {
        fieldErrors: Object.fromEntries(Object.entries(errors).map(([key, message]) => [`values.${key}`, [message]])),
      });
    }
  }
  const done = await attempt(() => createWorkOrder(access.caller, input));
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  return redirectWithToast(`${base}/${done.value.id}`, `工单 ${done.value.number} 已创建`);
}
