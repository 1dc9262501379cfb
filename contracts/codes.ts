/**
 * Every code table of the product, in one module used by the console and the reference platform
 * alike (spec §3, §4). Labels are the Chinese the console shows. Where spec.md says "not shown"
 * (outcome colours, result-code names, campaign states) the choice is ours and is written here.
 */
import type { Role } from "./uaa";

/**
 * A code's colour. The five meanings (success green, danger red, warning amber, info blue, none
 * grey) come first; the hues after them let every state of a table have its own colour (a table
 * has up to eleven), while a label keeps one colour in every table (contracts/codes.test.ts).
 */
export type Tone = "success" | "danger" | "warning" | "info" | "none" | "indigo" | "violet" | "teal" | "pink" | "olive" | "brown";

/** A code table: the codes in display order, each with its label (and tone where it has one). */
export type CodeTable<C extends string | number> = ReadonlyArray<{ code: C; label: string; tone?: Tone }>;

export function labelOf<C extends string | number>(table: CodeTable<C>, code: C | null | undefined, unknown = "未知"): string {
  return table.find((entry) => entry.code === code)?.label ?? unknown;
}
export function toneOf<C extends string | number>(table: CodeTable<C>, code: C | null | undefined): Tone {
  return table.find((entry) => entry.code === code)?.tone ?? "none";
}
export function codesOf<C extends string | number>(table: CodeTable<C>): C[] {
  return table.map((entry) => entry.code);
}

export const ROLES: CodeTable<Role> = [
  { code: "admin", label: "管理员" },
  { code: "supervisor", label: "主管" },
  { code: "agent", label: "坐席" },
];

/** Spec §3/§9: workType 3 marks a text agent; every other type is a voice agent. */
export const TEXT_AGENT_WORK_TYPE = 3;
export function workTypeLabel(workType: number): string {
  return workType === TEXT_AGENT_WORK_TYPE ? "文本坐席" : "语音坐席";
}
/** The work types an administrator gives an agent (坐席配置): voice (1) or text (3). */
export const WORK_TYPES: CodeTable<number> = [
  { code: 1, label: "语音" },
  { code: TEXT_AGENT_WORK_TYPE, label: "文本" },
];

/** Spec §3 call result options (the agent's conclusion). */
export const CALL_RESULTS: CodeTable<number> = [
  { code: 0, label: "未处理" },
  { code: 1, label: "处理成功", tone: "success" },
  { code: 2, label: "处理失败", tone: "danger" },
];

/**
 * Spec §3 quality-check status, one per call (call_records.qc_status). -1 and 2 are where a call is
 * in the queue (waiting, locked to one inspector); 0, 1 and 3 are the inspector's result
 * (checkResult). The moves between them are data in contracts/inspection.ts (QC_TRANSITIONS).
 */
export const QC_UNCHECKED = -1;
export const QC_CHECKING = 2;
export const QUALITY_CHECK_STATUSES: CodeTable<number> = [
  { code: -1, label: "未质检" },
  { code: 0, label: "意向不明确", tone: "warning" },
  { code: 1, label: "明确办理", tone: "success" },
  { code: 2, label: "质检中", tone: "info" },
  { code: 3, label: "无意向", tone: "danger" },
];
/** The statuses an inspector gives as the result (checkResult): the intent the call showed. */
export const QC_RESULTS: CodeTable<number> = QUALITY_CHECK_STATUSES.filter((s) => s.code !== -1 && s.code !== 2);

/**
 * How the agent's handling influenced the call (influence; spec names the field, not its values:
 * ours). A call passes inspection unless its influence is negative.
 */
export const QC_INFLUENCES: CodeTable<number> = [
  { code: 1, label: "正面影响", tone: "success" },
  { code: 0, label: "无影响", tone: "none" },
  { code: -1, label: "负面影响", tone: "danger" },
];
/** The influence of a failed call (a failed 一票否决 item sets it, decision 028). */
export const QC_INFLUENCE_NEGATIVE = -1;

/** An agent's appeal against an inspection result (one per call). */
export const QC_APPEAL_STATES: CodeTable<string> = [
  { code: "pending", label: "申诉中", tone: "warning" },
  { code: "accepted", label: "申诉通过", tone: "success" },
  { code: "rejected", label: "申诉驳回", tone: "danger" },
];

/**
 * A scoring form's lifecycle (decision 028): a draft is edited; one form of the tenant is active,
 * the one inspectors score with; a retired form stays, unchanged, for the calls scored with it.
 * The moves are data in contracts/inspection.ts (QC_FORM_TRANSITIONS).
 */
export const QC_FORM_STATES: CodeTable<"draft" | "active" | "retired"> = [
  { code: "draft", label: "草稿", tone: "none" },
  { code: "active", label: "启用中", tone: "success" },
  { code: "retired", label: "已停用", tone: "warning" },
];

/** What an inspector's access grant covers: an agent group (queue) or a campaign. */
export const QC_ACCESS_SCOPES: CodeTable<string> = [
  { code: "queue", label: "坐席组" },
  { code: "campaign", label: "外呼活动" },
];

/** Spec §3 intent labels (the code is the stored value). */
export const INTENT_LABELS: CodeTable<string> = [
  { code: "CONFIRM", label: "确认办理", tone: "success" },
  { code: "NO_INTENTION", label: "无意向", tone: "danger" },
  { code: "HAS_INTENTION", label: "有意向", tone: "teal" },
  { code: "ASK_HOW", label: "询问如何办理", tone: "info" },
  { code: "ASK_FEE", label: "询问费用", tone: "indigo" },
  { code: "CHANGE_INSTALMENTS", label: "更改分期数", tone: "violet" },
  { code: "AGREED_NO_KEY", label: "同意未按键", tone: "warning" },
  { code: "HUNG_UP_SECOND_CONFIRM", label: "二次确认挂机", tone: "brown" },
];

/** Spec §3 call kind. */
export const CALL_KINDS: CodeTable<number> = [
  { code: 0, label: "上传呼叫" },
  { code: 1, label: "回拨呼叫" },
];
/** A call of a manual call-back campaign (campaign type 5) is a call-back call; any other, an uploaded one. */
export const callKindOf = (campaignType: number | null): number => (campaignType === 5 ? 1 : 0);

/** Spec §3 connected flag (isAnswer). */
export const CONNECTED_FLAGS: CodeTable<number> = [
  { code: 0, label: "未接通", tone: "danger" },
  { code: 1, label: "已接通", tone: "success" },
];

/** Spec §3 call outcome codes with their display colour (the pairing is ours: spec leaves it open). */
export const OUTCOME_CODES: CodeTable<string> = [
  { code: "EndOfTheCall", label: "人工接通", tone: "success" },
  { code: "NoAnswer", label: "未接听", tone: "warning" },
  { code: "ToHumanNoAnswer", label: "转人工流失", tone: "danger" },
  { code: "ToHumanGiveUp", label: "转人工放弃", tone: "pink" },
  { code: "RobotNoAnswer", label: "呼损（机器人溢出）", tone: "brown" },
  { code: "NoIntention", label: "无意向（已接通）", tone: "none" },
  { code: "GiveUp", label: "坐席放弃（直呼人工）", tone: "violet" },
  { code: "CustomerGiveUp", label: "客户放弃", tone: "olive" },
  { code: "ToSurveyRobotNoAnswer", label: "转满意度机器人未接", tone: "indigo" },
  { code: "ToSurveyRobotGiveUp", label: "转满意度机器人放弃", tone: "info" },
  { code: "EndOfTheSurveyCall", label: "满意度调查完成", tone: "teal" },
];

/** Result codes (callResult, SIP-style) with names; the tone follows spec §4 (resultCodeTone). */
export const RESULT_CODES: CodeTable<number> = [
  { code: 200, label: "已接通" },
  { code: 404, label: "空号" },
  { code: 408, label: "无人接听" },
  { code: 480, label: "暂时无法接通" },
  { code: 486, label: "用户忙" },
  { code: 487, label: "呼叫取消" },
  { code: 500, label: "系统错误" },
  { code: 502, label: "线路异常" },
  { code: 503, label: "服务不可用" },
  { code: 504, label: "呼叫超时" },
  { code: 603, label: "用户拒接" },
];
/** Spec §4: 500 to 504 and 404 show as danger, 200 as success, anything else as info. */
export function resultCodeTone(code: number | null | undefined): Tone {
  if (code === 200) return "success";
  if (code === 404 || (code !== null && code !== undefined && code >= 500 && code <= 504)) return "danger";
  return "info";
}

/** Spec §4 hang-up party; any other code is unknown. */
export const HANGUP_PARTIES: CodeTable<number> = [
  { code: 1, label: "机器人正常挂机" },
  { code: 2, label: "客户挂机" },
  { code: 3, label: "坐席挂机" },
  { code: 4, label: "机器人挂机（网络异常）" },
  { code: 5, label: "用户未接听" },
];
/** A call the platform ended itself (its media server failed): not in spec §4's table, so shown as 未知. */
export const HANGUP_BY_PLATFORM = 0;
export const hangupPartyLabel = (code: number | null | undefined) => labelOf(HANGUP_PARTIES, code, "未知");

/** Spec §4 task batch status. */
export const BATCH_STATUSES: CodeTable<number> = [
  { code: 13, label: "准备中", tone: "indigo" },
  { code: 14, label: "准备失败", tone: "danger" },
  { code: 2, label: "调度中", tone: "info" },
  { code: 11, label: "休息中（时段间隔）", tone: "teal" },
  { code: 12, label: "休息中（周期未到）", tone: "olive" },
  { code: 3, label: "已暂停", tone: "warning" },
  { code: 4, label: "已完成", tone: "success" },
  { code: 5, label: "已超时", tone: "pink" },
  { code: 6, label: "已取消", tone: "none" },
];

/** A campaign's contact import (ours): large files are read in the background. */
export const IMPORT_STATUSES: CodeTable<string> = [
  { code: "running", label: "导入中", tone: "info" },
  { code: "done", label: "已完成", tone: "success" },
  { code: "failed", label: "导入失败", tone: "danger" },
];

/** Spec §4 call status (4 and 7 are both cancelled, for different reasons). */
export const CALL_STATUSES: CodeTable<number> = [
  { code: 0, label: "等待呼叫", tone: "indigo" },
  { code: 1, label: "呼叫中", tone: "info" },
  { code: 2, label: "未接通", tone: "danger" },
  { code: 3, label: "呼叫完成", tone: "success" },
  { code: 4, label: "已取消（批次取消）", tone: "none" },
  { code: 5, label: "异常终止", tone: "brown" },
  { code: 6, label: "黑名单（未呼叫）", tone: "violet" },
  { code: 7, label: "已取消（超出调度时间）", tone: "teal" },
];

/** Spec §4 campaign type (-1 and 4 are both manual direct dial). */
export const CAMPAIGN_TYPES: CodeTable<number> = [
  { code: 1, label: "机器人外呼" },
  { code: 2, label: "人机协同外呼" },
  { code: 3, label: "人工预览外呼" },
  { code: 4, label: "人工直拨" },
  { code: -1, label: "人工直拨" },
  { code: 5, label: "人工回拨" },
  { code: 20, label: "呼入" },
];

/** The campaign type of an inbound call's record (呼入). */
export const INBOUND_CAMPAIGN_TYPE = 20;

/** Campaigns whose contacts agents dial themselves (spec §4: 3 preview, 4/-1 direct, 5 call-back). */
export const AGENT_DIALLED_CAMPAIGN_TYPES: readonly number[] = [3, 4, -1, 5];

/** Spec §4 task type. */
export const TASK_TYPES: CodeTable<number> = [
  { code: 1, label: "正式任务" },
  { code: 2, label: "试呼任务" },
  { code: 3, label: "测试任务" },
];

/** Spec §4 schedule cycle. */
export const SCHEDULE_CYCLES: CodeTable<number> = [
  { code: 1, label: "当天" },
  { code: 2, label: "周期" },
  { code: 3, label: "长期" },
];

/** Campaign state (spec: "values not shown"; ours). */
export const CAMPAIGN_STATES: CodeTable<number> = [
  { code: 0, label: "未启动", tone: "indigo" },
  { code: 1, label: "运行中", tone: "info" },
  { code: 2, label: "已暂停", tone: "warning" },
  { code: 3, label: "已完成", tone: "success" },
  { code: 4, label: "已取消", tone: "none" },
];

/** Gender (spec §3 call task detail). */
export const GENDERS: CodeTable<number> = [
  { code: 0, label: "男" },
  { code: 1, label: "女" },
  { code: -1, label: "未知" },
];

/** Calling result entry dialogType (spec §3): 1 human-machine, otherwise human-human. */
export const DIALOG_TYPES: CodeTable<number> = [
  { code: 1, label: "人机对话" },
  { code: 2, label: "人人对话" },
];

/** Dialog line roles (spec §3): 1 and 2 are shown on the right, 3 is the customer on the left. */
export const CUSTOMER_ROLE = 3;
export const DIALOG_ROLES: CodeTable<number> = [
  { code: 1, label: "机器人" },
  { code: 2, label: "坐席" },
  { code: 3, label: "客户" },
];

/** Hand-off of an interested customer from the robot to an agent (collaborative campaigns; ours). */
export const HANDOFF_STATES: CodeTable<string> = [
  { code: "waiting", label: "等待人工", tone: "warning" },
  { code: "handed", label: "已转人工", tone: "success" },
  { code: "lost", label: "转人工流失", tone: "danger" },
];

/**
 * Transfer template kinds (ours: spec leaves them open): the codes of transfer_templates.type,
 * kept with the other code tables though no screen shows them yet.
 * @public
 */
export const TRANSFER_TYPES: CodeTable<number> = [
  { code: 1, label: "转队列" },
  { code: 2, label: "转坐席" },
  { code: 3, label: "转外线" },
];

/** Why an agent skips a contact in a preview list (ours). */
export const SKIP_REASONS: CodeTable<string> = [
  { code: "WRONG_NUMBER", label: "号码有误" },
  { code: "CUSTOMER_BUSY", label: "客户不便接听" },
  { code: "DUPLICATE", label: "重复客户" },
  { code: "OTHER", label: "其他原因" },
];

/**
 * Agent states of the phone bar (spec §4: "not shown"; ours). Codes are what the platform stores
 * in users.agent_state and sends in cti.* events.
 */
export const AGENT_STATES: CodeTable<string> = [
  { code: "SIGNED_OUT", label: "已签出", tone: "none" },
  { code: "READY", label: "就绪", tone: "success" },
  { code: "NOT_READY", label: "未就绪", tone: "warning" },
  { code: "RINGING", label: "振铃中", tone: "info" },
  { code: "TALKING", label: "通话中", tone: "violet" },
  { code: "HOLD", label: "保持中", tone: "brown" },
  { code: "ACW", label: "话后整理", tone: "teal" },
];

/** Reasons an agent gives for not being ready (the issue names these four). */
export const NOT_READY_REASONS: CodeTable<string> = [
  { code: "BREAK", label: "小休" },
  { code: "TRAINING", label: "培训" },
  { code: "MEETING", label: "会议" },
  { code: "MEAL", label: "用餐" },
];
/**
 * Why an agent is not ready, as shown: the reasons an agent chooses, and the one the phone sets
 * when an offered call rang out unanswered (no agent chooses it).
 */
export const MISSED_CALL_REASON = "MISSED";
export const AGENT_REASONS: CodeTable<string> = [...NOT_READY_REASONS, { code: MISSED_CALL_REASON, label: "未接来电" }];

/** Outcomes of a manual dial on the simulated network (ours): answered, no answer, busy. */
export const DIAL_OUTCOMES: CodeTable<string> = [
  { code: "ANSWER", label: "已接听", tone: "success" },
  { code: "NO_ANSWER", label: "无人接听", tone: "warning" },
  { code: "BUSY", label: "用户忙", tone: "danger" },
];

/** Where a call on the phone bar came from (ours): inbound, a manual dial, or a robot hand-off. */
export const CALL_ORIGIN_LABELS: CodeTable<string> = [
  { code: "inbound", label: "呼入" },
  { code: "manual", label: "外呼" },
  { code: "handoff", label: "机器人转人工" },
];

/** Chat session states (contracts/chat.ts ChatStateSchema). */
export const CHAT_STATES: CodeTable<"waiting" | "active" | "closed"> = [
  { code: "waiting", label: "排队中", tone: "warning" },
  { code: "active", label: "服务中", tone: "success" },
  { code: "closed", label: "已结束", tone: "none" },
];

/** Business categories of a chat's business record (spec: not shown; ours). */
export const CHAT_BUSINESS_CATEGORIES: CodeTable<string> = [
  { code: "consult", label: "业务咨询" },
  { code: "complaint", label: "投诉建议" },
  { code: "after_sales", label: "售后服务" },
  { code: "other", label: "其他" },
];

/**
 * What an audit row records (the audit log of every administrative and supervisor change). Each
 * area adds its actions here; the audit screen filters by them.
 */
export const AUDIT_ACTIONS: CodeTable<string> = [
  { code: "campaign.create", label: "新建外呼活动" },
  { code: "campaign.update", label: "编辑外呼活动" },
  { code: "campaign.state", label: "变更活动状态" },
  { code: "campaign.ratio", label: "设置外呼比例" },
  { code: "campaign.import", label: "导入名单" },
  { code: "campaign.distribute", label: "分配数据" },
  { code: "batch.recover", label: "恢复批次" },
  { code: "agent.forceSignOut", label: "强制签出" },
  { code: "agent.forceState", label: "强制变更状态" },
  { code: "agent.move", label: "调整坐席队列" },
  { code: "agent.whisper", label: "发送密语" },
  { code: "agent.config", label: "修改坐席配置" },
  { code: "monitor.rules", label: "修改监控阈值" },
  { code: "queue.settings", label: "修改队列振铃超时" },
  { code: "tenant.register", label: "注册租户" },
  { code: "tenant.profile", label: "填写企业信息" },
  { code: "billing.account", label: "开通计费账户" },
  { code: "account.password", label: "修改密码" },
  { code: "account.passwordReset", label: "找回密码" },
  { code: "account.logout", label: "强制下线" },
  { code: "knowledge.group.create", label: "新建知识分组" },
  { code: "knowledge.group.update", label: "重命名知识分组" },
  { code: "knowledge.group.delete", label: "删除知识分组" },
  { code: "knowledge.node.create", label: "新建知识" },
  { code: "knowledge.node.update", label: "编辑知识" },
  { code: "knowledge.node.state", label: "启用/停用知识" },
  { code: "knowledge.node.delete", label: "删除知识" },
  { code: "knowledge.node.import", label: "批量导入知识" },
  { code: "knowledge.label.create", label: "新建知识标签" },
  { code: "knowledge.label.delete", label: "删除知识标签" },
  { code: "customer.property.create", label: "新建客户属性" },
  { code: "customer.property.update", label: "编辑客户属性" },
  { code: "customer.property.delete", label: "删除客户属性" },
  { code: "customer.property.valid", label: "启用/停用客户属性" },
  { code: "customer.property.reorder", label: "调整客户属性顺序" },
  { code: "contact.update", label: "编辑联系人" },
  { code: "contact.delete", label: "删除联系人" },
  { code: "contact.import", label: "导入联系人" },
  { code: "contact.outbound", label: "联系人转入外呼活动" },
  { code: "contact.group.create", label: "新建联系人分组" },
  { code: "contact.group.update", label: "编辑联系人分组" },
  { code: "contact.group.delete", label: "删除联系人分组" },
  { code: "sms.template.create", label: "新建短信模板" },
  { code: "sms.template.update", label: "编辑短信模板" },
  { code: "sms.template.review", label: "审核短信模板" },
  { code: "sms.template.delete", label: "删除短信模板" },
  { code: "sms.send", label: "发送短信" },
  { code: "workorder.template.create", label: "新建工单模板" },
  { code: "workorder.template.update", label: "编辑工单模板" },
  { code: "workorder.template.status", label: "启用/停用工单模板" },
  { code: "workorder.template.delete", label: "删除工单模板" },
  { code: "workorder.record.create", label: "新建工单" },
  { code: "workorder.record.receive", label: "接收工单" },
  { code: "workorder.record.reassign", label: "转派工单" },
  { code: "workorder.record.follow", label: "跟进工单" },
  { code: "inspection.claim", label: "领取质检" },
  { code: "inspection.reallot", label: "质检改派" },
  { code: "inspection.release", label: "收回质检" },
  { code: "inspection.expire", label: "质检锁定超时" },
  { code: "inspection.score", label: "提交质检结果" },
  { code: "inspection.appeal", label: "质检申诉" },
  { code: "inspection.appealDecision", label: "处理质检申诉" },
  { code: "inspection.access.grant", label: "授予质检权限" },
  { code: "inspection.form.create", label: "新建质检评分表" },
  { code: "inspection.form.update", label: "编辑质检评分表" },
  { code: "inspection.form.state", label: "启用/停用质检评分表" },
  { code: "inspection.form.delete", label: "删除质检评分表" },
  { code: "inspection.access.revoke", label: "收回质检权限" },
  { code: "flow.create", label: "新建流程" },
  { code: "flow.design", label: "保存流程设计" },
  { code: "flow.params", label: "保存流程参数" },
  { code: "flow.submit", label: "提交流程审核" },
  { code: "flow.return", label: "退回流程审核" },
  { code: "flow.publish", label: "发布流程版本" },
  { code: "flow.rollback", label: "回滚流程版本" },
  { code: "flow.market", label: "流程上架" },
  { code: "flow.cover", label: "复制版本为草稿" },
  { code: "robot.update", label: "编辑机器人" },
  { code: "robot.delete", label: "删除机器人" },
  { code: "robot.allocate", label: "分配机器人" },
  { code: "robot.transfer", label: "转移机器人" },
  { code: "robot.copy", label: "复制机器人" },
  { code: "robot.regex.create", label: "新建正则表达式" },
  { code: "robot.regex.update", label: "编辑正则表达式" },
  { code: "robot.regex.delete", label: "删除正则表达式" },
  { code: "robot.working", label: "修改工作日历" },
  { code: "robot.festival.create", label: "新建节假日" },
  { code: "robot.festival.update", label: "编辑节假日" },
  { code: "robot.festival.delete", label: "删除节假日" },
];

/** What an audit row is about (the kind of its target). */
export const AUDIT_TARGETS: CodeTable<string> = [
  { code: "campaign", label: "外呼活动" },
  { code: "batch", label: "批次" },
  { code: "agent", label: "坐席" },
  { code: "monitor", label: "坐席监控" },
  { code: "queue", label: "队列" },
  { code: "tenant", label: "租户" },
  { code: "user", label: "账号" },
  { code: "knowledgeGroup", label: "知识分组" },
  { code: "knowledgeNode", label: "知识" },
  { code: "knowledgeLabel", label: "知识标签" },
  { code: "customerProperty", label: "客户属性" },
  { code: "contact", label: "联系人" },
  { code: "contactGroup", label: "联系人分组" },
  { code: "smsTemplate", label: "短信模板" },
  { code: "workOrderTemplate", label: "工单模板" },
  { code: "workOrder", label: "工单" },
  { code: "call", label: "通话" },
  { code: "inspectionAccess", label: "质检权限" },
  { code: "flow", label: "机器人流程" },
  { code: "robot", label: "机器人" },
  { code: "robotRegex", label: "正则表达式" },
  { code: "robotCalendar", label: "工作日历" },
  { code: "robotFestival", label: "节假日" },
];

/** A customer property's type: what its values may be (decision 020). */
export const CUSTOMER_PROPERTY_TYPES: CodeTable<"text" | "number" | "date" | "single" | "multi" | "phone"> = [
  { code: "text", label: "文本" },
  { code: "number", label: "数字" },
  { code: "date", label: "日期" },
  { code: "single", label: "单选" },
  { code: "multi", label: "多选" },
  { code: "phone", label: "手机号" },
];

/** Whether a customer property is in use (forms, lists, imports, SMS variables). */
export const CUSTOMER_PROPERTY_VALID: CodeTable<number> = [
  { code: 1, label: "有效", tone: "success" },
  { code: 0, label: "无效", tone: "none" },
];

/** An SMS template's review state: only an approved template is sent. */
export const SMS_TEMPLATE_STATES: CodeTable<"pending" | "approved" | "rejected"> = [
  { code: "pending", label: "待审核", tone: "warning" },
  { code: "approved", label: "已通过", tone: "success" },
  { code: "rejected", label: "未通过", tone: "danger" },
];

/**
 * The review as data: which state a template may go to from which, and by what. An edit sends any
 * template back to review; a rejection needs its reason.
 */
export const SMS_TEMPLATE_TRANSITIONS: ReadonlyArray<{
  from: "pending" | "approved" | "rejected";
  to: "pending" | "approved" | "rejected";
  by: "review" | "edit";
}> = [
  { from: "pending", to: "approved", by: "review" },
  { from: "pending", to: "rejected", by: "review" },
  { from: "approved", to: "pending", by: "edit" },
  { from: "rejected", to: "pending", by: "edit" },
  { from: "pending", to: "pending", by: "edit" },
];

/** A knowledge node's state: only enabled nodes reach the agents (lookup and quick replies). */
export const KNOWLEDGE_STATES: CodeTable<number> = [
  { code: 1, label: "启用", tone: "success" },
  { code: 0, label: "停用", tone: "none" },
];

/** An SMS in the outbox: queued, handed to the carrier, delivered to the phone, or failed (with a reason). */
export const SMS_STATUSES: CodeTable<string> = [
  { code: "queued", label: "待发送", tone: "info" },
  { code: "sent", label: "已发送", tone: "warning" },
  { code: "delivered", label: "已送达", tone: "success" },
  { code: "failed", label: "发送失败", tone: "danger" },
];

/** What an SMS is for: a verification code (sign-up, password reset) or a message a tenant sends. */
export const SMS_KINDS: CodeTable<string> = [
  { code: "code", label: "验证码" },
  { code: "message", label: "业务短信" },
];

/**
 * What the live monitor shows of an agent: the phone states of AGENT_STATES, and two of its own: a
 * text agent serving chats, and an agent whose client stopped reporting (no heartbeat).
 */
/** What made a call's audio poor, as the softphone's quality badge measures it (decision 043): its thresholds crossed. */
export const CALL_QUALITY_ISSUE_CODES = ["rtt", "jitter", "loss", "mos"] as const;
export const CALL_QUALITY_ISSUES: CodeTable<(typeof CALL_QUALITY_ISSUE_CODES)[number]> = [
  { code: "rtt", label: "延迟高" },
  { code: "jitter", label: "抖动大" },
  { code: "loss", label: "丢包" },
  { code: "mos", label: "音质评分低" },
];

export const MONITOR_STATES: CodeTable<string> = [
  ...AGENT_STATES.filter((s) => s.code !== "SIGNED_OUT"),
  { code: "ON_CHAT", label: "会话中", tone: "indigo" },
  { code: "LOST", label: "失联", tone: "danger" },
  { code: "SIGNED_OUT", label: "已签出", tone: "none" },
];

/** The monitor's thresholds: per state, and for the wait of a call in queue (warning, critical seconds). */
export const MONITOR_RULE_KEYS: CodeTable<string> = [
  { code: "NOT_READY", label: "未就绪" },
  { code: "ACW", label: "话后整理" },
  { code: "TALKING", label: "通话中" },
  { code: "RINGING", label: "振铃中" },
  { code: "QUEUE_WAIT", label: "排队等待" },
];

/** What a supervisor may set an agent to. */
export const FORCED_STATES: CodeTable<string> = [
  { code: "ready", label: "就绪" },
  { code: "notReady", label: "未就绪" },
  { code: "finishAcw", label: "结束话后整理" },
];

/** A work-order template's status (spec §4 "set by a call"): only enabled templates reach the workbench. */
export const WORK_ORDER_TEMPLATE_STATUSES: CodeTable<number> = [
  { code: 1, label: "启用", tone: "success" },
  { code: 0, label: "停用", tone: "none" },
];

/** The kinds of field a work-order template can ask for. */
export const WORK_ORDER_FIELD_TYPES: CodeTable<"text" | "number" | "date" | "choice" | "phone" | "longText"> = [
  { code: "text", label: "文本" },
  { code: "number", label: "数字" },
  { code: "date", label: "日期" },
  { code: "choice", label: "选项" },
  { code: "phone", label: "电话" },
  { code: "longText", label: "长文本" },
];

/** A work-order record's follow state; the transitions between them are in contracts/work-orders.ts. */
export const WORK_ORDER_STATES: CodeTable<number> = [
  { code: 0, label: "待处理", tone: "info" },
  { code: 1, label: "处理中", tone: "warning" },
  { code: 2, label: "已完成", tone: "success" },
  { code: 3, label: "已关闭", tone: "none" },
];

/**
 * A robot flow version's lifecycle (upstream/domain/flow-versions.ts holds the transitions):
 * a draft is submitted for review, then published or returned to draft with a reason; a
 * published version can be listed in the market. Published versions never change.
 */
export const FLOW_VERSION_STATES: CodeTable<number> = [
  { code: 0, label: "草稿", tone: "none" },
  { code: 1, label: "待审核", tone: "warning" },
  { code: 2, label: "已发布", tone: "success" },
  { code: 3, label: "已上架", tone: "info" },
];

/** The kinds of node a flow design is made of. */
export const FLOW_NODE_TYPES: CodeTable<string> = [
  { code: "speak", label: "播报" },
  { code: "listen", label: "收听（意图）" },
  { code: "branch", label: "条件分支" },
  { code: "transfer", label: "转人工" },
  { code: "hangup", label: "挂机" },
];

/** Days of the week as the working calendar numbers them (ISO: 1 Monday … 7 Sunday). */
export const WEEKDAYS: CodeTable<number> = [
  { code: 1, label: "星期一" },
  { code: 2, label: "星期二" },
  { code: 3, label: "星期三" },
  { code: 4, label: "星期四" },
  { code: 5, label: "星期五" },
  { code: 6, label: "星期六" },
  { code: 7, label: "星期日" },
];

/**
 * The robots' speakers (synthesised voices, decision 030): code, name, gender (spec §3: 0 male,
 * 1 female), style, and the pitch (Hz) of the reference platform's preview tones.
 */
export const ROBOT_SPEAKERS: ReadonlyArray<{ code: string; label: string; gender: 0 | 1; style: string; pitch: number }> = [
  { code: "xiaoyun", label: "晓云", gender: 1, style: "亲切客服", pitch: 330 },
  { code: "xiaomei", label: "晓美", gender: 1, style: "温柔播报", pitch: 294 },
  { code: "xiaogang", label: "晓刚", gender: 0, style: "沉稳商务", pitch: 196 },
  { code: "xiaoming", label: "晓明", gender: 0, style: "年轻活力", pitch: 220 },
];
