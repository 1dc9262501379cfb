import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ROLES, WORK_TYPES, labelOf } from "#contracts/codes";
import { AGENT_ID_RULE, AGENT_REASON_MAX, AgentUpdateSchema } from "#contracts/config";
import { ACCOUNT_LOGOUT_REASON_MAX, AccountLogoutSchema } from "#contracts/crm";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalMessageOf, refusalOf, useIntentForm } from "#app/components/intent-form";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { getAgent, updateAgent } from "#app/services/config.server";
import { LOGOUT_REASON_PARAM, listSearch, withLogoutReason } from "./list-search";
import type { loader as listLoader } from "./route";
import { logoutAccount } from "#app/services/crm.server";
import { CodeOptions } from "#app/components/code-select";

const SCREEN = "/robot/agent";

/** The configuration's form, and 强制下线: its own form on the page (its reason is not the configuration's), then a confirmation step. */
const EDIT_SCHEMAS = {
  save: AgentUpdateSchema.extend({ intent: z.literal("save") }),
  logout: z.object({
    intent: z.literal("logout"),
    logoutReason: AccountLogoutSchema.shape.reason,
    confirmed: z.literal("1").optional(),
  }),
};
export const handle: RouteHandle = { title: ROBOT_RESOURCE_TITLES.agent };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  // The queues to choose from are the list's, which renders around this form (its loader reads them).
  return { agent: await getAgent(caller, idParam(params.id)) };
}

/** Saves the agent's configuration (PUT /config/agents/{id}); a refusal comes back on its field with what was typed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = idParam(params.id);
  const back = `${SCREEN}${listSearch(new URL(request.url).search)}`;
  const { submission } = parseIntent(form, EDIT_SCHEMAS, ROBOT_RESOURCE_TITLES.agent);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  if (input.intent === "logout") {
    if (!input.confirmed) return data({ confirmLogout: input.logoutReason });
    const done = await attempt(() => logoutAccount(access.caller, id, input.logoutReason));
    if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
    return redirectWithToast(back, "已强制下线，该坐席需重新登录");
  }
  const { intent: _intent, ...agent } = input;
  const done = await attempt(() => updateAgent(access.caller, id, agent));
  if (!done.ok) {
    const field = done.message.includes("工号")
      ? "agentId"
      : done.message.includes("队列")
        ? "defaultQueueName"
        : done.message.includes("类型")
          ? "workType"
          : null;
    return rejectForm(submission, field ? { fieldErrors: { [field]: [done.message] } } : { formErrors: [done.message] }, done.status);
  }
  // Back to the list as it was (its filters and page travel in the query).
  return redirectWithToast(back, `坐席「${done.value.realName}」的配置已保存`);
}

export default function RobotAgentEdit() {
  const { agent } = useLoaderData<typeof loader>();
  const { queues } = useRouteLoaderData<typeof listLoader>("routes/robot-agent/route")!;
  const result = useActionData<typeof action>();
  const location = useLocation();
  const search = listSearch(location.search);
  const reasonBack = new URLSearchParams(location.search).get(LOGOUT_REASON_PARAM) ?? undefined;
  // The answer is the configuration form's, the logout form's refusal, or the logout's confirmation step.
  const confirmLogout = result && "confirmLogout" in result ? result.confirmLogout : undefined;
  const [logoutForm, logout] = useIntentForm("logout", result, { logoutReason: reasonBack ?? "" });
  const logoutError = refusalMessageOf(result, "logout");
  const [form, fields] = useForm({
    id: `agent-edit-${agent.id}`,
    lastResult: refusalOf(result, "save"),
    constraint: getZodConstraint(AgentUpdateSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AgentUpdateSchema }),
    defaultValue: { workType: String(agent.workType), agentId: agent.agentId, defaultQueueName: agent.defaultQueueName, reason: "" },
  });
  // After a refused save the focus is on the first field in error (the page is new: no script needed).
  const firstInvalid = (["workType", "agentId", "defaultQueueName", "reason"] as const).find((name) => fields[name].errors?.length);
  if (confirmLogout !== undefined) {
    return (
      <ConfirmStep
        title={`强制下线坐席「${agent.realName}」`}
        fields={{ intent: "logout", logoutReason: confirmLogout }}
        confirmLabel="确认强制下线"
        cancelHref={`${SCREEN}/${agent.id}${withLogoutReason(search, confirmLogout)}`}
      >
        <p>
          将结束账号 {agent.userName} 在所有浏览器中的登录，该坐席需重新登录；语音电话已签入的将一并签出。原因：{confirmLogout}
        </p>
      </ConfirmStep>
    );
  }
  const queueKnown = queues.some((q) => q.name === agent.defaultQueueName);
  return (
    <section aria-labelledby="agent-edit-title" className="sb-section">
      <h2 id="agent-edit-title" className="sb-section-title">
        {ROBOT_RESOURCE_TITLES.agent}：{agent.realName}
      </h2>
      <p>
        账号 {agent.userName}，{labelOf(ROLES, agent.role)}，自动应答{agent.autoAnswer ? "开启" : "关闭"}
      </p>
      <form method="post" {...getFormProps(form)} aria-labelledby="agent-edit-title" className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="save" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.workType} label="类型">
          <select {...getSelectProps(fields.workType)} className={inputClass(fields.workType)} autoFocus={firstInvalid === "workType"}>
            <CodeOptions table={WORK_TYPES} />
          </select>
        </Field>
        <Field field={fields.agentId} label="工号">
          <input
            {...getInputProps(fields.agentId, { type: "text" })}
            inputMode="numeric"
            title={AGENT_ID_RULE}
            className={inputClass(fields.agentId)}
            autoFocus={firstInvalid === "agentId"}
          />
        </Field>
        <Field field={fields.defaultQueueName} label="默认队列">
          <select
            {...getSelectProps(fields.defaultQueueName)}
            className={inputClass(fields.defaultQueueName)}
            autoFocus={firstInvalid === "defaultQueueName"}
          >
            {queueKnown ? null : <option value="">请选择队列</option>}
            {queues.map((queue) => (
              <option key={queue.name} value={queue.name}>
                {queue.name}（{queue.agents} 名坐席）
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.reason} label="修改原因">
          <textarea
            {...getTextareaProps(fields.reason)}
            rows={2}
            maxLength={AGENT_REASON_MAX}
            className={inputClass(fields.reason)}
            autoFocus={firstInvalid === "reason"}
          />
        </Field>
        <p className="sb-hint">
          类型决定坐席的工作台：文本坐席使用文本工作台，语音坐席使用语音工作台。修改类型后该坐席的登录随即结束，重新登录即进入新的工作台；已签入语音工作台或还有未结束会话的坐席不能修改类型。
        </p>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={`${SCREEN}${search}`}>
            取消
          </a>
        </div>
      </form>
      <section aria-labelledby="agent-logout-title" className="sb-section">
        <h3 id="agent-logout-title" className="sb-section-title">
          强制下线
        </h3>
        <p className="sb-hint">
          结束该坐席在所有浏览器中的登录（如设备遗失、人员离岗）。坐席正在通话或话后整理时不能下线，以免丢失通话结果。
        </p>
        <form method="post" {...getFormProps(logoutForm)} aria-labelledby="agent-logout-title" className="sb-form-grid">
          <CsrfInput />
          <input type="hidden" name="intent" value="logout" />
          <div className="sb-field">
            <label htmlFor={logout.logoutReason.id}>下线原因</label>
            <textarea
              {...getTextareaProps(logout.logoutReason, { ariaAttributes: false })}
              rows={2}
              required
              maxLength={ACCOUNT_LOGOUT_REASON_MAX}
              aria-invalid={logoutError ? true : undefined}
              aria-describedby={logoutError ? logout.logoutReason.errorId : undefined}
              className="p-inputtext"
            />
            {/* Its one message under its one field: the reason's own, or the platform's refusal. */}
            {logoutError ? (
              <small id={logout.logoutReason.errorId} className="p-error" role="alert">
                {logoutError}
              </small>
            ) : null}
          </div>
          <div className="sb-form-actions">
            <button type="submit" className="p-button p-button-danger" autoFocus={reasonBack !== undefined && !logoutError}>
              强制下线
            </button>
          </div>
        </form>
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
