import { useCallback, useState } from "react";
import type { RealtimeNotification } from "#contracts/events";
import type { MonitorAgentState, MonitorLine, MonitorWork } from "#contracts/monitor";
import { MONITOR_NOTIFICATIONS } from "#contracts/monitor-live";
import { STREAM_STATUS_LABELS, useEventStream } from "#app/client/use-event-stream";
import { formatTime, maskPhone } from "#app/lib/format";

const ROLE_LABELS: Record<MonitorLine["role"], string> = { customer: "客户", agent: "坐席", robot: "机器人", system: "系统" };

/**
 * An agent as the supervisor's page follows them: the agent's live state (`monitor.agent`) and,
 * read-only, the call's live transcript or the chat's messages as they are said or written
 * (`monitor.line`), following the agent to their next call or chat. One stream feeds both, so the
 * page's facts and what it listens to never disagree.
 */
export function useLiveAgent<A extends MonitorAgentState>(
  agent: A,
  startId: number,
  initial: { work: MonitorWork | null; lines: MonitorLine[] },
) {
  const [live, setLive] = useState(agent);
  const [listened, setListened] = useState(initial);
  // New loader data (after an action or a reload) is the newer snapshot: start from it again.
  const [loaded, setLoaded] = useState(agent);
  if (loaded !== agent) {
    setLoaded(agent);
    setLive(agent);
    setListened(initial);
  }
  // Payloads come as the console checked them (shownToSupervisor): the island loads no schema.
  const onNotification = useCallback(
    (notification: RealtimeNotification) => {
      if (notification.type === MONITOR_NOTIFICATIONS.agent) {
        const state = notification.payload as MonitorAgentState;
        if (state.userId !== agent.userId) return;
        setLive((current) => ({ ...current, ...state }));
        // The agent moved on to another call or chat (or to none): its lines start anew.
        setListened((current) => (current.work?.id === state.work?.id ? current : { work: state.work, lines: [] }));
      } else if (notification.type === MONITOR_NOTIFICATIONS.line) {
        const line = notification.payload as MonitorLine;
        setListened((current) => (current.work?.id === line.id ? { ...current, lines: [...current.lines, line] } : current));
      }
    },
    [agent.userId],
  );
  const status = useEventStream("/monitor/agent/events?lines", startId, onNotification);
  return { live, listened, status };
}

/** What the supervisor listens to (useLiveAgent's `listened`); without JavaScript, the snapshot. */
export function Listening({ listened, status }: Pick<ReturnType<typeof useLiveAgent>, "listened" | "status">) {
  const { work, lines } = listened;
  return (
    <section className="sb-section" aria-labelledby="listen-title">
      <h2 id="listen-title" className="sb-section-title">
        监听（只读）
      </h2>
      <p className="sb-hint">
        {work ? `${work.kind === "chat" ? "文本会话" : "通话"}：${maskPhone(work.party)}` : "该坐席当前没有可监听的通话或会话"}
        {" · "}
        {status === "static" ? "页面内容截至加载时，刷新可查看最新" : <span role="status">实时连接：{STREAM_STATUS_LABELS[status]}</span>}
      </p>
      {work ? (
        <ol className="sb-chat-log sb-listen-log" aria-label="实时内容" aria-live="polite">
          {lines.map((line, index) => (
            <li key={`${line.at}-${index}`} className={`sb-chat-line is-${line.role === "customer" ? "user" : "agent"}`}>
              <span className="sb-chat-who">{ROLE_LABELS[line.role]}</span>
              <p>{line.content}</p>
              <span className="sb-chat-meta">
                <time dateTime={line.at}>{formatTime(Date.parse(line.at))}</time>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
