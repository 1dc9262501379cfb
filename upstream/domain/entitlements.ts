import type { Role } from "#contracts/uaa";
import { catalogueName, menuCodesFor } from "./menus";

/**
 * Who may call each route that takes a user's token (decision 044). The menus (menus.ts) are the
 * permission model: a route serves one or more screens, and a caller may use it exactly when their
 * menu lists one of those screens. The few routes every signed-in user needs say why; the few that
 * serve no screen name the role. The auth plugin checks the caller against this table once per
 * request, before the handler; a route missing from it stops the platform at start.
 *
 * Keys are "METHOD /declared/url" as Fastify registers them (HEAD follows its GET).
 */
export type Entitlement =
  | { screens: readonly string[] }
  | { signedIn: string /* why every signed-in user needs it */ }
  | { adminOnly: string /* why, though no screen lists it */ };

/** The call lists and their detail pages (a call's detail, recording, flow states). */
const CALL_LISTS = ["call_history", "call_log", "incoming_call", "incoming_history"] as const;
/** The screens a work order is read or followed on. */
const WORK_ORDER_SCREENS = ["agent_task_work_order", "text_work_order", "business_template_record"] as const;
/**
 * A group's screens whose pages the console opens to anyone given one of them (spec §2: a path
 * sharing its first segment with a menu url), and which show that caller nothing the group's other
 * screens do not: e.g. a supervisor's 呼入历史 opens 呼入通话 and 呼入业务记录 (the tenant's inbound calls).
 */
const INCOMING = ["incoming_call", "incoming_history", "incoming_business_record"] as const;
const TEXT_RECORDS = ["text_call", "text_business_record"] as const;
const VOICE = "aiaas_agent_work";
const TEXT = "aiaas_agent_text_work";
const SIMULATOR = { signedIn: "仿真控制，仅 SIMULATOR_CONTROL=1（测试）时注册：驱动模拟的客户与线路，不读任何租户数据" };
const screens = (...codes: string[]): Entitlement => ({ screens: codes });

export const ROUTE_ENTITLEMENTS: Readonly<Record<string, Entitlement>> = {
  // Who the caller is, their menu and their own account: every signed-in user.
  "GET /uaa/oauth/user_auth": { signedIn: "控制台凭令牌查询登录者本人" },
  "GET /crm/api/user/menus": { signedIn: "登录者本人的菜单，控制台据此放行页面" },
  "POST /crm/api/user/loginInfo": { signedIn: "记录登录者本人的登录信息" },
  "PUT /crm/api/user/:id/password": { signedIn: "修改本人密码（处理函数只允许本人）" },
  "GET /crm/job/customerid/:id": { signedIn: "本租户的 customerId，每个请求头都带着它" },
  "GET /config/api/customer": { signedIn: "本租户的名称与编号，页面框架显示" },
  "GET /config/agents/detail/:id": { signedIn: "登录时读取本人的坐席配置（工作类型、工号）" },
  "GET /config/global/mqconfig": { signedIn: "实时事件的起点，工作台、监控、质检页面都要" },
  "GET /events/api/stream": { signedIn: "本人的实时事件；坐席状态的订阅另由事件总线限于主管与管理员" },
  "GET /api/log": { signedIn: "浏览器出错的日志，任何页面都可能写" },
  "GET /crm/api/dictionary": { signedIn: "行业字典：公共参考数据，不含租户数据" },
  "GET /cti/api/agent": { signedIn: "本人的话机状态（非坐席得到“当前账号不是坐席”）" },
  "POST /cti/api/agent/state": { signedIn: "本人的话机状态，退出登录时也要签出" },
  // The tenant's account: no screen, the administrator's own (registration's second step).
  "GET /crm/api/register/info": { adminOnly: "企业信息：注册后由管理员填写" },
  "PUT /crm/api/register/info": { adminOnly: "企业信息：注册后由管理员填写" },
  "POST /billing/api/account/gen": { adminOnly: "开通计费账户：注册后由管理员完成" },

  "GET /crm/api/users": screens(...CALL_LISTS, "inspection_success", "manual_data_distribution", "text_call", ...WORK_ORDER_SCREENS),
  "POST /crm/api/user/:id/logout": screens("robot_agent"),

  "GET /config/tenants/:id/callerIdNumbers": screens("campaign", "robot_instance", "robot_resources"),
  "GET /config/agents/list": screens("robot_agent"),
  "GET /config/agents/:id": screens("robot_agent"),
  "PUT /config/agents/:id": screens("robot_agent"),
  "GET /config/queues/list": screens("monitor_agent", "robot_agent", "robot_flow", "robot_instance"),
  "GET /config/queues/settings": screens("monitor_agent"),
  "PUT /config/queues/settings": screens("monitor_agent"),
  "GET /config/agent/voice/preview": screens("robot_speaker"),

  "GET /contact/business/callhistory": screens("call_history"),
  "GET /contact/income/calls/history": screens("incoming_history"),
  "POST /contact/income/calls": screens(...INCOMING),
  "POST /contact/campaign/record/list": screens("call_log"),
  "POST /contact/campaign/record/export": screens("call_log"),
  "GET /contact/income/calls/:id": screens(...CALL_LISTS),
  "POST /records/records/:callId": screens(...CALL_LISTS, "inspection_success"),
  "POST /contact/trans/call/query": screens("man_machine_coordination"),
  "GET /contact/trace/call/query/:id": screens("man_machine_coordination", "campaign"),
  "POST /contact/call/conclusion": screens(VOICE),
  "GET /contact/campaign/dialog/list": screens(VOICE, ...CALL_LISTS, "man_machine_coordination"),

  "POST /robot/api/robot/instance/list": screens("campaign", "robot_instance"),
  "PUT /robot/api/robot/instance/:id": screens("robot_instance"),
  "DELETE /robot/api/robot/instance/:id": screens("robot_instance"),
  "POST /robot/api/robot/instance/allocate": screens("robot_instance"),
  "POST /robot/api/robot/instance/transfer": screens("robot_instance"),
  "POST /robot/api/robot/instance/copy": screens("robot_instance"),
  "GET /robot/api/flow/param": screens(...CALL_LISTS, "robot_flow"),
  "GET /robot/api/flow/state": screens(...CALL_LISTS, "robot_flow"),
  "POST /robot/api/flow/list": screens("robot_flow"),
  "POST /robot/api/flow/new": screens("robot_flow"),
  "GET /robot/api/flow/:id": screens("robot_flow"),
  "GET /robot/api/flow/:id/design": screens("robot_flow"),
  "PUT /robot/api/flow/:id/design": screens("robot_flow"),
  "PUT /robot/api/flow/:id/params": screens("robot_flow"),
  "POST /robot/api/flow/:id/audit/submit": screens("robot_flow"),
  "POST /robot/api/flow/:id/audit/return": screens("robot_flow"),
  "POST /robot/api/flow/:id/publish": screens("robot_flow"),
  "POST /robot/api/flow/:id/market": screens("robot_flow"),
  "POST /robot/api/flow/:id/cover": screens("robot_flow"),
  "POST /robot/api/flow/nlu/test": screens("robot_flow"),
  "GET /robot/api/flow/nlu/template": screens("robot_flow"),
  "GET /robot/api/flow/:id/definition/excel": screens("robot_flow"),
  "GET /robot/api/flow/:id/service": screens(VOICE, "robot_flow"),
  "GET /robot/api/regex": screens("robot_regex"),
  "GET /robot/api/regex/:id": screens("robot_regex"),
  "POST /robot/api/regex": screens("robot_regex"),
  "PUT /robot/api/regex/:id": screens("robot_regex"),
  "DELETE /robot/api/regex/:id": screens("robot_regex"),
  "POST /robot/api/regex/test": screens("robot_regex"),
  "GET /robot/api/dispatch/working": screens("robot_calendar"),
  "PUT /robot/api/dispatch/working": screens("robot_calendar"),
  "GET /robot/api/dispatch/festival": screens("robot_calendar"),
  "POST /robot/api/dispatch/festival": screens("robot_calendar"),
  "PUT /robot/api/dispatch/festival/:id": screens("robot_calendar"),
  "DELETE /robot/api/dispatch/festival/:id": screens("robot_calendar"),
  "GET /task/api/dispatch/:id": screens("robot_calendar"),
  "GET /robot/api/robot/speaker": screens("robot_speaker"),
  "GET /robot/api/store": screens("robot_store"),
  "GET /dialer/api/v1/gateway/line/robot": screens("robot_instance", "robot_resources"),

  "POST /outbound/campaigns/list": screens("campaign"),
  "POST /outbound/campaign/manage/list": screens("campaign"),
  "POST /outbound/inbound/campaign/list": screens("campaign"),
  "POST /outbound/inbound/task/list": screens("campaign"),
  "POST /outbound/campaign/select": screens("campaign", "contacts", "manual_data_distribution", "robot_calendar"),
  "GET /outbound/campaign/init": screens("campaign"),
  "GET /outbound/campaign/name/count": screens("campaign"),
  "GET /outbound/campaign/callingListName": screens("campaign"),
  "POST /outbound/campaign/save": screens("campaign"),
  "GET /outbound/campaign/scheduler/check": screens("campaign"),
  "PUT /outbound/campaign/change/state": screens("campaign"),
  "GET /outbound/campaign/ratio": screens("campaign"),
  "PUT /outbound/campaign/ratio": screens("campaign"),
  "POST /outbound/campaign/checkcontact": screens("campaign"),
  "POST /outbound/campaign/data/list": screens("campaign", "agent_task_business_record"),
  "POST /outbound/campaign/data/export": screens("campaign"),
  "GET /outbound/campaign/export/error": screens("campaign", "contacts"),
  "GET /outbound/campaign/imports": screens("campaign"),
  "GET /outbound/campaign/:id": screens("campaign"),
  "POST /outbound/task/list": screens("campaign"),
  "POST /outbound/task/list/agent": screens("agent_task_my"),
  "POST /outbound/task/save": screens("campaign"),
  "POST /outbound/task/recover": screens("campaign"),
  "GET /outbound/task/trace/:id": screens("campaign", "agent_task_my"),
  "GET /outbound/task/get/:id/:isCalling/:callType": screens("campaign", "agent_task_my"),
  "GET /outbound/agentend/beforecall/:batchId/:taskId": screens("manual_preview"),
  "GET /outbound/trans/template/get/:id": screens("campaign"),
  "GET /outbound/transTemplates/:agentId/:type": screens("campaign"),
  "POST /outbound/preview/next": screens("manual_preview"),
  "POST /outbound/preview/dial": screens("manual_preview"),
  "POST /outbound/preview/skip": screens("manual_preview"),
  // A voice agent's 预览外呼 opens 数据分配 (spec §2): it shows them what waits, not the form (decision 015).
  "GET /outbound/preview/unassigned": screens("manual_data_distribution", "manual_preview"),
  "POST /outbound/preview/distribute": screens("manual_data_distribution"),
  "GET /outbound/business/needCall": screens(VOICE),
  "GET /outbound/business/campaignState/:id": screens(VOICE),
  "POST /outbound/simulator/tick": SIMULATOR,
  "POST /api/file/upload": screens("campaign"),

  "GET /cti/api/agents": screens(VOICE),
  "GET /cti/api/agent/calls/today": screens(VOICE),
  "GET /cti/api/agent/sip": screens(VOICE),
  "POST /cti/api/agent/sip/test": screens(VOICE),
  "GET /cti/api/agent/sip/test/:testId": screens(VOICE),
  "POST /cti/api/call/dial": screens(VOICE, "manual_preview"),
  "POST /cti/api/call/transfer": screens(VOICE),
  "POST /cti/api/call/consult": screens(VOICE),
  "POST /cti/api/call/consult/:step": screens(VOICE),
  "POST /cti/api/call/dtmf": screens(VOICE),
  "POST /cti/api/call/quality": screens(VOICE),
  "POST /cti/api/call/:action": screens(VOICE, "manual_preview"),
  "POST /cti/simulator/offer": SIMULATOR,
  "POST /cti/simulator/call/:ctiCallId/asr": SIMULATOR,
  "POST /cti/simulator/call/:ctiCallId/hangup": SIMULATOR,
  "POST /cti/simulator/dial-outcome": SIMULATOR,
  "GET /cti/simulator/call/:ctiCallId/audio": SIMULATOR,
  "GET /cti/simulator/call/:ctiCallId/keys": SIMULATOR,

  "GET /crm_v2/contactsByPhone/:phone": screens(VOICE),
  "GET /config/business/record/list": screens(...INCOMING),
  "GET /config/business/record/:prevCtiCallId": screens(VOICE),
  "GET /config/workorder/record/info/:id": screens(VOICE),
  "GET /config/knowledge/node/platform": screens(VOICE, TEXT),
  "GET /analysis/satisfaction/agent/today": screens(VOICE),
  "PUT /config/workorder/record/call": screens(VOICE, ...CALL_LISTS),
  "PUT /config/agent/auto/answer": screens(VOICE),

  "POST /audit/api/log/list": screens("audit_log"),

  "POST /analysis/monitor/agent": screens("monitor_agent"),
  "POST /analysis/monitor/group": screens("monitor_agent"),
  "GET /analysis/monitor/rules": screens("monitor_agent"),
  "PUT /analysis/monitor/rules": screens("monitor_agent"),
  "POST /config/agents/forced/logout": screens("monitor_agent"),
  "POST /config/agents/state": screens("monitor_agent"),
  "PUT /config/agents/change": screens("monitor_agent"),
  "POST /analysis/monitor/whisper": screens("monitor_agent"),
  "GET /analysis/monitor/listen/:agentUserId": screens("monitor_agent"),

  "GET /config/knowledge/group/agent": screens("knowledge_base_config"),
  "POST /config/knowledge/group": screens("knowledge_base_config"),
  "PUT /config/knowledge/group/:id": screens("knowledge_base_config"),
  "DELETE /config/knowledge/group/:id": screens("knowledge_base_config"),
  "GET /config/knowledge/node/agent": screens("knowledge_base_config"),
  "POST /config/knowledge/node": screens("knowledge_base_config"),
  "POST /config/knowledge/node/batch/delete": screens("knowledge_base_config"),
  "GET /config/knowledge/node/count/:id": screens("knowledge_base_config"),
  "POST /config/knowledge/node/createBatch": screens("knowledge_base_config"),
  "PUT /config/knowledge/node/:id": screens("knowledge_base_config"),
  "DELETE /config/knowledge/node/:id": screens("knowledge_base_config"),
  "PUT /config/knowledge/node/:id/state/:state": screens("knowledge_base_config"),
  "PUT /config/knowledge/node/:id/usage": screens(VOICE, TEXT),
  "GET /config/knowledge/gap": screens("knowledge_base_config"),
  "GET /config/knowledge/label": screens("knowledge_base_config"),
  "GET /config/knowledge/label/:id": screens("knowledge_base_config"),
  "POST /config/knowledge/label": screens("knowledge_base_config"),
  "DELETE /config/knowledge/label/:id": screens("knowledge_base_config"),

  "GET /crm_v2/customer/property/list/:tenantId/:filter": screens("contacts", "customer_property", "sms_template"),
  "POST /crm_v2/customer/property": screens("customer_property"),
  "PUT /crm_v2/customer/property/reorder/:id/:action": screens("customer_property"),
  "PUT /crm_v2/customer/property/valid/:id/:valid": screens("customer_property"),
  "GET /crm_v2/customer/property/export/:x": screens("customer_property"),
  "PUT /crm_v2/customer/property/:id": screens("customer_property"),
  "DELETE /crm_v2/customer/property/:id": screens("customer_property"),
  "POST /crm_v2/contacts/v1/list": screens("contacts"),
  "POST /crm_v2/contacts/v1/import": screens("contacts"),
  "POST /crm_v2/contacts/v1/import/upload": screens("contacts"),
  "GET /crm_v2/contacts/v1/import/upload/:id": screens("contacts"),
  "POST /crm_v2/contacts/v1/import/mapped": screens("contacts"),
  "GET /crm_v2/contacts/v1/errorexport": screens("contacts"),
  "POST /crm_v2/contacts/v1/export": screens("contacts"),
  "POST /crm_v2/contacts/v1/delete": screens("contacts"),
  "POST /crm_v2/contacts/v1/outbound": screens("contacts", "campaign"),
  "GET /crm_v2/contacts/v1/callhistroy": screens("contacts"),
  "POST /crm_v2/contacts/v1": screens("contacts"),
  "GET /crm_v2/contacts/v1/:id": screens("contacts"),
  "PUT /crm_v2/contacts/v1/:id": screens("contacts"),
  "GET /crm_v2/groups/v1/list": screens("contacts", "campaign"),
  "POST /crm_v2/groups/v1": screens("contacts"),
  "PUT /crm_v2/groups/v1/:id": screens("contacts"),
  "DELETE /crm_v2/groups/v1/:id": screens("contacts"),
  "GET /sms/api/sms/customer/template": screens("contacts", VOICE),
  "GET /sms/api/sms/template/list": screens("sms_template"),
  "GET /sms/api/sms/outbox": screens("sms_outbox"),
  "GET /sms/api/sms/template/:id": screens("sms_template"),
  "POST /sms/api/sms/template": screens("sms_template"),
  "PUT /sms/api/sms/template/:id/review": screens("sms_template"),
  "PUT /sms/api/sms/template/:id": screens("sms_template"),
  "DELETE /sms/api/sms/template/:id": screens("sms_template"),
  "POST /msg/api/sms/send": screens("contacts", VOICE),

  // A work order is made from a call or a chat on a workbench or a call's detail (decision 026).
  "POST /config/workorder/template/list": screens("business_template_config", ...WORK_ORDER_SCREENS, VOICE, TEXT, ...CALL_LISTS),
  "GET /config/workorder/template/:id": screens("business_template_config", ...WORK_ORDER_SCREENS, VOICE, TEXT, ...CALL_LISTS),
  "POST /config/workorder/template": screens("business_template_config"),
  "PUT /config/workorder/template/:id": screens("business_template_config"),
  "DELETE /config/workorder/template/:id": screens("business_template_config"),
  "PUT /config/workorder/template/:id/:status": screens("business_template_config"),
  "POST /config/workorder/record/list": screens(...WORK_ORDER_SCREENS),
  "GET /config/workorder/record/number": screens(...WORK_ORDER_SCREENS),
  "GET /config/workorder/record/:id": screens(...WORK_ORDER_SCREENS),
  "POST /config/workorder/record": screens(...WORK_ORDER_SCREENS),
  "PUT /config/workorder/record/chat": screens(TEXT),
  "PUT /config/workorder/record/follow/:id/:state": screens(...WORK_ORDER_SCREENS),
  "PUT /config/workorder/record/receive/:id": screens(...WORK_ORDER_SCREENS),

  "POST /ccb/callInfo": screens("inspection_success"),
  "POST /ccb/humanRobot/callInfo": screens("inspection_success"),
  "POST /ccb/callInfo/export": screens("inspection_success"),
  "PUT /ccb/callInfo/:id": screens("inspection_success"),
  "GET /ccb/callInfo/next/:id": screens("inspection_success"),
  "GET /ccb/detail/:callId/:selectType": screens("inspection_success"),
  "POST /ccb/callback": screens("inspection_success"),
  "GET /ccb/callBack/customerInfo/:id/:caseId": screens("inspection_success"),
  "POST /ccb/agent/performance": screens("achievement"),
  "POST /ccb/tasks/apply": screens("inspection_success"),
  "POST /ccb/tasks/order": screens("inspection_success"),
  "POST /ccb/tasks/reallot": screens("inspection_success"),
  "POST /ccb/tasks/recovery": screens("inspection_success"),
  "POST /ccb/appeal": screens("inspection_success"),
  "POST /ccb/appeal/:id/decision": screens("inspection_success"),
  "POST /ccb/form/list": screens("inspection_form"),
  "GET /ccb/form/active": screens("inspection_success"),
  "GET /ccb/form/:id": screens("inspection_form"),
  "POST /ccb/form": screens("inspection_form"),
  "PUT /ccb/form/:id": screens("inspection_form"),
  "PUT /ccb/form/:id/state": screens("inspection_form"),
  "DELETE /ccb/form/:id": screens("inspection_form"),
  "POST /ccb/access/list": screens("inspection_access", "inspection_success"),
  "POST /ccb/access/grant": screens("inspection_access"),
  "POST /ccb/access/revoke": screens("inspection_access"),

  "GET /chat/api/sessions": screens(TEXT, "text_call"),
  "GET /chat/api/sessions/:id": screens(TEXT, "text_call"),
  "POST /chat/api/sessions/:id/join": screens(TEXT),
  "POST /chat/api/sessions/:id/close/agent": screens(TEXT),
  "POST /chat/api/sessions/:id/messages": screens(TEXT),
  "PUT /chat/text/business/record": screens(TEXT),
  "GET /chat/text/business/record": screens(...TEXT_RECORDS),
  "GET /chat/api/quick-replies": screens(TEXT),
  "POST /chat/simulator/customers": SIMULATOR,
  "POST /chat/simulator/sessions/:id/messages": SIMULATOR,
};

/** The table's entry for a route; HEAD is answered by its GET. */
export function entitlementOf(method: string, url: string): Entitlement | undefined {
  return ROUTE_ENTITLEMENTS[`${method === "HEAD" ? "GET" : method} ${url}`];
}

/** Whether a caller (role, work type) may call a route with this entitlement. */
export function entitled(entitlement: Entitlement, role: Role, workType: number): boolean {
  if ("signedIn" in entitlement) return true;
  if ("adminOnly" in entitlement) return role === "admin";
  const granted = menuCodesFor(role, workType);
  return entitlement.screens.some((code) => granted.has(code));
}

/** The Chinese refusal of a caller not entitled: which screen the route belongs to. */
export function refusalOf(entitlement: Entitlement): string {
  if ("signedIn" in entitlement) return "";
  if ("adminOnly" in entitlement) return "仅管理员可以访问该功能";
  return `无权访问：需要「${entitlement.screens.map(catalogueName).join("」或「")}」菜单`;
}
