import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { CALL_STATUSES, SKIP_REASONS, codesOf, hangupPartyLabel, labelOf } from "#contracts/codes";
import { redirectWithToast } from "#app/server/toast.server";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { beforeCall, dialPreview, skipPreview, takeNextPreview } from "#app/services/outbound.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { firstError } from "#app/components/form-field";
import { maskPhone } from "#app/lib/format";
import { CodeOptions } from "#app/components/code-select";

const title = SCREEN_TITLES["/manual/preview"];
export const handle: RouteHandle = { title };

const QuerySchema = z.object({
  batch: z.coerce.number().int().positive().optional(),
  task: z.coerce.number().int().positive().optional(),
  done: z.enum(["skipped", "empty"]).optional(),
});
const DONE_MESSAGES = { skipped: "已跳过该联系人。", empty: "暂无待呼叫的联系人。" } as const;

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("next") }),
  z.object({ intent: z.literal("dial"), taskCallId: z.coerce.number().int().positive() }),
  z.object({
    intent: z.literal("skip"),
    taskCallId: z.coerce.number().int().positive(),
    reason: z.enum(codesOf(SKIP_REASONS) as [string, ...string[]], {
      required_error: "请选择跳过原因",
      invalid_type_error: "请选择跳过原因",
    }),
  }),
]);

/** Preview dialling: take the next contact, see it before dialling, dial it or skip it with a reason. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  const contact = query.batch && query.task ? await beforeCall(access.caller, query.batch, query.task) : null;
  return { contact, done: query.done ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const submission = parseWithZod(form, { schema: ActionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const done = await attempt(async () => {
    if (input.intent === "next") {
      const next = await takeNextPreview(access.caller);
      return next ? `/manual/preview?batch=${next.batchId}&task=${next.id}` : "/manual/preview?done=empty";
    }
    // The call goes out through the agent's phone: the voice workbench shows it ringing.
    if (input.intent === "dial") {
      await dialPreview(access.caller, input.taskCallId);
      return "/workBench";
    }
    await skipPreview(access.caller, input.taskCallId, labelOf(SKIP_REASONS, input.reason));
    return "/manual/preview?done=skipped";
  });
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  if (done.value === "/workBench") return redirectWithToast(done.value, "正在拨打预览联系人，请在电话条中处理通话");
  return redirect(done.value);
}

export default function Preview() {
  const { contact, done } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const waiting = contact?.call.status === 0;
  return (
    <Screen title={title}>
      {done ? <Notice tone="info">{DONE_MESSAGES[done]}</Notice> : null}
      {refused ? <Notice tone="error">{firstError(refused)}</Notice> : null}
      {!waiting ? (
        <p className="sb-hint">
          从您参与的人工预览外呼活动中领取下一个待呼叫的联系人：先查看客户资料，再决定拨打或跳过（跳过需选择原因）。拨打后，请在语音工作台的电话条中处理通话。
        </p>
      ) : null}
      {!waiting ? (
        <form method="post">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="next" />
          <button type="submit" className="p-button">
            获取下一个联系人
          </button>
        </form>
      ) : null}
      {contact ? (
        <section aria-labelledby="contact-title" className="sb-section">
          <h2 id="contact-title" className="sb-section-title">
            当前联系人
          </h2>
          <dl className="sb-facts">
            <dt>客户姓名</dt>
            <dd>{contact.call.customerName ?? "—"}</dd>
            <dt>手机号码</dt>
            <dd>{maskPhone(contact.call.phone)}</dd>
            <dt>活动</dt>
            <dd>{contact.campaign.name}</dd>
            <dt>状态</dt>
            <dd>
              <CodeLabel table={CALL_STATUSES} code={contact.call.status} />
            </dd>
            {Object.entries(contact.call.userData).map(([key, value]) => (
              <div key={key} className="sb-fact">
                <dt>{key}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
          </dl>
          {waiting ? (
            <div className="sb-inline-forms">
              <a href="/workBench">打开语音工作台</a>
              <form method="post">
                <AuthenticityTokenInput name="csrf" />
                <input type="hidden" name="intent" value="dial" />
                <input type="hidden" name="taskCallId" value={contact.call.id} />
                <button type="submit" className="p-button p-button-success">
                  拨打
                </button>
              </form>
              <form method="post" className="sb-inline-forms">
                <AuthenticityTokenInput name="csrf" />
                <input type="hidden" name="intent" value="skip" />
                <input type="hidden" name="taskCallId" value={contact.call.id} />
                <div className="sb-field">
                  <label htmlFor="skip-reason">跳过原因</label>
                  <select id="skip-reason" name="reason" className="p-inputtext" required defaultValue="">
                    <option value="" disabled>
                      请选择
                    </option>
                    <CodeOptions table={SKIP_REASONS} />
                  </select>
                </div>
                <button type="submit" className="p-button p-button-outlined">
                  跳过
                </button>
              </form>
            </div>
          ) : null}
          <h3>历史通话</h3>
          <DataTable
            caption="历史通话"
            rowKey="id"
            emptyMessage="暂无通话"
            config={{
              list: contact.records,
              total: contact.records.length,
              eleItem: [
                { prop: "callTime", label: "呼叫时间", type: "datetime", minWidth: 150 },
                { prop: "callResultName", label: "结果" },
                { prop: "hangupParty", label: "挂机方", render: (r) => (r.hangupParty === null ? "-" : hangupPartyLabel(r.hangupParty)) },
              ],
            }}
          />
        </section>
      ) : null}
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
