import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AGENT_REASONS, FORCED_STATES, labelOf, MONITOR_STATES, NOT_READY_REASONS, toneOf } from "#contracts/codes";
import { CodeTag } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listQueues } from "#app/services/config.server";
import { getRealtimeStart } from "#app/services/events.server";
import { forceAgentState, forceSignOut, listenToAgent, listMonitorAgents, moveAgent, whisperToAgent } from "#app/services/monitor.server";
import { Listening, useLiveAgent } from "./listening";
import { ActionSchema, type ActionInput, type Intent } from "./schema.server";

export const handle: RouteHandle = { title: "坐席详情", hydrate: true };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const userId = idParam(params.userId);
  const startId = await getRealtimeStart(caller, { scope: "tenant" });
  const [agents, queues, listening] = await Promise.all([
    listMonitorAgents(caller, { userId }),
    listQueues(caller),
    listenToAgent(caller, userId),
  ]);
  const agent = agents.list[0];
  if (!agent) throw data({ message: "坐席不存在", status: 404, what: "获取坐席" }, { status: 404 });
  return { agent, queues, listening, startId, at: agents.at };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const agentUserId = idParam(params.userId);
  const submission = parseWithZod(form, { schema: ActionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const done = await attempt(() => {
    switch (input.intent) {
      case "signOut":
        return forceSignOut(access.caller, { agentUserId, reason: input.reason });
      case "state":
        return forceAgentState(access.caller, {
          agentUserId,
          command: input.command,
          notReadyReason: input.notReadyReason,
          reason: input.reason,
        });
      case "move":
        return moveAgent(access.caller, { agentUserId, queueName: input.queueName, reason: input.reason });
      case "whisper":
        return whisperToAgent(access.caller, { agentUserId, content: input.content });
    }
  });
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  return redirectWithToast(`/monitor/agent/${agentUserId}`, done.value);
}

export default function AgentDetail() {
  const { agent: loaded, queues, listening, startId, at } = useLoaderData<typeof loader>();
  // 状态 and 当前通话 follow the agent live, as the listening below does.
  const { live: agent, listened, status } = useLiveAgent(loaded, startId, listening);
  const reply = useActionData<typeof action>();
  const lastResult = (intent: Intent) =>
    reply && (reply as { initialValue?: { intent?: string } }).initialValue?.intent === intent ? reply : undefined;
  const voice = agent.workType !== 3;
  return (
    <Screen
      title={`坐席详情：${agent.name}`}
      actions={
        <a className="p-button p-button-outlined" href="/monitor/agent">
          返回坐席监控
        </a>
      }
    >
      <dl className="sb-facts">
        <dt>工号</dt>
        <dd>{agent.agentId}</dd>
        <dt>队列</dt>
        <dd>{agent.queueName}</dd>
        <dt>状态</dt>
        <dd data-testid="agent-state">
          <CodeTag tone={toneOf(MONITOR_STATES, agent.state)}>{labelOf(MONITOR_STATES, agent.state)}</CodeTag>
          {agent.reason ? ` ${labelOf(AGENT_REASONS, agent.reason)}` : ""}
          {agent.signOutPending ? "（通话结束后签出）" : ""}
        </dd>
        <dt>状态开始</dt>
        <dd>{agent.state === "SIGNED_OUT" ? "-" : formatDateTime(Date.parse(agent.since))}</dd>
        <dt>当前通话 / 会话</dt>
        <dd>{agent.work ? `${agent.work.kind === "chat" ? "会话" : "通话"} ${maskPhone(agent.work.party)}` : "-"}</dd>
        <dt>今日通话 / 会话</dt>
        <dd>
          {agent.today.calls} / {agent.today.chats}
        </dd>
        <dt>平均处理时长</dt>
        <dd>{formatDuration(agent.today.averageHandleMs)}</dd>
        <dt>数据截至</dt>
        <dd>{formatDateTime(Date.parse(at))}</dd>
      </dl>

      <Listening listened={listened} status={status} />

      <div className="sb-monitor-actions">
        {voice ? (
          <ActionForm intent="signOut" title="强制签出" lastResult={lastResult("signOut")} submit="签出">
            {() => <p className="sb-hint">坐席正在通话时，将在通话结束后签出，不会中断通话。</p>}
          </ActionForm>
        ) : null}
        {voice ? (
          <ActionForm intent="state" title="变更状态" lastResult={lastResult("state")} submit="变更">
            {(fields) => (
              <>
                <Field field={fields.command} label="目标状态">
                  <select {...getSelectProps(fields.command)} required className={inputClass(fields.command)}>
                    <option value="">请选择</option>
                    {/* Not CodeOptions: its chunk would weigh on this island (app/components/code-select.tsx). */}
                    {FORCED_STATES.map((s) => (
                      <option key={s.code} value={s.code}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field field={fields.notReadyReason} label="未就绪原因（目标为未就绪时）">
                  <select {...getSelectProps(fields.notReadyReason)} className={inputClass(fields.notReadyReason)}>
                    <option value="">请选择</option>
                    {NOT_READY_REASONS.map((r) => (
                      <option key={r.code} value={r.code}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                </Field>
              </>
            )}
          </ActionForm>
        ) : null}
        <ActionForm intent="move" title="调整队列" lastResult={lastResult("move")} submit="调整">
          {(fields) => (
            <Field field={fields.queueName} label="目标队列">
              <select {...getSelectProps(fields.queueName)} required className={inputClass(fields.queueName)}>
                <option value="">请选择</option>
                {queues
                  .filter((q) => q.name !== agent.queueName)
                  .map((q) => (
                    <option key={q.name} value={q.name}>
                      {q.name}（{q.agents} 名坐席）
                    </option>
                  ))}
              </select>
            </Field>
          )}
        </ActionForm>
        <ActionForm intent="whisper" title="密语" lastResult={lastResult("whisper")} submit="发送密语" noReason>
          {(fields) => (
            <Field field={fields.content} label="密语内容（仅该坐席可见）">
              <textarea {...getTextareaProps(fields.content)} rows={3} required maxLength={500} className={inputClass(fields.content)} />
            </Field>
          )}
        </ActionForm>
      </div>
    </Screen>
  );
}

type ActionFields = ReturnType<typeof useForm<ActionInput>>[1];

/**
 * One action as a form of its own: its fields, a required reason, and its errors with the values
 * typed. The action checks it (the browser only what the fields' attributes say): posted through
 * Remix's `<Form>`, its errors come back without a reload.
 */
function ActionForm({
  intent,
  title,
  submit,
  lastResult,
  noReason,
  children,
}: {
  intent: Intent;
  title: string;
  submit: string;
  lastResult: SubmissionResult<string[]> | undefined;
  noReason?: boolean;
  children: (fields: ActionFields) => React.ReactNode;
}) {
  const [form, fields] = useForm<ActionInput>({ id: `action-${intent}`, lastResult });
  return (
    <section className="sb-section" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`} className="sb-section-title">
        {title}
      </h2>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value={intent} />
        <FormErrors id={form.errorId} errors={form.errors} />
        {children(fields)}
        {noReason ? null : (
          <Field field={fields.reason} label="原因">
            <input {...getInputProps(fields.reason, { type: "text" })} required maxLength={200} className={inputClass(fields.reason)} />
          </Field>
        )}
        <button type="submit" className={`p-button${intent === "signOut" ? " p-button-danger" : ""}`}>
          {submit}
        </button>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
