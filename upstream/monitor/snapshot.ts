import type { FastifyInstance } from "fastify";
import { ExpiringCache } from "#common/expiring-cache";
import { liveCounts, PRESENCE_TIMEOUT_MS, type MonitorAgent, type MonitorAgentState, type MonitorGroup } from "#contracts/monitor";
import {
  agentFiguresToday,
  isTextAgent,
  monitorRoster,
  monitorRules,
  queueFiguresToday,
  textAgentStateOfRow,
  type RosterRow,
} from "#upstream/repositories/monitor";

/**
 * Today's figures move slowly (a call ends, a chat closes) and reading them sums the whole day's
 * calls and state periods of every agent and queue: each tenant's are kept for FIGURES_KEPT_MS,
 * so twenty supervisors' snapshots do not each sum the day again. Live states are never kept.
 */
const FIGURES_KEPT_MS = 5_000;
const figuresKept = new WeakMap<FastifyInstance, ExpiringCache<string, Promise<unknown>>>();
function keptFigures<T>(
  app: FastifyInstance,
  kind: "agents" | "queues" | "rules" | "campaigns",
  tenantId: number,
  now: Date,
  read: () => Promise<T>,
): Promise<T> {
  let kept = figuresKept.get(app);
  if (!kept) figuresKept.set(app, (kept = new ExpiringCache(1_000)));
  const key = `${kind}:${tenantId}`;
  const cached = kept.get(key, now.getTime());
  if (cached) return cached as Promise<T>;
  const fresh = read();
  kept.set(key, fresh, now.getTime() + FIGURES_KEPT_MS);
  fresh.catch(() => kept.delete(key));
  return fresh;
}
const agentFiguresKept = (app: FastifyInstance, tenantId: number, now: Date) =>
  keptFigures(app, "agents", tenantId, now, () => agentFiguresToday(app.db, tenantId, now));
const queueFiguresKept = (app: FastifyInstance, tenantId: number, now: Date) =>
  keptFigures(app, "queues", tenantId, now, () => queueFiguresToday(app.db, tenantId, now));

/** The names of the campaigns an agent's call may belong to, kept like the figures (a renamed campaign shows within 5 s). */
const campaignsKept = (app: FastifyInstance, tenantId: number, now: Date) =>
  keptFigures(app, "campaigns", tenantId, now, () =>
    app.db.selectFrom("campaigns").select(["id", "name"]).where("tenant_id", "=", tenantId).execute(),
  );

/** A tenant's thresholds, kept like the figures (every snapshot reads them); a change here forgets them at once. */
export const rulesKept = (app: FastifyInstance, tenantId: number) =>
  keptFigures(app, "rules", tenantId, new Date(), () => monitorRules(app.db, tenantId));
export const forgetRules = (app: FastifyInstance, tenantId: number) => figuresKept.get(app)?.delete(`rules:${tenantId}`);

/**
 * What a supervisor sees of each agent now: the phone's state for voice agents, the chats for
 * text agents, and 失联 (LOST) for an agent who should be working but whose client has not
 * reported for PRESENCE_TIMEOUT_MS.
 */

export async function agentRows(
  app: FastifyInstance,
  tenantId: number,
  now = new Date(),
  { figures: withFigures = true }: { figures?: boolean } = {},
): Promise<MonitorAgent[]> {
  // The live states only (queues' counts, presence) need neither today's figures nor names.
  const [roster, figures, campaigns] = await Promise.all([
    monitorRoster(app.db, tenantId),
    withFigures ? agentFiguresKept(app, tenantId, now) : new Map<number, MonitorAgent["today"]>(),
    withFigures ? campaignsKept(app, tenantId, now) : [],
  ]);
  const live = app.cti.liveAgents(tenantId);
  const campaignName = new Map(campaigns.map((c) => [c.id, c.name]));
  return roster.map((row) => {
    const present = row.last_seen_at !== null && now.getTime() - row.last_seen_at.getTime() < PRESENCE_TIMEOUT_MS;
    const state = isTextAgent(row) ? textAgentStateOfRow(row) : (live.get(row.id) ?? signedOutState(row));
    const working = isTextAgent(row) ? state.chats > 0 : state.state !== "SIGNED_OUT";
    const shown: MonitorAgentState = present
      ? state
      : working
        ? { ...state, state: "LOST", reason: null, since: (row.last_seen_at ?? new Date(state.since)).toISOString() }
        : signedOutState(row);
    const work = shown.work && {
      ...shown.work,
      campaignName: shown.work.campaignId ? (campaignName.get(shown.work.campaignId) ?? null) : null,
    };
    return {
      ...shown,
      work,
      name: row.real_name,
      agentId: row.agent_id!,
      workType: row.work_type,
      lastSeenAt: row.last_seen_at?.toISOString() ?? null,
      today: figures.get(row.id) ?? { calls: 0, chats: 0, averageHandleMs: null, satisfaction: null },
    };
  });
}

const signedOutState = (row: RosterRow): MonitorAgentState => ({
  userId: row.id,
  state: "SIGNED_OUT",
  reason: null,
  since: (row.last_seen_at ?? new Date(0)).toISOString(),
  queueName: row.default_queue_name,
  work: null,
  chats: 0,
  signOutPending: false,
});

/**
 * Each queue's live counts and today's figures, and the tenant's in total; from `agents` when the
 * caller has just read them (the monitor page's snapshot reads the roster once), else read now.
 */
export async function groupRows(app: FastifyInstance, tenantId: number, agents?: readonly MonitorAgentState[]) {
  const now = new Date();
  const [live, figures] = await Promise.all([
    agents ?? agentRows(app, tenantId, now, { figures: false }),
    queueFiguresKept(app, tenantId, now),
  ]);
  return groupsOf(app, tenantId, live, figures, now);
}

function groupsOf(
  app: FastifyInstance,
  tenantId: number,
  agents: readonly MonitorAgentState[],
  figures: Awaited<ReturnType<typeof queueFiguresToday>>,
  now: Date,
) {
  const queues = app.cti.queues(tenantId);
  const names = [...new Set([...agents.map((a) => a.queueName), ...queues.map((q) => q.queueName), ...figures.keys()])].sort();
  const today = (names: string[]) => {
    const rows = names.map((name) => figures.get(name)).filter((f) => f !== undefined);
    const answered = rows.reduce((sum, f) => sum + f.answered, 0);
    const abandoned = rows.reduce((sum, f) => sum + f.abandoned, 0);
    const inTime = rows.reduce((sum, f) => sum + f.inTime, 0);
    return {
      answeredToday: answered,
      abandonedToday: abandoned,
      serviceLevel: answered + abandoned > 0 ? inTime / (answered + abandoned) : null,
    };
  };
  const list: MonitorGroup[] = names.map((name) => ({
    ...liveCounts(
      name,
      agents.filter((a) => a.queueName === name),
      queues.filter((q) => q.queueName === name),
    ),
    ...today([name]),
  }));
  return { list, total: { ...liveCounts(null, agents, queues), ...today(names) }, at: now.toISOString() };
}
