import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ROBOT_NAME_MAX, type RobotInstance } from "#contracts/robot";
import { PostButton } from "#app/components/row-actions";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { refusalOf } from "#app/components/intent-form";
import { firstError } from "#app/components/form-field";
import { RobotCampaigns } from "#app/components/robot-campaigns";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listCallerIdNumbers, listQueues } from "#app/services/config.server";
import { listGatewayLines } from "#app/services/robot-resources.server";
import { allocateRobot, copyRobot, deleteRobot, findRobot, listFlowChoices, transferRobot, updateRobot } from "#app/services/robot.server";
import type { Caller } from "#app/services/upstream.server";
import { RobotFormSchema } from "./schema";
import { DeleteConfirm, EditForm, SmallForm } from "./forms";

export const handle: RouteHandle = { title: ROBOT_TITLES.instance };
const LIST = "/robot/instance";

async function requireRobot(caller: Caller, id: number): Promise<RobotInstance> {
  const robot = await findRobot(caller, id);
  if (!robot) throw data({ message: "机器人不存在", status: 404, what: "获取机器人" }, { status: 404 });
  return robot;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const id = idParam(params.id);
  const [robot, flows, queues, callerNumbers, lines] = await Promise.all([
    requireRobot(caller, id),
    listFlowChoices(caller),
    listQueues(caller),
    listCallerIdNumbers(caller),
    listGatewayLines(caller),
  ]);
  return { robot, flows, queues, callerNumbers, lines };
}

/** Each form of the page posts here with its intent; a refusal comes back on that form with what was typed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = idParam(params.id);
  const submission = parseWithZod(form, { schema: RobotFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  const here = `${LIST}/${id}`;
  const fieldOf = { "robot.update": "name", "robot.allocate": "queueName", "robot.transfer": "flowId", "robot.copy": "name" } as const;
  // The edit's refusals name the field they are about (a speaker, a line, a caller number), else the name.
  const updateField = (message: string) =>
    message.includes("机器人名称")
      ? "name"
      : message.includes("发音人")
        ? "speaker"
        : message.includes("线路")
          ? "lineId"
          : message.includes("主叫号码")
            ? "callerNumber"
            : "name";
  const refuse = (done: { message: string; status: number }) =>
    input.intent === "robot.delete"
      ? rejectForm(submission, { formErrors: [done.message] }, done.status)
      : rejectForm(
          submission,
          { fieldErrors: { [input.intent === "robot.update" ? updateField(done.message) : fieldOf[input.intent]]: [done.message] } },
          done.status,
        );
  switch (input.intent) {
    case "robot.update": {
      const { intent: _intent, ...robot } = input;
      const done = await attempt(() => updateRobot(caller, id, robot));
      return done.ok ? redirectWithToast(here, `机器人「${done.value.name}」已保存`) : refuse(done);
    }
    case "robot.allocate": {
      const done = await attempt(() => allocateRobot(caller, id, input.queueName));
      if (!done.ok) return refuse(done);
      const queue = done.value.queueName;
      return redirectWithToast(here, queue ? `转人工已分配到队列「${queue}」` : "已取消转人工队列");
    }
    case "robot.transfer": {
      const done = await attempt(() => transferRobot(caller, id, input.flowId));
      return done.ok ? redirectWithToast(here, `机器人已转到流程「${done.value.flowName}」`) : refuse(done);
    }
    case "robot.copy": {
      const done = await attempt(() => copyRobot(caller, id, input.name));
      return done.ok ? redirectWithToast(`${LIST}/${done.value.id}`, `已复制为「${done.value.name}」`) : refuse(done);
    }
    case "robot.delete": {
      // The first post answers a confirmation naming the campaigns that use the robot.
      if (!input.confirmed) return data({ confirm: await requireRobot(caller, id) });
      const done = await attempt(() => deleteRobot(caller, id));
      return done.ok ? redirectWithToast(LIST, "机器人已删除") : refuse(done);
    }
  }
}

export default function RobotInstanceDetail() {
  const { robot, flows, queues, callerNumbers, lines } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname } = useLocation();
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const deleteRefusal = refusalOf(result, "robot.delete");

  return (
    <Screen
      title={`${ROBOT_TITLES.instance}：${robot.name}`}
      actions={
        <a className="p-button p-button-text" href={LIST}>
          返回机器人列表
        </a>
      }
    >
      {confirm ? <DeleteConfirm robot={confirm} cancelHref={pathname} /> : null}
      {deleteRefusal ? <Notice tone="error">{firstError(deleteRefusal)}</Notice> : null}

      <EditForm robot={robot} callerNumbers={callerNumbers} lines={lines} lastResult={refusalOf(result, "robot.update")} />

      <section aria-labelledby="robot-flow-title" className="sb-section">
        <h2 id="robot-flow-title" className="sb-section-title">
          运行的流程
        </h2>
        <p>
          当前：{robot.flowName ?? "未设置"}
          {robot.flowVersionName ? ` ${robot.flowVersionName}` : ""}
          {robot.flowName && !robot.published ? "（流程未发布）" : ""}
        </p>
        <SmallForm
          intent="robot.transfer"
          field="flowId"
          label="转到流程"
          button="转移"
          result={result}
          fallback={robot.flowId ?? ""}
          render={(props) => (
            <select {...props} required>
              <option value="">请选择流程</option>
              {flows.map((flow) => (
                <option key={flow.id} value={flow.id}>
                  {flow.name}
                  {flow.serviceVersion ? `（${flow.serviceVersion}）` : "（流程未发布）"}
                </option>
              ))}
            </select>
          )}
        />
      </section>

      <section aria-labelledby="robot-queue-title" className="sb-section">
        <h2 id="robot-queue-title" className="sb-section-title">
          分配转人工队列
        </h2>
        <p className="sb-hint">机器人通话转人工时，转到这个队列的坐席（流程的转人工节点可另行指定队列）。</p>
        <SmallForm
          intent="robot.allocate"
          field="queueName"
          label="坐席队列"
          button="分配"
          result={result}
          fallback={robot.queueName ?? ""}
          render={(props) => (
            <select {...props}>
              <option value="">不分配（使用活动的队列）</option>
              {queues.map((queue) => (
                <option key={queue.name} value={queue.name}>
                  {queue.name}（{queue.agents} 名坐席）
                </option>
              ))}
            </select>
          )}
        />
      </section>

      <section aria-labelledby="robot-campaigns-title" className="sb-section">
        <h2 id="robot-campaigns-title" className="sb-section-title">
          使用它的活动
        </h2>
        <p>
          <RobotCampaigns campaigns={robot.campaigns} />
        </p>
      </section>

      <section aria-labelledby="robot-copy-title" className="sb-section">
        <h2 id="robot-copy-title" className="sb-section-title">
          复制机器人
        </h2>
        <SmallForm
          intent="robot.copy"
          field="name"
          label="副本名称"
          button="复制"
          result={result}
          fallback={`${robot.name}（副本）`.slice(0, ROBOT_NAME_MAX)}
          render={(props) => <input {...props} required maxLength={ROBOT_NAME_MAX} />}
        />
      </section>

      <section aria-labelledby="robot-delete-title" className="sb-section">
        <h2 id="robot-delete-title" className="sb-section-title">
          删除机器人
        </h2>
        <PostButton
          formClassName="sb-inline-forms"
          fields={{ intent: "robot.delete" }}
          label="删除机器人"
          className="p-button p-button-danger p-button-outlined"
        />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
