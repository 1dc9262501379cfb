import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { QC_FORM_STATES } from "#contracts/codes";
import { QC_FORM_EDITABLE, QC_FORM_TRANSITIONS, QC_REASON_MAX, type ScoreForm } from "#contracts/inspection";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess, requireMenuUrl } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { changeScoreFormState, deleteScoreForm, listScoreForms } from "#app/services/inspection.server";

const SCREEN = "/inspectionForm";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

const id = z.coerce.number({ invalid_type_error: "评分表不存在" }).int().positive("评分表不存在");
const IntentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("state"),
    id,
    action: z.enum(["activate", "retire"], { errorMap: () => ({ message: "操作无效，只能启用或停用" }) }),
    name: z.string().max(60).optional(),
    active: z.string().max(60).optional(),
    reason: z.string().trim().max(QC_REASON_MAX, `原因不能超过${QC_REASON_MAX}个字符`).optional(),
    confirmed: z.literal("1").optional(),
  }),
  z.object({ intent: z.literal("delete"), id, name: z.string().max(60).optional(), confirmed: z.literal("1").optional() }),
]);

/**
 * Scoring forms (administrators, decision 028): every form of the tenant with its state; a draft
 * is edited at /inspectionForm/{id}; activating one (it replaces the active form) and retiring
 * are confirmed with a reason, deleting a draft is confirmed. No JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = requireMenuUrl(await requireAccess(request), SCREEN);
  return { forms: await listScoreForms(access.caller) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  requireMenuUrl(access, SCREEN);
  const submission = parseWithZod(form, { schema: IntentSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  if (!input.confirmed) {
    const fields: Record<string, string> = { intent: input.intent, id: String(input.id), name: input.name ?? "" };
    if (input.intent === "state") Object.assign(fields, { action: input.action, active: input.active ?? "" });
    return data({ confirm: { fields, intent: input.intent, action: input.intent === "state" ? input.action : null } });
  }
  if (input.intent === "delete") {
    const done = await attempt(() => deleteScoreForm(access.caller, input.id));
    if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
    return redirectWithToast(SCREEN, `评分表「${input.name ?? ""}」已删除`);
  }
  const done = await attempt(() => changeScoreFormState(access.caller, input.id, input.action, input.reason ?? ""));
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  return redirectWithToast(
    SCREEN,
    input.action === "activate" ? `评分表「${done.value.name}」已启用` : `评分表「${done.value.name}」已停用`,
  );
}

export default function ScoreForms() {
  const { forms } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname } = useLocation();
  const refusal = refusalOf(result);
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const active = forms.find((f) => f.state === "active");
  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={`${SCREEN}/new`}>
          新建评分表
        </a>
      }
    >
      {confirm ? <Confirmation confirm={confirm} cancelHref={pathname} /> : null}
      {refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
      <p className="sb-hint">
        质检员按启用中的评分表逐项评分：得分为未选“不适用”的评分项得分之和占其分值之和的比例（满分 100）；一票否决项不通过时，该通话得分为
        0，影响记为负面，计入不合格。同一时间只有一张评分表启用；启用过的评分表不能再修改，停用后仍保留其评分记录。
      </p>
      {active ? null : <Notice tone="info">当前没有启用的评分表，质检员只提交质检结果、影响和备注。</Notice>}
      <DataTable<ScoreForm>
        caption="质检评分表列表"
        rowKey="id"
        emptyMessage="暂无评分表"
        config={{
          list: forms,
          total: forms.length,
          eleItem: [
            {
              prop: "name",
              label: "名称",
              render: (f) => (
                <a href={`${SCREEN}/${f.id}`} aria-label={`${QC_FORM_EDITABLE.includes(f.state) ? "编辑" : "查看"}「${f.name}」`}>
                  {f.name}
                </a>
              ),
            },
            { prop: "state", label: "状态", render: (f) => <CodeLabel table={QC_FORM_STATES} code={f.state} /> },
            {
              prop: "items",
              label: "评分项",
              render: (f) => `${f.items.length} 项，共 ${f.totalWeight} 分${f.items.some((i) => i.veto) ? "，含一票否决" : ""}`,
            },
            { prop: "usedCount", label: "已评通话" },
            { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
            { prop: "id", label: "操作", render: (f) => <FormActions form={f} active={active} /> },
          ],
        }}
      />
    </Screen>
  );
}

function FormActions({ form, active }: { form: ScoreForm; active: ScoreForm | undefined }) {
  const moves = QC_FORM_TRANSITIONS.filter((t) => t.from.includes(form.state));
  return (
    <div className="sb-row-actions">
      {moves.map((move) => (
        <form method="post" key={move.action}>
          <CsrfInput />
          <input type="hidden" name="intent" value="state" />
          <input type="hidden" name="id" value={form.id} />
          <input type="hidden" name="action" value={move.action} />
          <input type="hidden" name="name" value={form.name} />
          {active && move.action === "activate" ? <input type="hidden" name="active" value={active.name} /> : null}
          <button type="submit" className="p-button p-button-text p-button-sm" aria-label={`${move.label}「${form.name}」`}>
            {move.label}
          </button>
        </form>
      ))}
      {QC_FORM_EDITABLE.includes(form.state) ? (
        <PostButton fields={{ intent: "delete", id: form.id, name: form.name }} label="删除" ariaLabel={`删除「${form.name}」`} danger />
      ) : null}
    </div>
  );
}

function Confirmation({
  confirm,
  cancelHref,
}: {
  confirm: { fields: Record<string, string>; intent: string; action: string | null };
  cancelHref: string;
}) {
  const name = confirm.fields.name;
  if (confirm.intent === "delete") {
    return (
      <ConfirmStep title="删除评分表" fields={confirm.fields} confirmLabel="确认删除" cancelHref={cancelHref}>
        <p>确定删除草稿「{name}」吗？删除后不可恢复。</p>
      </ConfirmStep>
    );
  }
  const activate = confirm.action === "activate";
  return (
    <ConfirmStep
      title={activate ? "启用评分表" : "停用评分表"}
      fields={confirm.fields}
      confirmLabel={activate ? "确认启用" : "确认停用"}
      cancelHref={cancelHref}
      danger={!activate}
      inside={
        <div className="sb-field">
          <label htmlFor="form-state-reason">原因（选填）</label>
          <input id="form-state-reason" name="reason" type="text" maxLength={QC_REASON_MAX} className="p-inputtext" />
        </div>
      }
    >
      {activate ? (
        <p>
          启用「{name}」后，质检员须按它逐项评分{confirm.fields.active ? `；当前启用的「${confirm.fields.active}」将停用` : ""}
          。启用后该评分表不能再修改。
        </p>
      ) : (
        <p>停用「{name}」后，质检员只提交质检结果、影响和备注，直到启用另一张评分表。已评分的通话保留其评分。</p>
      )}
    </ConfirmStep>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
