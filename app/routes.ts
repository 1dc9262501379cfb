import { type RouteConfig, index, layout, prefix, route } from "@remix-run/route-config";

/** The call lists; each opens the call-detail dialog as a nested route (/callHistory/123). */
const CALL_LISTS = ["callHistory", "callLog", "incoming/call", "incoming/history"] as const;
const callDetail = (list: string) => route(":id", "routes/call-detail/route.tsx", { id: `call-detail/${list}` });

// The route tree of spec §2, written out. Public pages sit outside the shell; every screen of the
// root layout '/' sits inside it. Each screen's loader and action checks access for itself.
export default [
  ...prefix("user", [
    route("login", "routes/user/login.tsx"),
    route("logout", "routes/user/logout.ts"),
    route("reset", "routes/user/reset.tsx"),
    route("registe", "routes/user/registe.tsx"),
    route("fillInformation", "routes/user/fill-information.tsx"),
    route("password", "routes/user/password.tsx"),
    route("preferences", "routes/user/preferences.ts"),
  ]),
  ...prefix("error", [
    route("403", "routes/error/403.tsx"),
    route("404", "routes/error/404.tsx"),
    route("restore", "routes/error/restore.tsx"),
  ]),
  route("health", "routes/health.ts"),
  // The browser's log: what a hydrated screen throws, passed on to the platform (spec §7 /api/log).
  route("clientLog", "routes/client-log.ts"),
  // Real-time event streams of the workbenches (resource routes, entitled with their workbench).
  route("workBench/events", "routes/work-bench/events.ts"),
  route("workBench/phone", "routes/work-bench/phone.ts"),
  route("textWorkBench/events", "routes/text-work-bench/events.ts"),
  route("monitor/agent/events", "routes/monitor-agent/events.ts"),
  route("inspectionSuccess/events", "routes/inspection-success/events.ts"),
  // Call recordings (streamed from the platform) and the call log export: resource routes.
  ...CALL_LISTS.map((path) => route(`${path}/:id/recording`, "routes/call-detail/recording.ts", { id: `call-recording/${path}` })),
  // The call detail's work-order card posts here once hydrated (JSON); without JavaScript, to the dialog.
  ...CALL_LISTS.map((path) => route(`${path}/:id/workOrder`, "routes/call-detail/work-order.ts", { id: `call-work-order/${path}` })),
  route("callLog/export", "routes/call-log/export.ts"),
  route("inspectionSuccess/export", "routes/inspection-success/export.ts"),
  route("inspectionSuccess/:id/recording", "routes/call-detail/recording.ts", { id: "call-recording/inspectionSuccess" }),
  route("achievement/export", "routes/achievement/export.ts"),
  route("textWorkBench/actions", "routes/text-work-bench/actions.ts"),

  layout("routes/shell/route.tsx", [
    index("routes/home/route.tsx"),
    route("access", "routes/access/route.tsx"),
    route("achievement", "routes/achievement/route.tsx"),
    route("callHistory", "routes/call-history/route.tsx", [callDetail("callHistory")]),
    route("callLog", "routes/call-log/route.tsx", [callDetail("callLog")]),
    route("inspectionSuccess", "routes/inspection-success/route.tsx"),
    route("inspectionSuccess/:id", "routes/inspection-score/route.tsx"),
    // Scoring forms (administrators, decision 028): the list, then a draft's editor or a form's items.
    route("inspectionForm", "routes/inspection-form/route.tsx"),
    route("inspectionForm/new", "routes/inspection-form-edit/route.tsx", { id: "inspection-form-new" }),
    route("inspectionForm/:id", "routes/inspection-form-edit/route.tsx", { id: "inspection-form-edit" }),
    route("textWorkBench", "routes/text-work-bench/route.tsx"),
    route("workBench", "routes/work-bench/route.tsx"),
    route("workBench/ty", "routes/work-bench/general.tsx"),
    route("agentTask/businessRecord", "routes/agent-task-business-record/route.tsx"),
    route("agentTask/my", "routes/agent-task-my/route.tsx"),
    route("agentTask/workOrder/:id?", "routes/agent-task-work-order/route.tsx"),
    route("agentTask/:id?", "routes/agent-task/route.tsx"),
    route("businessTemplate/record/:id?", "routes/business-template-record/route.tsx"),
    route("businessTemplate/template", "routes/business-template-config/route.tsx"),
    route("incoming/businessRecord", "routes/incoming-business-record/route.tsx"),
    route("incoming/call", "routes/incoming-call/route.tsx", [callDetail("incoming/call")]),
    route("incoming/history", "routes/incoming-history/route.tsx", [callDetail("incoming/history")]),
    route("knowledgeBase/config", "routes/knowledge-base-config/route.tsx"),
    route("manMachine/coordination", "routes/man-machine-coordination/route.tsx"),
    route("manual/dataDistribution", "routes/manual-data-distribution/route.tsx"),
    route("manual/preview", "routes/manual-preview/route.tsx"),
    route("monitor/agent", "routes/monitor-agent/route.tsx"),
    route("monitor/agent/:userId", "routes/monitor-agent-detail/route.tsx"),
    route("monitor/rules", "routes/monitor-rules/route.tsx"),
    route("text/businessRecord", "routes/text-business-record/route.tsx"),
    route("text/call", "routes/text-call/route.tsx"),
    // Outbound campaign management (admin menu /campaign).
    route("campaign", "routes/campaign/route.tsx"),
    route("campaign/new", "routes/campaign-form/route.tsx", { id: "campaign-new" }),
    route("campaign/:id/edit", "routes/campaign-form/route.tsx", { id: "campaign-edit" }),
    route("campaign/:id", "routes/campaign-detail/route.tsx"),
    route("campaign/:id/batch/:batchId", "routes/campaign-batch/route.tsx"),
    route("text/call/:id", "routes/text-call-detail/route.tsx"),
    route("audit", "routes/audit/route.tsx"),
    route("customerProperty", "routes/customer-property/route.tsx"),
    route("contacts", "routes/contacts/route.tsx"),
    route("sms/template", "routes/sms-template/route.tsx"),
    route("sms/outbox", "routes/sms-outbox/route.tsx"),
    // Robots and flows administration (admin menu 机器人管理, decision 019).
    route("robot/flow", "routes/robot-flow/route.tsx"),
    route("robot/flow/nlu-template", "routes/robot-flow-nlu-template/route.ts"),
    route("robot/flow/:id", "routes/robot-flow-detail/route.tsx"),
    route("robot/flow/:id/definition", "routes/robot-flow-definition/route.ts"),
    route("robot/flow/:id/design", "routes/robot-flow-design/route.tsx"),
    route("robot/instance", "routes/robot-instance/route.tsx"),
    route("robot/instance/:id", "routes/robot-instance-detail/route.tsx"),
    // The resources a robot uses (decision 030).
    route("robot/regex", "routes/robot-regex/route.tsx"),
    route("robot/calendar", "routes/robot-calendar/route.tsx"),
    route("robot/speaker", "routes/robot-speaker/route.tsx"),
    route("robot/resources", "routes/robot-resources/route.tsx"),
    route("robot/store", "routes/robot-store/route.tsx"),
    // The agents' configuration: the list, each agent's edit form nested in it (decision 031).
    route("robot/agent", "routes/robot-agent/route.tsx", [route(":id", "routes/robot-agent/edit.tsx")]),
  ]),
  route("customerProperty/export", "routes/customer-export/properties.ts"),
  route("contacts/export", "routes/customer-export/contacts.ts"),
  route("contacts/imports/:importId/errors", "routes/customer-export/errors.ts"),
  route("campaign/:id/export", "routes/campaign-export/data.ts"),
  route("robot/speaker/:code/preview", "routes/robot-speaker/preview.ts"),
  route("campaign/:id/imports/:importId/errors", "routes/campaign-export/errors.ts"),

  // Anything else: 'This page could not be found' with status 404 (spec §2, §8).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
