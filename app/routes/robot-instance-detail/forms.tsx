// The forms of a robot's page: its settings, one-field actions (copy, transfer, allocate) and the delete confirmation.
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { GENDERS, ROBOT_SPEAKERS, labelOf } from "#contracts/codes";
import type { RobotInstance } from "#contracts/robot";
import type { GatewayLine } from "#contracts/robot-resources";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalMessageOf, useIntentForm } from "#app/components/intent-form";
import { UpdateFormSchema } from "./schema";

/** The robot's own settings (PUT …/instance/{id}); its flow is changed by 转移, so it posts the current one. */
export function EditForm({
  robot,
  callerNumbers,
  lines,
  lastResult,
}: {
  robot: RobotInstance;
  callerNumbers: Array<{ id: number; number: string }>;
  lines: GatewayLine[];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "robot-edit",
    lastResult,
    constraint: getZodConstraint(UpdateFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateFormSchema }),
    defaultValue: {
      name: robot.name,
      concurrency: String(robot.concurrency),
      callerNumber: robot.callerNumber ?? "",
      speaker: robot.speaker ?? "",
      lineId: robot.lineId === null ? "" : String(robot.lineId),
      followCalendar: robot.followCalendar ? "on" : undefined,
    },
  });
  return (
    <section aria-labelledby="robot-edit-title" className="sb-section">
      <h2 id="robot-edit-title" className="sb-section-title">
        基本信息
      </h2>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="robot.update" />
        <input type="hidden" name="flowId" value={robot.flowId ?? ""} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.name} label="机器人名称">
          <input {...getInputProps(fields.name, { type: "text" })} className={inputClass(fields.name)} />
        </Field>
        <Field field={fields.concurrency} label="并发数（同时通话数）">
          <input {...getInputProps(fields.concurrency, { type: "number" })} className={inputClass(fields.concurrency)} />
        </Field>
        <Field field={fields.callerNumber} label="主叫号码">
          <select {...getSelectProps(fields.callerNumber)} className={inputClass(fields.callerNumber)}>
            <option value="">不设置（使用活动的主叫号码）</option>
            {callerNumbers.map((n) => (
              <option key={n.id} value={n.number}>
                {n.number}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.speaker} label="发音人">
          <select {...getSelectProps(fields.speaker)} className={inputClass(fields.speaker)}>
            <option value="">不设置（使用默认发音人）</option>
            {ROBOT_SPEAKERS.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}（{labelOf(GENDERS, s.gender)}，{s.style}）
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.lineId} label="外呼线路">
          <select {...getSelectProps(fields.lineId)} className={inputClass(fields.lineId)}>
            <option value="">不设置（使用默认线路）</option>
            {lines.map((line) => (
              <option key={line.id} value={line.id}>
                {line.name}（{line.carrier}，前缀 {line.prefix}，最多 {line.concurrency} 路同时通话）{line.enabled ? "" : "（已停用）"}
              </option>
            ))}
          </select>
        </Field>
        <div className="sb-field">
          <label className="sb-check">
            <input {...getInputProps(fields.followCalendar, { type: "checkbox" })} /> 按工作日历外呼
          </label>
          <small className="sb-hint">勾选后，使用它的活动在工作日历的休息日、节假日和工作时间以外不外呼。</small>
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
        </div>
      </form>
    </section>
  );
}

type ControlProps = {
  id: string;
  name: string;
  defaultValue: string;
  className: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

/** A one-field form of the page: its value typed kept and its error under it when refused. */
export function SmallForm({
  intent,
  field,
  label,
  button,
  result,
  fallback,
  render,
}: {
  intent: string;
  field: string;
  label: string;
  button: string;
  /** The action's answer: what this form posted comes back if it was refused. */
  result: unknown;
  fallback: string | number;
  render: (props: ControlProps) => JSX.Element;
}) {
  const [form, fields] = useIntentForm(intent, result, { [field]: String(fallback) });
  const control = fields[field];
  const id = `${intent.replace(".", "-")}-${field}`;
  const error = refusalMessageOf(result, intent);
  return (
    <form method="post" className="sb-inline-forms" {...getFormProps(form)} key={control.key}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <div className="sb-field">
        <label htmlFor={id}>{label}</label>
        {render({
          id,
          name: field,
          defaultValue: typeof control.initialValue === "string" ? control.initialValue : "",
          className: `p-inputtext${error ? " p-invalid" : ""}`,
          ...(error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {}),
        })}
        {error ? (
          <small id={`${id}-error`} className="p-error">
            {error}
          </small>
        ) : null}
      </div>
      <button type="submit" className="p-button p-button-outlined">
        {button}
      </button>
    </form>
  );
}

export function DeleteConfirm({ robot, cancelHref }: { robot: RobotInstance; cancelHref: string }) {
  const calling = robot.campaigns.filter((c) => c.calling);
  return (
    <ConfirmStep title={`删除机器人「${robot.name}」`} fields={{ intent: "robot.delete" }} confirmLabel="确认删除" cancelHref={cancelHref}>
      {robot.campaigns.length === 0 ? (
        <p>没有活动使用这个机器人。删除后不可恢复。</p>
      ) : (
        <>
          <p>
            以下活动仍在使用这个机器人：{robot.campaigns.map((c) => `「${c.name}」${c.calling ? "（外呼中）" : ""}`).join("、")}。
            删除后这些活动将没有机器人，需重新选择。
          </p>
          {calling.length > 0 ? <p>其中外呼中的活动使用时不能删除，请先暂停或结束这些活动。</p> : null}
        </>
      )}
    </ConfirmStep>
  );
}
