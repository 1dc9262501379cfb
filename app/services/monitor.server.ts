import { type z } from "zod";
import {
  ActionDoneResponseSchema,
  MonitorAgentListResponseSchema,
  MonitorAgentStateSchema,
  MonitorQueueStateSchema,
  MonitorLineSchema,
  MonitorListenResponseSchema,
  MONITOR_NOTIFICATIONS,
  MonitorRulesResponseSchema,
  type AgentChangeSchema,
  type ForcedLogoutSchema,
  type ForcedStateSchema,
  type MonitorAgentQuerySchema,
  type MonitorRule,
  type MonitorWork,
  type WhisperSchema,
} from "#contracts/monitor";
import { QueueSettingsResponseSchema, type QueueSettingSchema } from "#contracts/config";
import type { RealtimeNotification } from "#contracts/events";
import { maskPhone } from "#app/lib/format";
import { call, requireData, upstreamError, type Caller } from "./upstream.server";

/** The live monitor's service (contracts/monitor.ts): snapshots, thresholds and supervisor actions. */

/**
 * An agent's call or chat as the monitor's pages and stream send it: the party masked as shown
 * (spec §9). The pages hydrate, so what they are sent is readable in the browser.
 */
function maskedWork<T extends { work: MonitorWork | null }>(agent: T): T {
  return agent.work ? { ...agent, work: { ...agent.work, party: maskPhone(agent.work.party) } } : agent;
}

/**
 * A notification of the monitor's stream as the browser gets it, checked here so the islands need no
 * schema: an agent's change with its party masked, a queue's waiting calls, a listened call's or
 * chat's line; null when malformed.
 */
export function shownToSupervisor(notification: RealtimeNotification): RealtimeNotification | null {
  if (notification.type === MONITOR_NOTIFICATIONS.queue) {
    const queue = MonitorQueueStateSchema.safeParse(notification.payload);
    return queue.success ? { ...notification, payload: queue.data } : null;
  }
  if (notification.type === MONITOR_NOTIFICATIONS.line) {
    const line = MonitorLineSchema.safeParse(notification.payload);
    return line.success ? { ...notification, payload: line.data } : null;
  }
  if (notification.type !== MONITOR_NOTIFICATIONS.agent) return notification;
  const state = MonitorAgentStateSchema.safeParse(notification.payload);
  return state.success ? { ...notification, payload: maskedWork(state.data) } : null;
}

export async function listMonitorAgents(caller: Caller, filter: z.infer<typeof MonitorAgentQuerySchema>) {
  const answer = await call({
    method: "POST",
    path: "/analysis/monitor/agent",
    json: filter,
    schema: MonitorAgentListResponseSchema,
    what: "获取坐席状态",
    caller,
  });
  const agents = requireData(answer, "获取坐席状态");
  return { ...agents, list: agents.list.map(maskedWork) };
}

/**
 * The monitor page's snapshot, one request: a page of the filtered agents in full, every agent's
 * live state in brief and the queues, all from one read of the platform's.
 */
export async function monitorSnapshot(caller: Caller, filter: z.infer<typeof MonitorAgentQuerySchema>) {
  const { list, total, states, groups, at } = await listMonitorAgents(caller, filter);
  if (total === undefined || !states || !groups)
    throw upstreamError({ what: "获取坐席状态", status: 502, message: "获取坐席状态失败：平台返回的数据不完整" });
  return { list, total, states, groups, at };
}

export async function getMonitorRules(caller: Caller) {
  const answer = await call({ path: "/analysis/monitor/rules", schema: MonitorRulesResponseSchema, what: "获取监控阈值", caller });
  return requireData(answer, "获取监控阈值").rules;
}

export async function saveMonitorRules(caller: Caller, rules: MonitorRule[], reason: string) {
  const answer = await call({
    method: "PUT",
    path: "/analysis/monitor/rules",
    json: { rules, reason },
    schema: MonitorRulesResponseSchema,
    what: "保存监控阈值",
    caller,
  });
  return requireData(answer, "保存监控阈值").rules;
}

export async function getQueueSettings(caller: Caller) {
  const answer = await call({ path: "/config/queues/settings", schema: QueueSettingsResponseSchema, what: "获取队列设置", caller });
  return requireData(answer, "获取队列设置");
}

export async function saveQueueSettings(caller: Caller, settings: Array<z.infer<typeof QueueSettingSchema>>, reason: string) {
  const answer = await call({
    method: "PUT",
    path: "/config/queues/settings",
    json: { settings, reason },
    schema: QueueSettingsResponseSchema,
    what: "保存队列设置",
    caller,
  });
  return requireData(answer, "保存队列设置");
}

export async function listenToAgent(caller: Caller, agentUserId: number) {
  const answer = await call({
    path: `/analysis/monitor/listen/${agentUserId}`,
    schema: MonitorListenResponseSchema,
    what: "获取实时会话",
    caller,
  });
  return maskedWork(requireData(answer, "获取实时会话"));
}

const done = async (promise: Promise<z.infer<typeof ActionDoneResponseSchema>>, what: string) => requireData(await promise, what).message;

export const forceSignOut = (caller: Caller, input: z.infer<typeof ForcedLogoutSchema>) =>
  done(
    call({ method: "POST", path: "/config/agents/forced/logout", json: input, schema: ActionDoneResponseSchema, what: "强制签出", caller }),
    "强制签出",
  );

export const forceAgentState = (caller: Caller, input: z.infer<typeof ForcedStateSchema>) =>
  done(
    call({ method: "POST", path: "/config/agents/state", json: input, schema: ActionDoneResponseSchema, what: "变更坐席状态", caller }),
    "变更坐席状态",
  );

export const moveAgent = (caller: Caller, input: z.infer<typeof AgentChangeSchema>) =>
  done(
    call({ method: "PUT", path: "/config/agents/change", json: input, schema: ActionDoneResponseSchema, what: "调整坐席队列", caller }),
    "调整坐席队列",
  );

export const whisperToAgent = (caller: Caller, input: z.infer<typeof WhisperSchema>) =>
  done(
    call({ method: "POST", path: "/analysis/monitor/whisper", json: input, schema: ActionDoneResponseSchema, what: "发送密语", caller }),
    "发送密语",
  );
