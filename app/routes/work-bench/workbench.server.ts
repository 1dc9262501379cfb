import { z } from "zod";
import {
  CALL_ACTIONS,
  CallQualityReportSchema,
  CONSULT_STEPS,
  ConsultRequestSchema,
  DialRequestSchema,
  DtmfRequestSchema,
  TransferRequestSchema,
  type PhoneCall,
} from "#contracts/cti";
import { ConclusionRequestSchema } from "#contracts/workbench";
import { WorkOrderRecordInputSchema } from "#contracts/work-orders";
import type { Access } from "#app/server/access.server";
import * as cti from "#app/services/cti.server";
import { getRealtimeStart } from "#app/services/events.server";
import type { Caller } from "#app/services/upstream.server";
import { IslandRefusal, refuse } from "#app/server/island.server";
import { maskNumbers } from "#app/lib/format";
import * as workbench from "#app/services/workbench.server";
import { listWorkOrderTemplates } from "#app/services/work-orders.server";
import { requireWorkOrderCreator } from "#app/server/work-order-form.server";
import { sendableTemplates, sendSms } from "#app/services/customers.server";

/** An SMS to the call's customer: an approved template (the platform checks), previewed first. */
const SmsForCallSchema = z.object({
  templateId: z.coerce.number({ invalid_type_error: "请选择短信模板" }).int().positive("请选择短信模板"),
  contactId: z.coerce.number({ invalid_type_error: "该号码不是联系人，不能发送短信" }).int().positive("该号码不是联系人，不能发送短信"),
  preview: z.enum(["0", "1"]).default("0"),
});

/**
 * What the SMS card needs for a call's number: the contact it belongs to (SMS go to contacts, whose
 * values fill the variables) and the templates the agent may send (approved only).
 */
async function loadSms(caller: Caller, phone: string) {
  const [contacts, templates] = await Promise.all([
    /^\+?\d{3,20}$/.test(phone) ? workbench.findContactsByPhone(caller, phone) : [],
    sendableTemplates(caller),
  ]);
  const contact = contacts[0] ?? null;
  return {
    contact: contact && { id: contact.id, name: contact.name },
    templates: templates.map((t) => ({ id: t.id, name: t.name, length: t.length, segments: t.segments })),
  };
}
export type SmsCardData = Awaited<ReturnType<typeof loadSms>>;

/** A work order the agent creates for the call on the phone (of an enabled template, with its values). */
const WorkOrderForCallSchema = WorkOrderRecordInputSchema.extend({ ctiCallId: z.string().min(1).max(100) });

/** Everything the screen pop shows for a call: who is calling, the script, what happened before. */
export async function loadScreenPop(caller: Caller, call: PhoneCall | null) {
  if (!call) return null;
  const [contacts, flow, previous, campaign] = await Promise.all([
    workbench.findContactsByPhone(caller, call.phone),
    call.flowId ? workbench.getFlowService(caller, call.flowId) : null,
    call.prevCtiCallId ? workbench.getBusinessRecord(caller, call.prevCtiCallId) : null,
    call.campaignId ? workbench.getCampaignState(caller, call.campaignId) : null,
  ]);
  const workOrderId = call.workOrderId ?? previous?.workOrderId ?? null;
  // The enabled templates are read with each call, so a template changed a minute ago is the one offered.
  const [workOrder, templates] = await Promise.all([
    workOrderId ? workbench.getWorkOrder(caller, workOrderId) : null,
    listWorkOrderTemplates(caller, 1),
  ]);
  return { ctiCallId: call.ctiCallId, contact: contacts[0] ?? null, flow, previous, workOrder, campaign, templates };
}
export type ScreenPop = Awaited<ReturnType<typeof loadScreenPop>>;

/** The side panels that change after each call: today's calls, satisfaction, colleagues. */
async function loadPanels(caller: Caller) {
  const [today, satisfaction, needCall, colleagues] = await Promise.all([
    cti.listTodayCalls(caller),
    workbench.getSatisfactionToday(caller),
    workbench.countNeedCall(caller),
    cti.listColleagues(caller),
  ]);
  return { today: today.list, satisfaction, needCall, colleagues };
}

/**
 * The whole number of one of the agent's calls, for the server only: the call on the phone now, or
 * one of today's (the browser names a call by its id and sees its number masked).
 */
async function numberOfCall(caller: Caller, ctiCallId: string): Promise<string | null> {
  const phone = await cti.getPhone(caller);
  if (phone.call?.ctiCallId === ctiCallId) return phone.call.phone;
  const today = await cti.listTodayCalls(caller);
  return today.list.find((c) => c.ctiCallId === ctiCallId)?.phone ?? null;
}

/** The page: where the event stream starts, the phone as it is now, its call's screen pop, the panels. */
export async function loadWorkbench(access: Access) {
  // The stream's start is read first, so nothing that happens while the rest loads is missed.
  const startId = await getRealtimeStart(access.caller);
  return { startId, ...(await loadPhone(access.caller)), agentName: access.user.realName ?? access.user.userName };
}

/** The phone, its call's screen pop and the panels; the panels do not wait for the phone (one round trip fewer). */
async function loadPhone(caller: Caller) {
  const [[phone, pop], panels] = await Promise.all([
    cti.getPhone(caller).then(async (phone) => [phone, await loadScreenPop(caller, phone.call)] as const),
    loadPanels(caller),
  ]);
  // The browser sees every number masked, whichever field brought it (a result, an SMS or a
  // dial-back names the call by its id, and the server finds the number).
  return maskNumbers({ phone, pop, ...panels });
}

/** GET /workBench/phone: the screen pop and panels again (a new call), a knowledge search, or the colleagues. */
export async function readPhone(access: Access, url: URL) {
  const keyword = url.searchParams.get("keyword");
  if (keyword !== null) return { knowledge: await workbench.searchKnowledge(access.caller, keyword.trim().slice(0, 50)) };
  if (url.searchParams.has("colleagues")) return { colleagues: await cti.listColleagues(access.caller) };
  if (url.searchParams.has("sip")) return { sip: await cti.getSipAccess(access.caller) };
  const precall = url.searchParams.get("precall");
  if (precall !== null) return { precall: await cti.getPrecallResult(access.caller, precall.trim().slice(0, 100)) };
  const smsCall = url.searchParams.get("sms");
  if (smsCall !== null) {
    const number = await numberOfCall(access.caller, smsCall.trim().slice(0, 100));
    return { sms: number === null ? null : maskNumbers(await loadSms(access.caller, number)) };
  }
  return loadPhone(access.caller);
}

/** A field the workbench sends as JSON text: text that is not JSON is refused, never read as nothing. */
const json = (value: string, context: z.RefinementCtx): unknown => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    context.addIssue({ code: z.ZodIssueCode.custom, message: "提交的字段格式不正确" });
    return z.NEVER;
  }
};

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("state"), command: z.enum(["signIn", "ready", "signOut"]) }),
  z.object({ intent: z.literal("notReady"), reason: z.string() }),
  z.object({ intent: z.literal("call"), action: z.enum(CALL_ACTIONS) }),
  z.object({ intent: z.literal("dial") }).merge(DialRequestSchema),
  z.object({ intent: z.literal("dialBack"), ctiCallId: z.string().trim().min(1, "请选择要回拨的通话").max(100) }),
  z.object({ intent: z.literal("transfer") }).merge(TransferRequestSchema),
  z.object({ intent: z.literal("consult") }).merge(ConsultRequestSchema),
  z.object({ intent: z.literal("consultStep"), step: z.enum(CONSULT_STEPS) }),
  z.object({ intent: z.literal("dtmf") }).merge(DtmfRequestSchema),
  z.object({ intent: z.literal("autoAnswer"), autoAnswer: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("conclusion"), fields: z.string().transform(json) }).passthrough(),
  z.object({ intent: z.literal("workOrder"), values: z.string().max(40_000).default("{}").transform(json) }).passthrough(),
  z.object({ intent: z.literal("sms") }).merge(SmsForCallSchema),
  z.object({ intent: z.literal("quality"), report: z.string().max(2_000).transform(json).pipe(CallQualityReportSchema) }),
  z.object({ intent: z.literal("precall") }),
]);

/**
 * One phone-bar or form action of the voice workbench (POST /workBench/phone, answered by
 * answerAction): what it did, e.g. `{ phone }`, the phone's new state. Invalid input is refused in
 * Chinese; the platform's refusals keep their status (a 5xx tells the conclusion outbox to retry).
 * Numbers in the answer are masked, as on the page.
 */
export async function phoneAction(access: Access, form: FormData) {
  return maskNumbers(await runPhoneAction(access, form));
}

async function runPhoneAction(access: Access, form: FormData) {
  const parsed = ActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) refuse(parsed.error.issues);
  const caller = access.caller;
  const input = parsed.data;
  switch (input.intent) {
    case "state":
      return { phone: await cti.changeAgentState(caller, { command: input.command }) };
    case "notReady":
      return { phone: await cti.changeAgentState(caller, { command: "notReady", reason: input.reason }) };
    case "call":
      return { phone: await cti.controlCall(caller, input.action) };
    case "dial":
      return { phone: await cti.dial(caller, input.phone) };
    case "dialBack": {
      const number = await numberOfCall(caller, input.ctiCallId);
      if (number === null) throw new IslandRefusal("找不到该通话，请刷新后重试");
      return { phone: await cti.dial(caller, number) };
    }
    case "transfer":
      return { phone: await cti.transferCall(caller, input.target, input.to) };
    case "consult":
      return { phone: await cti.consult(caller, input.agentId) };
    case "consultStep":
      return { phone: await cti.consultStep(caller, input.step) };
    case "dtmf":
      return { phone: await cti.sendDtmf(caller, input.digits) };
    case "quality":
      return { quality: await cti.reportCallQuality(caller, input.report) };
    case "precall":
      return { precall: await cti.startPrecallTest(caller) };
    case "autoAnswer":
      return { autoAnswer: await workbench.setAutoAnswer(caller, input.autoAnswer === "true") };
    case "workOrder": {
      requireWorkOrderCreator(access);
      const order = WorkOrderForCallSchema.safeParse({ ...input, templateId: input.templateId || undefined });
      if (!order.success) refuse(order.error.issues);
      return { workOrder: await workbench.createWorkOrderForCall(caller, order.data) };
    }
    case "sms": {
      const result = await sendSms(caller, { templateId: input.templateId, ids: [input.contactId], preview: input.preview === "1" });
      return { sms: result };
    }
    case "conclusion": {
      // The form's `intent` names the action, so the intent label travels as `intentLabel`.
      // The browser sees the number masked: the platform takes the call's own.
      const conclusion = ConclusionRequestSchema.safeParse({ ...input, phone: "", intent: form.get("intentLabel") || null });
      if (!conclusion.success) refuse(conclusion.error.issues);
      return { record: await workbench.saveConclusion(caller, conclusion.data) };
    }
  }
}
export type PhoneActionResult = Awaited<ReturnType<typeof phoneAction>>;
