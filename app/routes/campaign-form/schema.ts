import { z } from "zod";
import { CAMPAIGN_TYPES, SCHEDULE_CYCLES, TASK_TYPES, codesOf } from "#contracts/codes";
import { HHMM, type CampaignSave } from "#contracts/outbound";

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).optional();
const time = (label: string) => z.string({ required_error: `请填写${label}` }).regex(HHMM, `${label}格式应为 时:分，如 09:00`);
const optionalTime = (label: string) => z.string().regex(HHMM, `${label}格式应为 时:分，如 13:30`).optional();
const optionalId = (message: string) => z.coerce.number({ invalid_type_error: message }).int(message).positive(message).optional();
const oneOf = (codes: number[], message: string) =>
  z.coerce.number({ invalid_type_error: message }).refine((n) => codes.includes(n), message);

/** A choice the tenant does not have (unknown, or another tenant's): the field's message. */
export const CHOICE_MESSAGES = {
  robotId: "所选机器人不存在，请重新选择",
  robotUnpublished: "所选机器人的流程尚未发布，请先在机器人流程中发布一个版本",
  callerNumber: "所选主叫号码不存在，请重新选择",
  transTemplateId: "所选转接模板不存在，请重新选择",
} as const;

/** The campaign form as posted (every field a named input); messages are what the user reads. */
export const CampaignFormSchema = z
  .object({
    name: z.string({ required_error: "请填写活动名称" }).trim().min(1, "请填写活动名称").max(64, "活动名称不能超过64个字符"),
    type: oneOf(
      codesOf(CAMPAIGN_TYPES).filter((c) => c !== -1),
      "请选择活动类型",
    ),
    taskType: oneOf(codesOf(TASK_TYPES), "请选择任务类型"),
    cycle: oneOf(codesOf(SCHEDULE_CYCLES), "请选择调度周期"),
    ratio: z.coerce
      .number({ required_error: "请填写外呼比例", invalid_type_error: "外呼比例应为数字" })
      .min(0.1, "外呼比例应在0.1到5之间")
      .max(5, "外呼比例应在0.1到5之间"),
    maxAttempts: z.coerce
      .number({ required_error: "请填写最大呼叫次数", invalid_type_error: "最大呼叫次数应为整数" })
      .int("最大呼叫次数应为整数")
      .min(1, "最大呼叫次数应在1到5之间")
      .max(5, "最大呼叫次数应在1到5之间"),
    callingListName: optionalText(64, "名单名称不能超过64个字符"),
    robotId: optionalId(CHOICE_MESSAGES.robotId),
    queueName: optionalText(64, "队列名称不能超过64个字符"),
    callerNumber: optionalText(32, "主叫号码不能超过32个字符"),
    transTemplateId: optionalId(CHOICE_MESSAGES.transTemplateId),
    window1Start: time("时段一开始时间"),
    window1End: time("时段一结束时间"),
    window2Start: optionalTime("时段二开始时间"),
    window2End: optionalTime("时段二结束时间"),
    startDate: z.string().date("开始日期格式不正确").optional(),
    endDate: z.string().date("结束日期格式不正确").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.window1End <= v.window1Start) ctx.addIssue({ code: "custom", path: ["window1End"], message: "结束时间应晚于开始时间" });
    if (Boolean(v.window2Start) !== Boolean(v.window2End))
      ctx.addIssue({ code: "custom", path: [v.window2Start ? "window2End" : "window2Start"], message: "时段二需同时填写开始和结束时间" });
    if (v.window2Start && v.window2End && v.window2End <= v.window2Start)
      ctx.addIssue({ code: "custom", path: ["window2End"], message: "结束时间应晚于开始时间" });
    if (v.startDate && v.endDate && v.endDate < v.startDate)
      ctx.addIssue({ code: "custom", path: ["endDate"], message: "结束日期不能早于开始日期" });
    if ((v.type === 1 || v.type === 2) && !v.robotId)
      ctx.addIssue({ code: "custom", path: ["robotId"], message: "机器人外呼和人机协同外呼需选择机器人" });
    if (v.type !== 1 && !v.queueName) ctx.addIssue({ code: "custom", path: ["queueName"], message: "该活动类型需选择坐席队列" });
  });
export type CampaignForm = z.infer<typeof CampaignFormSchema>;

/** What the form offers, from the platform: the tenant's robots, caller numbers and transfer templates. */
export type CampaignChoices = {
  robots: Array<{ id: number; name: string; published: boolean }>;
  callerNumbers: Array<{ id: number; number: string }>;
  templates: Array<{ id: number; name: string }>;
};

/** Field errors for chosen values that are not among the tenant's choices. */
export function choiceErrors(form: CampaignForm, choices: CampaignChoices): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const robot = form.robotId === undefined ? undefined : choices.robots.find((r) => r.id === form.robotId);
  if (form.robotId !== undefined && !robot) errors.robotId = [CHOICE_MESSAGES.robotId];
  else if (robot && !robot.published) errors.robotId = [CHOICE_MESSAGES.robotUnpublished];
  if (form.callerNumber && !choices.callerNumbers.some((n) => n.number === form.callerNumber))
    errors.callerNumber = [CHOICE_MESSAGES.callerNumber];
  if (form.transTemplateId !== undefined && !choices.templates.some((t) => t.id === form.transTemplateId))
    errors.transTemplateId = [CHOICE_MESSAGES.transTemplateId];
  return errors;
}

export function toSave(form: CampaignForm, id?: number): CampaignSave {
  const windows = [{ start: form.window1Start, end: form.window1End }];
  if (form.window2Start && form.window2End) windows.push({ start: form.window2Start, end: form.window2End });
  return {
    id,
    name: form.name,
    type: form.type,
    taskType: form.taskType,
    cycle: form.cycle,
    ratio: form.ratio,
    maxAttempts: form.maxAttempts,
    callingListName: form.callingListName || null,
    robotId: form.robotId ?? null,
    queueName: form.queueName || null,
    callerNumber: form.callerNumber || null,
    transTemplateId: form.transTemplateId ?? null,
    windows,
    startDate: form.startDate ?? null,
    endDate: form.endDate ?? null,
  };
}
