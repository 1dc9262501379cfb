import type { MenuItem } from "#contracts/crm";
import type { Role } from "#contracts/uaa";
import { WORK_ORDER_MENU_URLS } from "#contracts/work-order-values";
import { isTextWorkType } from "./work-type";

/**
 * The menu catalogue and who gets which entries. The console allows a path only when a menu url
 * it receives shares the path's first segment (spec §2, §6), so this module is the platform's
 * whole permission model for screens.
 *
 * A group has its own code; its url is the url of its first child the caller is given, which is
 * always one of the screen urls below.
 */
type CatalogueEntry = { code: string; name: string; url: string; icon?: string; children?: CatalogueLeaf[] };
type CatalogueLeaf = { code: string; name: string; url: string; icon?: string };

const catalogue: readonly CatalogueEntry[] = [
  { code: "home", name: "首页", url: "/", icon: "pi pi-home" },
  { code: "aiaas_agent_work", name: "语音工作台", url: "/workBench", icon: "pi pi-phone" },
  { code: "aiaas_agent_text_work", name: "文本工作台", url: "/textWorkBench", icon: "pi pi-comments" },
  {
    code: "agent_task",
    name: "外呼任务",
    url: "/agentTask/my",
    icon: "pi pi-list-check",
    children: [
      { code: "agent_task_my", name: "我的任务", url: "/agentTask/my" },
      { code: "agent_task_business_record", name: "外呼业务记录", url: "/agentTask/businessRecord" },
      { code: "agent_task_work_order", name: "我的工单", url: "/agentTask/workOrder" },
    ],
  },
  {
    code: "incoming",
    name: "呼入",
    url: "/incoming/call",
    icon: "pi pi-sign-in",
    children: [
      { code: "incoming_call", name: "呼入通话", url: "/incoming/call" },
      { code: "incoming_history", name: "呼入历史", url: "/incoming/history" },
      { code: "incoming_business_record", name: "呼入业务记录", url: "/incoming/businessRecord" },
    ],
  },
  {
    code: "manual",
    name: "人工外呼",
    url: "/manual/preview",
    icon: "pi pi-user",
    children: [
      { code: "manual_preview", name: "预览外呼", url: "/manual/preview" },
      { code: "manual_data_distribution", name: "数据分配", url: "/manual/dataDistribution" },
    ],
  },
  { code: "man_machine_coordination", name: "人机协同", url: "/manMachine/coordination", icon: "pi pi-sitemap" },
  {
    code: "call_record",
    name: "通话记录",
    url: "/callHistory",
    icon: "pi pi-history",
    children: [
      { code: "call_history", name: "通话历史", url: "/callHistory" },
      { code: "call_log", name: "外呼通话记录", url: "/callLog" },
    ],
  },
  {
    code: "text_service",
    name: "文本客服",
    url: "/text/call",
    icon: "pi pi-comment",
    children: [
      { code: "text_call", name: "文本会话记录", url: "/text/call" },
      { code: "text_business_record", name: "文本业务记录", url: "/text/businessRecord" },
      // A text agent's own work orders, made from chats (decision 026): the voice agents' screen.
      { code: "text_work_order", name: "我的工单", url: "/agentTask/workOrder" },
    ],
  },
  { code: "monitor_agent", name: "坐席监控", url: "/monitor/agent", icon: "pi pi-desktop" },
  { code: "inspection_success", name: "质检结果", url: "/inspectionSuccess", icon: "pi pi-check-square" },
  { code: "inspection_access", name: "质检接入", url: "/access", icon: "pi pi-link" },
  // Administrators define the scoring forms inspectors score with (decision 028).
  { code: "inspection_form", name: "质检评分表", url: "/inspectionForm", icon: "pi pi-list" },
  { code: "knowledge_base_config", name: "知识库配置", url: "/knowledgeBase/config", icon: "pi pi-book" },
  {
    code: "customer",
    name: "客户管理",
    url: "/contacts",
    icon: "pi pi-users",
    children: [
      { code: "contacts", name: "联系人", url: "/contacts" },
      { code: "customer_property", name: "客户属性", url: "/customerProperty" },
    ],
  },
  {
    code: "sms",
    name: "短信",
    url: "/sms/template",
    icon: "pi pi-envelope",
    children: [
      { code: "sms_template", name: "短信模板", url: "/sms/template" },
      { code: "sms_outbox", name: "短信发送记录", url: "/sms/outbox" },
    ],
  },
  {
    code: "business_template",
    name: "工单管理",
    url: "/businessTemplate/record",
    icon: "pi pi-file-edit",
    children: [
      { code: "business_template_record", name: "工单记录", url: "/businessTemplate/record" },
      { code: "business_template_config", name: "工单模板", url: "/businessTemplate/template" },
    ],
  },
  { code: "campaign", name: "外呼活动管理", url: "/campaign", icon: "pi pi-megaphone" },
  {
    code: "robot",
    name: "机器人管理",
    url: "/robot/flow",
    icon: "pi pi-android",
    children: [
      { code: "robot_flow", name: "机器人流程", url: "/robot/flow" },
      { code: "robot_instance", name: "机器人实例", url: "/robot/instance" },
      // The resources a robot uses (decision 030).
      { code: "robot_regex", name: "正则表达式", url: "/robot/regex" },
      { code: "robot_calendar", name: "工作日历", url: "/robot/calendar" },
      { code: "robot_speaker", name: "发音人", url: "/robot/speaker" },
      { code: "robot_resources", name: "线路与号码", url: "/robot/resources" },
      { code: "robot_store", name: "流程市场", url: "/robot/store" },
      // The agents' configuration: work type, 工号, default queue (decision 031).
      { code: "robot_agent", name: "坐席配置", url: "/robot/agent" },
    ],
  },
  { code: "achievement", name: "我的业绩", url: "/achievement", icon: "pi pi-chart-bar" },
  { code: "audit_log", name: "操作日志", url: "/audit", icon: "pi pi-history" },
];

/** Menu profiles: agents split by work type (spec §5: a text agent gets the chat screens). */
export type MenuProfile = "admin" | "supervisor" | "voiceAgent" | "textAgent";

/** Entries kept for one profile only (the administrator has the same screen elsewhere in the tree). */
const profileOnly: Readonly<Record<string, MenuProfile>> = { text_work_order: "textAgent" };

/**
 * Entries named for what the profile sees there: an agent's 业绩 is their own row, while a
 * supervisor or an administrator reads the whole team's (the screen takes its title from here).
 */
const profileNames: Readonly<Record<string, Partial<Record<MenuProfile, string>>>> = {
  achievement: { admin: "坐席业绩", supervisor: "坐席业绩" },
};

/** Screen (leaf) codes each profile is given; admin gets the whole catalogue but the entries above. */
const grants: Record<Exclude<MenuProfile, "admin">, readonly string[]> = {
  voiceAgent: [
    "home",
    "aiaas_agent_work",
    "agent_task_my",
    "agent_task_business_record",
    "agent_task_work_order",
    "incoming_call",
    "incoming_history",
    "incoming_business_record",
    "manual_preview",
    "man_machine_coordination",
    "call_history",
    // Their own inspection results, to read and appeal (decision 018).
    "inspection_success",
    "contacts",
    "achievement",
  ],
  textAgent: ["home", "aiaas_agent_text_work", "text_call", "text_business_record", "text_work_order", "contacts", "achievement"],
  supervisor: [
    "home",
    "monitor_agent",
    "inspection_success",
    "inspection_access",
    "call_log",
    "call_history",
    "incoming_history",
    "text_call",
    "manual_data_distribution",
    "business_template_record",
    "achievement",
  ],
};

export function menuProfile(role: Role, workType: number): MenuProfile {
  if (role === "agent") return isTextWorkType(workType) ? "textAgent" : "voiceAgent";
  return role;
}

/** The menu tree for a caller: catalogue order, groups trimmed to the children granted. */
export function menusFor(role: Role, workType: number): MenuItem[] {
  const profile = menuProfile(role, workType);
  const granted = (code: string) => (profile === "admin" ? !profileOnly[code] : grants[profile].includes(code));
  const named = (entry: MenuItem): MenuItem => ({ ...entry, name: profileNames[entry.code]?.[profile] ?? entry.name });
  const menu: MenuItem[] = [];
  for (const entry of catalogue) {
    if (!entry.children) {
      if (granted(entry.code)) menu.push(named(entry));
      continue;
    }
    const children = entry.children.filter((child) => granted(child.code)).map(named);
    if (children.length > 0) menu.push({ ...entry, url: children[0].url, children });
  }
  return menu;
}

/** The screen (leaf) codes a caller's menu lists. */
export function menuCodesFor(role: Role, workType: number): Set<string> {
  return new Set(menusFor(role, workType).flatMap((item) => (item.children ?? [item]).map((entry) => entry.code)));
}

/** A screen's name as its menu shows it (e.g. 坐席监控). */
export function catalogueName(code: string): string {
  const entry = catalogue.flatMap((item) => [item, ...(item.children ?? [])]).find((item) => item.code === code);
  if (!entry) throw new Error(`no menu entry ${code}`);
  return entry.name;
}

/** Every code in the catalogue, groups included (tests hold them unique). */
export function catalogueCodes(): string[] {
  return catalogue.flatMap((entry) => [entry.code, ...(entry.children ?? []).map((child) => child.code)]);
}

/**
 * Whether the caller makes work orders (from a call or a chat): their menu lists one of the
 * work-order screens (WORK_ORDER_MENU_URLS), as the console checks it before showing the form.
 */
export function mayCreateWorkOrders(role: Role, workType: number): boolean {
  const urls = menusFor(role, workType).flatMap((item) => [item.url, ...(item.children ?? []).map((child) => child.url)]);
  return WORK_ORDER_MENU_URLS.some((url) => urls.includes(url));
}
