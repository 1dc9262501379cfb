import { useCallback, useEffect, useMemo, useState } from "react";
import { AGENT_REASONS, labelOf, MONITOR_STATES, toneOf } from "#contracts/codes";
import type { RealtimeNotification } from "#contracts/events";
import type { MonitorAgent, MonitorAgentState, MonitorGroup, MonitorLiveState, MonitorQueueState, MonitorRule } from "#contracts/monitor";
import { levelOf, liveCounts, MONITOR_NOTIFICATIONS, ruleKeyOf } from "#contracts/monitor-live";
import { STREAM_STATUS_LABELS, useEventStream } from "#app/client/use-event-stream";
import { FilterSelect, nameChoices } from "#app/components/code-select";
import { CodeTag } from "#app/components/code-tag";
import { FilterBar } from "#app/components/filters";
import { Paginator } from "#app/components/paginator";
import { formatDuration, formatTime, maskPhone } from "#app/lib/format";
import type { MonitorQuery } from "./query";

type Props = {
  startId: number;
  rows: MonitorAgent[];
  total: number;
  /** What the island keeps of every agent for the queues' counts; the page's rows are in full. */
  states: MonitorLiveState[];
  groups: { list: MonitorGroup[]; total: MonitorGroup; at: string };
  rules: MonitorRule[];
  at: string;
  query: MonitorQuery;
};
type Waiting = { waiting: number; oldestWaitingSince: string | null };

/** The seconds since an ISO time, as of `now`. */
const secondsSince = (iso: string | null, now: number) => (iso ? Math.max(0, Math.floor((now - Date.parse(iso)) / 1_000)) : 0);

/**
 * The live monitor (an island): the server's snapshot first ("数据截至"), then every agent's and
 * queue's change from the tenant's stream; the clock runs every second, so times in state and the
 * threshold colours move without any message.
 */
export function Monitor(props: Props) {
  const [rows, setRows] = useState(() => new Map(props.rows.map((a) => [a.userId, a])));
  const [states, setStates] = useState(() => new Map(props.states.map((a) => [a.userId, a])));
  const [waiting, setWaiting] = useState(() => new Map<string, Waiting>(props.groups.list.map((g) => [g.queueName ?? "", g])));
  const [updatedAt, setUpdatedAt] = useState(props.at);
  // On the server and in the first render: the snapshot's time; then the browser's clock.
  const [now, setNow] = useState(() => Date.parse(props.at));
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  const onNotification = useCallback((notification: RealtimeNotification) => {
    // The console checked each payload before relaying it (shownToSupervisor): no schema, and no
    // zod, in this island (decision 049).
    if (notification.type === MONITOR_NOTIFICATIONS.agent) {
      const state = notification.payload as MonitorAgentState;
      const { userId } = state;
      setStates((current) => (current.has(userId) ? new Map(current).set(userId, state) : current));
      setRows((current) => {
        const agent = current.get(userId);
        return agent ? new Map(current).set(userId, { ...agent, ...state }) : current;
      });
    } else if (notification.type === MONITOR_NOTIFICATIONS.queue) {
      const queue = notification.payload as MonitorQueueState;
      setWaiting((current) => new Map(current).set(queue.queueName, queue));
    } else return;
    setUpdatedAt(notification.at);
  }, []);
  const status = useEventStream("/monitor/agent/events", props.startId, onNotification);

  const rules = useMemo(() => new Map(props.rules.map((rule) => [rule.key, rule])), [props.rules]);
  const all = [...states.values()];
  const visible = [...rows.values()];
  const figures = new Map(props.groups.list.map((g) => [g.queueName, g]));
  const queueNames = [...new Set([...props.groups.list.map((g) => g.queueName ?? ""), ...all.map((a) => a.queueName)])].sort();
  const group = (name: string | null): MonitorGroup => {
    const members = name === null ? all : all.filter((a) => a.queueName === name);
    const queues = name === null ? [...waiting.values()] : [waiting.get(name)].filter((w): w is Waiting => !!w);
    const today = name === null ? props.groups.total : figures.get(name);
    return {
      ...liveCounts(name, members, queues),
      answeredToday: today?.answeredToday ?? 0,
      abandonedToday: today?.abandonedToday ?? 0,
      serviceLevel: today?.serviceLevel ?? null,
    };
  };

  return (
    <div className="sb-monitor">
      <p className="sb-monitor-status">
        <span>数据截至 {formatTime(Date.parse(updatedAt))}</span>
        <span role="status">实时连接：{STREAM_STATUS_LABELS[status]}</span>
        <a href={`/monitor/agent${searchOf(props.query)}`}>刷新</a>
      </p>
      <GroupsTable groups={[...queueNames.map(group), group(null)]} now={now} queueRule={rules.get("QUEUE_WAIT")} />
      <Filters query={props.query} queues={queueNames} />
      <AgentsTable agents={visible} total={props.total} now={now} rules={rules} />
      <Paginator
        total={props.total}
        pageNo={props.query.page}
        pageSize={props.query.size}
        pathname="/monitor/agent"
        search={searchOf(props.query)}
      />
    </div>
  );
}

const searchOf = (query: MonitorQuery) => {
  const params = new URLSearchParams(
    Object.entries(query)
      .filter(([key, value]) => value !== undefined && value !== "" && !(key === "page" && value === 1))
      .map(([key, value]) => [key, String(value)]),
  );
  return params.size > 0 ? `?${params}` : "";
};

const percent = (share: number | null) => (share === null ? "-" : `${Math.round(share * 100)}%`);

function GroupsTable({ groups, now, queueRule }: { groups: MonitorGroup[]; now: number; queueRule: MonitorRule | undefined }) {
  return (
    <div className="p-datatable p-component p-datatable-gridlines p-datatable-sm sb-monitor-table">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table">
          <caption>队列概况</caption>
          <thead className="p-datatable-thead">
            <tr>
              <th scope="col">队列</th>
              <th scope="col">签入</th>
              <th scope="col">就绪</th>
              <th scope="col">通话中</th>
              <th scope="col">会话中</th>
              <th scope="col">话后整理</th>
              <th scope="col">未就绪</th>
              <th scope="col">失联</th>
              <th scope="col">排队</th>
              <th scope="col">最长等待</th>
              <th scope="col">今日接通</th>
              <th scope="col">今日放弃</th>
              <th scope="col">服务水平</th>
            </tr>
          </thead>
          <tbody className="p-datatable-tbody">
            {groups.map((g) => {
              const wait = secondsSince(g.oldestWaitingSince, now);
              const level = g.waiting > 0 ? levelOf(wait, queueRule) : "none";
              const notReady = Object.entries(g.notReady);
              return (
                <tr key={g.queueName ?? "total"} className={g.queueName === null ? "sb-monitor-total" : undefined}>
                  <th scope="row" className="sb-nowrap">
                    {g.queueName ?? "合计"}
                  </th>
                  <td>{g.signedIn}</td>
                  <td>{g.ready}</td>
                  <td>{g.onCall}</td>
                  <td>{g.onChat}</td>
                  <td>{g.afterCallWork}</td>
                  <td>
                    {notReady.reduce((sum, [, n]) => sum + n, 0)}
                    {notReady.length > 0 ? (
                      <span className="sb-monitor-reasons">
                        （{notReady.map(([reason, n]) => `${labelOf(AGENT_REASONS, reason)} ${n}`).join("，")}）
                      </span>
                    ) : null}
                  </td>
                  <td className={g.lost > 0 ? "sb-level-critical" : undefined}>{g.lost}</td>
                  <td>{g.waiting}</td>
                  <td className={`sb-level-${level}`}>
                    {g.waiting > 0 ? formatDuration(wait * 1_000) : "-"}
                    <LevelText level={level} />
                  </td>
                  <td>{g.answeredToday}</td>
                  <td>{g.abandonedToday}</td>
                  <td>{percent(g.serviceLevel)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The threshold a cell has passed, said in words too (colour is not the only sign). */
function LevelText({ level }: { level: "none" | "warning" | "critical" }) {
  if (level === "none") return null;
  return <span className="sb-level-text">{level === "critical" ? "（严重超时）" : "（超时预警）"}</span>;
}

function Filters({ query, queues }: { query: MonitorQuery; queues: string[] }) {
  return (
    <FilterBar label="筛选坐席" resetHref="/monitor/agent">
      <FilterSelect id="filter-queue" name="queueName" label="队列" table={nameChoices(queues)} value={query.queueName} />
      <FilterSelect id="filter-state" name="state" label="状态" table={MONITOR_STATES} value={query.state} />
      <div className="sb-field">
        <label htmlFor="filter-name">坐席姓名或工号</label>
        <input id="filter-name" name="name" className="p-inputtext" defaultValue={query.name ?? ""} maxLength={32} />
      </div>
      <div className="sb-field">
        <label htmlFor="filter-sort">排序</label>
        <select id="filter-sort" name="sort" className="p-inputtext" defaultValue={query.sort ?? ""}>
          <option value="">按工号</option>
          <option value="since">按状态时长（最长在前）</option>
        </select>
      </div>
    </FilterBar>
  );
}

function AgentsTable({
  agents,
  total,
  now,
  rules,
}: {
  agents: MonitorAgent[];
  total: number;
  now: number;
  rules: Map<string, MonitorRule>;
}) {
  return (
    <div className="p-datatable p-component p-datatable-gridlines p-datatable-sm sb-monitor-table">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table sb-monitor-agents">
          <caption>坐席状态（共 {total} 人）</caption>
          <thead className="p-datatable-thead">
            <tr>
              <th scope="col">坐席</th>
              <th scope="col">工号</th>
              <th scope="col">队列</th>
              <th scope="col">状态</th>
              <th scope="col">状态时长</th>
              <th scope="col">当前通话 / 会话</th>
              <th scope="col">今日通话</th>
              <th scope="col">今日会话</th>
              <th scope="col">平均处理时长</th>
              <th scope="col">满意度</th>
              <th scope="col" className="sb-actions-column">
                操作
              </th>
            </tr>
          </thead>
          <tbody className="p-datatable-tbody">
            {agents.length === 0 ? (
              <tr>
                <td colSpan={11}>没有符合条件的坐席</td>
              </tr>
            ) : null}
            {agents.map((agent) => {
              const seconds = secondsSince(agent.since, now);
              const key = ruleKeyOf(agent.state);
              const level = agent.state === "LOST" ? "critical" : levelOf(seconds, key ? rules.get(key) : undefined);
              return (
                <tr key={agent.userId} className={`sb-level-row-${level}`} data-agent={agent.agentId}>
                  <th scope="row">{agent.name}</th>
                  <td>{agent.agentId}</td>
                  <td className="sb-nowrap">{agent.queueName}</td>
                  <td>
                    <CodeTag tone={toneOf(MONITOR_STATES, agent.state)}>{labelOf(MONITOR_STATES, agent.state)}</CodeTag>
                    {agent.state === "NOT_READY" && agent.reason ? <span> {labelOf(AGENT_REASONS, agent.reason)}</span> : null}
                    {agent.signOutPending ? <span className="sb-monitor-pending">（通话结束后签出）</span> : null}
                  </td>
                  <td className={`sb-level-${level}`}>
                    {agent.state === "SIGNED_OUT" ? "-" : formatDuration(seconds * 1_000)}
                    <LevelText level={level} />
                  </td>
                  <td>
                    <Work agent={agent} />
                  </td>
                  <td>{agent.today.calls}</td>
                  <td>{agent.today.chats}</td>
                  <td>{formatDuration(agent.today.averageHandleMs)}</td>
                  <td>{percent(agent.today.satisfaction)}</td>
                  <td className="sb-actions-column">
                    <a href={`/monitor/agent/${agent.userId}`} aria-label={`操作坐席 ${agent.name}`}>
                      操作
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Work({ agent }: { agent: MonitorAgent }) {
  const { work } = agent;
  if (!work) return <>-</>;
  const direction = work.direction === "inbound" ? "呼入" : work.direction === "outbound" ? "外呼" : "";
  const campaign = work.campaignName ?? (work.campaignId ? `活动 ${work.campaignId}` : null);
  return (
    <span>
      {work.kind === "chat" ? `会话 ${agent.chats} 个 · ` : `${direction} · `}
      {maskPhone(work.party)}
      {campaign ? ` · ${campaign}` : ""}
    </span>
  );
}
