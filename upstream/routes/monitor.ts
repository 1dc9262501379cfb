import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { CHAT_EVENT } from "#contracts/chat";
import { AGENT_STATES, FORCED_STATES, labelOf, NOT_READY_REASONS } from "#contracts/codes";
import {
  AgentChangeSchema,
  callLine,
  ForcedLogoutSchema,
  ForcedStateSchema,
  MonitorAgentQuerySchema,
  MonitorRulesUpdateSchema,
  WhisperSchema,
  type MonitorLine,
} from "#contracts/monitor";
import { QueueSettingsUpdateSchema } from "#contracts/config";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { actorOf, writeAudit } from "#upstream/repositories/audit-log";
import { sessionDetail } from "#upstream/repositories/chat";
import { agentRows, forgetRules, groupRows, rulesKept } from "#upstream/monitor/snapshot";
import {
  isTextAgent,
  monitorRoster,
  monitorRules,
  moveAgentQueue,
  queueSettings,
  saveMonitorRules,
  saveQueueSettings,
  tenantQueues,
  textAgentStateOfRow,
  type RosterRow,
} from "#upstream/repositories/monitor";
import type { AuthUser } from "#upstream/repositories/users";

/** The agent a supervisor acts on: one of the tenant's agent accounts, or 404 as for an unknown id. */
async function agentOfTenant(app: FastifyInstance, user: AuthUser, agentUserId: number): Promise<RosterRow> {
  const row = (await monitorRoster(app.db, user.tenantId)).find((r) => r.id === agentUserId);
  if (!row) throw new HttpError(404, "坐席不存在");
  return row;
}

const voiceOnly = (row: RosterRow) => {
  if (isTextAgent(row)) throw new HttpError(400, "文本坐席不使用话机，不能变更话机状态");
};

/**
 * The live monitor (`/analysis/monitor`, and the supervisor's actions under `/config/agents`,
 * decision 014) for whoever has 坐席监控 (decision 044): snapshots of agents and queues, thresholds,
 * and the actions, each with a reason and an audit row, each told to the agent's workbench.
 */
export const monitorRoutes: FastifyPluginAsync = async (app) => {
  app.post("/analysis/monitor/agent", async (request) => {
    const user = requireUser(request);
    const filter = parseInput(MonitorAgentQuerySchema, request.body);
    const rows = await agentRows(app, user.tenantId);
    const list = rows.filter(
      (row) =>
        (!filter.userId || row.userId === filter.userId) &&
        (!filter.queueName || row.queueName === filter.queueName) &&
        (!filter.state || row.state === filter.state) &&
        (!filter.name || row.name.includes(filter.name) || row.agentId.includes(filter.name)),
    );
    const at = new Date().toISOString();
    if (!filter.page) return ok({ list, at });
    // A page: the console then reads 20 agents in full, not the whole floor (500 agents parsed
    // and checked on every snapshot was most of its time), and the queues counted from the same
    // read (the page's whole snapshot is one request and one statement).
    const { pageNo, pageSize, sort } = filter.page;
    if (sort === "since") list.sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
    return ok({
      list: list.slice((pageNo - 1) * pageSize, pageNo * pageSize),
      total: list.length,
      states: rows.map(({ userId, state, reason, since, queueName }) => ({ userId, state, reason, since, queueName })),
      groups: await groupRows(app, user.tenantId, rows),
      at,
    });
  });

  app.post("/analysis/monitor/group", async (request) => {
    const user = requireUser(request);
    return ok(await groupRows(app, user.tenantId));
  });

  app.get("/analysis/monitor/rules", async (request) => {
    const user = requireUser(request);
    return ok({ rules: await rulesKept(app, user.tenantId) });
  });

  app.put("/analysis/monitor/rules", async (request) => {
    const user = requireUser(request);
    const input = parseInput(MonitorRulesUpdateSchema, request.body);
    if (new Set(input.rules.map((r) => r.key)).size !== input.rules.length) throw new HttpError(400, "阈值重复");
    const before = await monitorRules(app.db, user.tenantId);
    await app.db.transaction().execute(async (trx) => {
      await saveMonitorRules(trx, user.tenantId, user.id, input.rules);
      const changed = input.rules.filter((rule) => {
        const was = before.find((b) => b.key === rule.key);
        return was?.warningSeconds !== rule.warningSeconds || was?.criticalSeconds !== rule.criticalSeconds;
      });
      await writeAudit(trx, actorOf(user), {
        action: "monitor.rules",
        target: { type: "monitor" },
        summary: changed.length
          ? `监控阈值：${changed.map((r) => `${r.key} ${r.warningSeconds}/${r.criticalSeconds} 秒`).join("，")}`
          : "监控阈值：未变化",
        reason: input.reason,
        detail: { before, after: input.rules },
      });
    });
    forgetRules(app, user.tenantId);
    return ok({ rules: await rulesKept(app, user.tenantId) });
  });

  // How long an offered call rings at an agent of each queue (decision 022).
  const ringDefault = () => Math.round(app.cti.options.ringMs / 1_000);
  app.get("/config/queues/settings", async (request) => {
    const user = requireUser(request);
    return ok({ list: await queueSettings(app.db, user.tenantId, ringDefault()), defaultRingSeconds: ringDefault() });
  });

  app.put("/config/queues/settings", async (request) => {
    const user = requireUser(request);
    const input = parseInput(QueueSettingsUpdateSchema, request.body);
    const before = await queueSettings(app.db, user.tenantId, ringDefault());
    for (const setting of input.settings) {
      if (!before.some((queue) => queue.queueName === setting.queueName)) throw new HttpError(404, `队列不存在：${setting.queueName}`);
    }
    if (new Set(input.settings.map((s) => s.queueName)).size !== input.settings.length) throw new HttpError(400, "队列重复");
    const changed = input.settings.filter((s) => {
      const was = before.find((b) => b.queueName === s.queueName);
      return was?.ringSeconds !== s.ringSeconds || was.acwAutoReady !== s.acwAutoReady;
    });
    await app.db.transaction().execute(async (trx) => {
      await saveQueueSettings(trx, user.tenantId, user.id, input.settings);
      await writeAudit(trx, actorOf(user), {
        action: "queue.settings",
        target: { type: "queue" },
        summary: changed.length
          ? `队列设置：${changed.map((s) => `${s.queueName} 振铃 ${s.ringSeconds} 秒，话后整理${s.acwAutoReady ? "自动结束" : "手动结束"}`).join("；")}`
          : "队列设置：未变化",
        reason: input.reason,
        detail: {
          before: before.map(({ queueName, ringSeconds, acwAutoReady }) => ({ queueName, ringSeconds, acwAutoReady })),
          after: input.settings,
        },
      });
    });
    return ok({ list: await queueSettings(app.db, user.tenantId, ringDefault()), defaultRingSeconds: ringDefault() });
  });

  app.post("/config/agents/forced/logout", async (request) => {
    const user = requireUser(request);
    const input = parseInput(ForcedLogoutSchema, request.body);
    const agent = await agentOfTenant(app, user, input.agentUserId);
    voiceOnly(agent);
    const when = await app.cti.forceSignOut(user.tenantId, agent.id, user.realName, input.reason);
    request.log.info({ event: "forced phone sign-out", userId: agent.id, by: user.id, when });
    const message = when === "now" ? `已将 ${agent.real_name} 签出` : `${agent.real_name} 正在通话，将在通话结束后签出`;
    await writeAudit(app.db, actorOf(user), {
      action: "agent.forceSignOut",
      target: { type: "agent", id: agent.agent_id },
      summary: `坐席 ${agent.real_name}（${agent.agent_id}）：${when === "now" ? "强制签出" : "通话结束后签出"}`,
      reason: input.reason,
    });
    return ok({ message });
  });

  app.post("/config/agents/state", async (request) => {
    const user = requireUser(request);
    const input = parseInput(ForcedStateSchema, request.body);
    const agent = await agentOfTenant(app, user, input.agentUserId);
    voiceOnly(agent);
    if (input.command === "notReady" && !input.notReadyReason) throw new HttpError(400, "请选择未就绪原因");
    const command =
      input.command === "ready"
        ? ({ type: "ready" } as const)
        : input.command === "finishAcw"
          ? ({ type: "acwDone" } as const)
          : ({ type: "notReady", reason: input.notReadyReason! } as const);
    await app.cti.forceState(user.tenantId, agent.id, command, user.realName, input.reason);
    const to =
      input.command === "notReady"
        ? `${labelOf(AGENT_STATES, "NOT_READY")}（${labelOf(NOT_READY_REASONS, input.notReadyReason)}）`
        : labelOf(FORCED_STATES, input.command);
    await writeAudit(app.db, actorOf(user), {
      action: "agent.forceState",
      target: { type: "agent", id: agent.agent_id },
      summary: `坐席 ${agent.real_name}（${agent.agent_id}）：${to}`,
      reason: input.reason,
      detail: { command: input.command, notReadyReason: input.notReadyReason ?? null },
    });
    return ok({ message: `已将 ${agent.real_name} 设为${to}` });
  });

  app.put("/config/agents/change", async (request) => {
    const user = requireUser(request);
    const input = parseInput(AgentChangeSchema, request.body);
    const agent = await agentOfTenant(app, user, input.agentUserId);
    if (!(await tenantQueues(app.db, user.tenantId)).includes(input.queueName)) throw new HttpError(400, "队列不存在");
    if (agent.default_queue_name === input.queueName) throw new HttpError(400, "坐席已在该队列");
    await app.db.transaction().execute(async (trx) => {
      await moveAgentQueue(trx, user.tenantId, agent.id, input.queueName);
      await writeAudit(trx, actorOf(user), {
        action: "agent.move",
        target: { type: "agent", id: agent.agent_id },
        summary: `坐席 ${agent.real_name}（${agent.agent_id}）：${agent.default_queue_name} → ${input.queueName}`,
        reason: input.reason,
        detail: { from: agent.default_queue_name, to: input.queueName },
      });
    });
    if (isTextAgent(agent))
      await notifyTextAgent(app, user, agent, "move", `主管${user.realName}已将您调整到队列 ${input.queueName}。原因：${input.reason}`);
    else await app.cti.moveAgent(user.tenantId, agent.id, input.queueName, user.realName, input.reason);
    return ok({ message: `已将 ${agent.real_name} 调整到 ${input.queueName}` });
  });

  app.post("/analysis/monitor/whisper", async (request) => {
    const user = requireUser(request);
    const input = parseInput(WhisperSchema, request.body);
    const agent = await agentOfTenant(app, user, input.agentUserId);
    if (isTextAgent(agent)) await notifyTextAgent(app, user, agent, "whisper", input.content);
    else await app.cti.whisper(user.tenantId, agent.id, user.realName, input.content);
    await writeAudit(app.db, actorOf(user), {
      action: "agent.whisper",
      target: { type: "agent", id: agent.agent_id },
      summary: `坐席 ${agent.real_name}（${agent.agent_id}）：密语`,
      reason: input.content,
    });
    return ok({ message: `密语已发送给 ${agent.real_name}` });
  });

  // What a supervisor listening to an agent reads first: the call's transcript or the chat so far.
  app.get("/analysis/monitor/listen/:agentUserId", async (request) => {
    const user = requireUser(request);
    const { agentUserId } = parseInput(ForcedLogoutSchema.pick({ agentUserId: true }), request.params);
    const agent = await agentOfTenant(app, user, agentUserId);
    if (!isTextAgent(agent)) {
      const live = app.cti.callOfAgent(user.tenantId, agent.id);
      if (!live) return ok({ work: null, lines: [] });
      const at = new Date(live.call.startedAt);
      return ok({ work: live.state.work, lines: live.call.transcript.map((entry) => callLine(live.call.ctiCallId, entry, at)) });
    }
    const state = textAgentStateOfRow(agent);
    if (!state.work) return ok({ work: null, lines: [] });
    const session = await sessionDetail(app.db, { tenantId: user.tenantId }, state.work.id);
    const lines: MonitorLine[] = (session?.dialogs ?? []).map((dialog) => ({
      kind: "chat",
      id: state.work!.id,
      role: dialog.role === "user" ? "customer" : dialog.role === "agent" ? "agent" : "system",
      content: dialog.content,
      at: dialog.at,
    }));
    return ok({ work: state.work, lines });
  });
};

async function notifyTextAgent(app: FastifyInstance, user: AuthUser, agent: RosterRow, kind: "move" | "whisper", message: string) {
  await app.notifications.publish({ tenantId: user.tenantId, userId: agent.id }, CHAT_EVENT.supervisor, {
    kind,
    from: user.realName,
    message,
    at: new Date().toISOString(),
  });
}
