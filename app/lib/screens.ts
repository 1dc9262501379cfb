/** Screen titles by path (spec §2), shared by the routes and their tests. */
export const SCREEN_TITLES = {
  "/": "首页",
  "/access": "质检接入",
  "/achievement": "我的业绩",
  "/callHistory": "通话历史",
  "/callLog": "外呼通话记录",
  "/inspectionSuccess": "质检结果",
  "/inspectionSuccess/:id": "通话质检",
  "/textWorkBench": "文本工作台",
  "/workBench": "语音工作台",
  "/workBench/ty": "语音工作台（通用）",
  "/agentTask/businessRecord": "外呼业务记录",
  "/agentTask/my": "我的任务",
  "/agentTask/:id?": "任务详情",
  "/businessTemplate/record/:id?": "工单记录",
  "/businessTemplate/template": "工单模板",
  "/agentTask/workOrder/:id?": "我的工单",
  "/incoming/businessRecord": "呼入业务记录",
  "/incoming/call": "呼入通话",
  "/incoming/history": "呼入历史",
  "/knowledgeBase/config": "知识库配置",
  "/manMachine/coordination": "人机协同",
  "/manual/dataDistribution": "数据分配",
  "/manual/preview": "预览外呼",
  "/monitor/agent": "坐席监控",
  "/text/businessRecord": "文本业务记录",
  "/text/call": "文本会话记录",
  "/user/registe": "注册",
  "/user/fillInformation": "完善信息",
  "/error/restore": "系统恢复",
  // Screens of our own beyond spec §2's tree, served by the platform's menus.
  "/audit": "操作日志",
  "/contacts": "联系人",
  "/customerProperty": "客户属性",
  "/sms/template": "短信模板",
  "/sms/outbox": "短信发送记录",
  "/inspectionForm": "质检评分表",
  "/inspectionForm/new": "新建评分表",
  "/inspectionForm/:id": "评分表",
} as const;

/** Robots and flows administration (admin menu 机器人管理, decision 019). */
export const ROBOT_TITLES = {
  flows: "机器人流程",
  flow: "流程详情",
  design: "流程设计",
  instances: "机器人实例",
  instance: "机器人",
} as const;

/** The resources a robot uses (admin menu 机器人管理, decision 030). */
export const ROBOT_RESOURCE_TITLES = {
  regex: "正则表达式",
  calendar: "工作日历",
  speaker: "发音人",
  resources: "线路与号码",
  store: "流程市场",
  agents: "坐席配置",
  agent: "编辑坐席",
} as const;

/** Outbound campaign management (admin menu /campaign). */
export const CAMPAIGN_TITLES = {
  list: "外呼活动管理",
  create: "新建外呼活动",
  edit: "编辑外呼活动",
  detail: "外呼活动详情",
  batch: "批次详情",
} as const;
