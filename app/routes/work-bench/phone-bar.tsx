import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { AGENT_REASONS, AGENT_STATES, CALL_ORIGIN_LABELS, NOT_READY_REASONS, labelOf, toneOf } from "#contracts/codes";
import type { PhoneSnapshot } from "#contracts/cti";
import { DIALABLE_PHONE } from "#contracts/workbench-live";
import { maskPhone } from "#app/lib/format";
import { takeEarlyText } from "#app/client/early-input";
import { softphone } from "#app/client/softphone";
import { STREAM_STATUS_LABELS } from "#app/client/use-event-stream";
import { focusNext } from "./focus";
import type { WorkbenchData } from "./types";

function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export type Act = (intent: string, fields?: Record<string, unknown>) => Promise<boolean>;

/** The one control that matters in this state, drawn most prominent. */
function primaryAction(state: PhoneSnapshot["agent"]["state"], offered: boolean, hasResultToWrite: boolean) {
  if (state === "SIGNED_OUT") return "signIn";
  if (state === "RINGING") return offered ? "answer" : "hangup";
  if (state === "TALKING" || state === "HOLD") return "hangup";
  if (state === "NOT_READY" || (state === "ACW" && !hasResultToWrite)) return "ready";
  return null;
}

/**
 * The phone bar: a strip that says what is happening (the state, the call offered or on, the link),
 * the call controls, dialling, transfer and consult, the keypad. Its rows keep their place whatever
 * the state, so nothing jumps when a call arrives; controls that cannot be used now look and are
 * announced disabled, and the one that matters now stands out.
 */
export function PhoneBar(props: {
  phone: PhoneSnapshot;
  stream: keyof typeof STREAM_STATUS_LABELS;
  can: Record<"answer" | "hangup" | "ready" | "notReady", boolean>;
  act: Act;
  /** Goes ready (asking first while a result is unsaved). */
  goReady: () => void;
  /** Whether a call's result is still to be written (then 保存结论 is the action that matters). */
  hasResultToWrite: boolean;
  ringMuted: boolean;
  setRingMuted: (muted: boolean) => void;
  reason: string;
  setReason: (reason: string) => void;
  error: string | null;
  colleagues: WorkbenchData["colleagues"];
  /** Reads the colleagues' states again (they change while the agent talks). */
  refreshColleagues: () => Promise<void>;
  /** Sends a keypad digit in the call's audio (real voice, decision 036). */
  sendTone?: (digit: string) => void;
  /** The audio devices' control (设备), where this tab owns a real phone. */
  devices?: ReactNode;
}) {
  const { phone, stream, can, act, reason, setReason, error } = props;
  const { agent, call } = phone;
  const inCall = agent.state === "TALKING" || agent.state === "HOLD";
  const now = useNow(agent.state === "ACW" || inCall);
  // The countdown runs on the browser's clock from the period's length, so clock skew does not matter.
  const acwEnd = useMemo(
    () => (agent.acwEndsAt ? Date.now() + Date.parse(agent.acwEndsAt) - Date.parse(agent.since) : null),
    [agent.acwEndsAt, agent.since],
  );
  const talkingSince = useMemo(
    () => (call?.answeredAt ? Date.now() - (Date.parse(agent.since) - Date.parse(call.answeredAt)) : null),
    [call?.answeredAt, agent.since],
  );
  const [dialNumber, setDialNumber] = useState("");
  const dialField = useRef<HTMLInputElement>(null);
  // A number typed while the page was still loading stays (the first render would empty the field).
  useEffect(() => {
    const typed = takeEarlyText(dialField.current);
    if (typed) setDialNumber(typed);
  }, []);
  const [transferTo, setTransferTo] = useState("");
  const [showKeypad, setShowKeypad] = useState(false);
  /** What the last transfer did, shown during the after-call work that follows it. */
  const [transferred, setTransferred] = useState<{ ctiCallId: string; text: string } | null>(null);
  const shortcuts = { answer: "Alt+A", hangup: "Alt+H", ready: "Alt+R", notReady: "Alt+N" };
  const dialValid = DIALABLE_PHONE.test(dialNumber.trim());
  const offered = agent.state === "RINGING" && call?.origin !== "manual";
  const primary = primaryAction(agent.state, offered, props.hasResultToWrite);
  const emphasis = (action: string) => (primary === action ? " sb-primary-action" : "");
  // On a phone the controls scroll sideways: when the phone's state changes (a call rings while the
  // agent was at the dial field, the call connects), the action that matters is brought into sight.
  const controls = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const row = controls.current;
    const action = row?.querySelector(".sb-primary-action");
    if (!row || !action) return;
    const [box, rect] = [row.getBoundingClientRect(), action.getBoundingClientRect()];
    if (rect.left < box.left || rect.right > box.right) row.scrollLeft += rect.left - box.left - 8;
  }, [primary, agent.state]);

  // A call answered (Alt+A leaves the focus on the page's body, the 接听 button goes disabled):
  // the focus goes to 挂机, the call's next control.
  const hangupButton = useRef<HTMLButtonElement>(null);
  const previousState = useRef(agent.state);
  useEffect(() => {
    if (previousState.current === "RINGING" && agent.state === "TALKING") focusNext(hangupButton.current);
    previousState.current = agent.state;
  }, [agent.state]);

  // Keys go out one after another, so quick presses reach the far end in the order pressed.
  const dtmfQueue = useRef<Promise<unknown>>(Promise.resolve());
  const sendDigit = (digit: string) => {
    softphone().tone(digit);
    props.sendTone?.(digit);
    dtmfQueue.current = dtmfQueue.current.then(() => act("dtmf", { digits: digit }));
  };

  const dial = (event: FormEvent) => {
    event.preventDefault();
    if (dialValid) void act("dial", { phone: dialNumber.trim() });
  };
  const transfer = async (kind: "agent" | "queue") => {
    if (!call || !transferTo) return;
    const colleague = props.colleagues.find((c) => c.agentId === transferTo);
    if (await act("transfer", { target: kind, to: transferTo })) {
      const text = kind === "queue" ? `已转回队列 ${transferTo}` : `已转接给 ${colleague?.name ?? transferTo}`;
      setTransferred({ ctiCallId: call.ctiCallId, text });
      setTransferTo("");
    }
  };

  const acwLeft = acwEnd === null ? null : Math.max(0, Math.ceil((acwEnd - now) / 1000));
  return (
    <section className={`sb-phonebar sb-phonebar--${agent.state.toLowerCase()} ${offered ? "sb-ringing" : ""}`} aria-label="电话条">
      <div className="sb-phonebar-strip">
        <div className="sb-phonebar-state" role="status" aria-live="polite" data-testid="agent-state">
          <span className={`sb-phonebar-dot sb-phonebar-dot--${toneOf(AGENT_STATES, agent.state)}`} aria-hidden="true" />
          <span>{labelOf(AGENT_STATES, agent.state)}</span>
          {agent.state === "NOT_READY" && agent.reason ? <span>（{labelOf(AGENT_REASONS, agent.reason)}）</span> : null}
          {agent.state === "ACW" ? (
            <span data-testid="acw-countdown">
              {acwLeft === null
                ? "（点击就绪结束）"
                : acwLeft > 0
                  ? `剩余 ${acwLeft} 秒`
                  : props.hasResultToWrite
                    ? "（保存结论后自动就绪）"
                    : "即将就绪"}
            </span>
          ) : null}
          {agent.muted ? <span>（已静音）</span> : null}
        </div>
        <div className="sb-phonebar-call">
          {call && agent.state === "RINGING" ? (
            <p className="sb-ring-banner" role={offered ? "alert" : undefined}>
              {call.consult ? `${call.consult.colleague} 请求咨询：` : null}
              {call.origin === "manual" ? "正在呼叫" : "来电"} {maskPhone(call.phone)}（{labelOf(CALL_ORIGIN_LABELS, call.origin)}）
              {call.queueName ? <span className="sb-ring-queue"> · 队列 {call.queueName}</span> : null}
            </p>
          ) : call && inCall ? (
            <p>
              {labelOf(CALL_ORIGIN_LABELS, call.origin)} {maskPhone(call.phone)}
              {talkingSince !== null ? <span className="sb-call-clock"> · {clock(now - talkingSince)}</span> : null}
            </p>
          ) : (
            <p className="sb-phonebar-idle">
              {agent.state === "ACW" && !props.hasResultToWrite
                ? "结论已保存，话后整理结束后即可接听下一通电话"
                : (IDLE_HINTS[agent.state] ?? "")}
            </p>
          )}
        </div>
        <div className={`sb-phonebar-link sb-phonebar-link--${stream}`} role="status" data-testid="connection">
          <span className="sb-phonebar-dot" aria-hidden="true" />
          <span className="sb-phonebar-link-text">{STREAM_STATUS_LABELS[stream]}</span>
        </div>
      </div>
      {/* On a phone the controls are one row that scrolls sideways, the action that matters in sight first. */}
      <div
        className="sb-phonebar-controls"
        ref={controls}
        // The browser leaves a control half out of the row when focused; Tab shows it whole.
        onFocus={(event) => event.target.scrollIntoView({ block: "nearest", inline: "nearest" })}
      >
        <div className="sb-phonebar-actions">
          {agent.state === "SIGNED_OUT" ? (
            <button
              type="button"
              className={`p-button p-button-sm sb-slot${emphasis("signIn")}`}
              onClick={() => {
                // The click lets the page make sound, so the first call of the day rings.
                softphone().unlock();
                void act("state", { command: "signIn" });
              }}
            >
              签入
            </button>
          ) : (
            <button
              type="button"
              className="p-button p-button-text p-button-sm sb-slot"
              disabled={call !== null}
              onClick={() => act("state", { command: "signOut" })}
            >
              签出
            </button>
          )}
          <button
            type="button"
            className={`p-button p-button-success p-button-sm${emphasis("answer")}`}
            disabled={!can.answer}
            aria-keyshortcuts={shortcuts.answer}
            onClick={() => act("call", { action: "answer" })}
          >
            接听<kbd>{shortcuts.answer}</kbd>
          </button>
          <button
            ref={hangupButton}
            type="button"
            className={`p-button p-button-danger p-button-sm${emphasis("hangup")}`}
            disabled={!can.hangup}
            aria-keyshortcuts={shortcuts.hangup}
            onClick={() => act("call", { action: "hangup" })}
          >
            挂机<kbd>{shortcuts.hangup}</kbd>
          </button>
          <button
            type="button"
            className={`p-button p-button-sm${emphasis("ready")}`}
            disabled={!can.ready}
            aria-keyshortcuts={shortcuts.ready}
            onClick={props.goReady}
          >
            就绪<kbd>{shortcuts.ready}</kbd>
          </button>
          <label className="p-hidden-accessible" htmlFor="not-ready-reason">
            未就绪原因
          </label>
          <select
            id="not-ready-reason"
            className="p-inputtext p-component p-inputtext-sm"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          >
            {/* Not CodeOptions: its chunk would weigh on this island (app/components/code-select.tsx). */}
            {NOT_READY_REASONS.map((r) => (
              <option key={r.code} value={r.code}>
                {r.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="p-button p-button-warning p-button-sm"
            disabled={!can.notReady}
            aria-keyshortcuts={shortcuts.notReady}
            onClick={() => act("notReady", { reason })}
          >
            未就绪<kbd>{shortcuts.notReady}</kbd>
          </button>
          <button
            type="button"
            className="p-button p-button-outlined p-button-sm sb-slot"
            disabled={!inCall}
            onClick={() => act("call", { action: agent.state === "HOLD" ? "resume" : "hold" })}
          >
            {agent.state === "HOLD" ? "恢复" : "保持"}
          </button>
          <button
            type="button"
            className="p-button p-button-outlined p-button-sm sb-slot"
            disabled={agent.state !== "TALKING"}
            onClick={() => act("call", { action: agent.muted ? "unmute" : "mute" })}
          >
            {agent.muted ? "取消静音" : "静音"}
          </button>
          <button
            type="button"
            className="p-button p-button-outlined p-button-sm"
            disabled={agent.state !== "TALKING"}
            aria-expanded={showKeypad}
            onClick={() => setShowKeypad(!showKeypad)}
          >
            拨号盘
          </button>
          <label className="sb-phonebar-option">
            <input type="checkbox" checked={!props.ringMuted} onChange={(e) => props.setRingMuted(!e.target.checked)} />
            来电铃声
          </label>
          {props.devices}
          <label className="sb-phonebar-option">
            <input
              type="checkbox"
              checked={agent.autoAnswer}
              onChange={(e) => act("autoAnswer", { autoAnswer: String(e.target.checked) })}
            />
            自动接听
          </label>
        </div>
        <div className="sb-phonebar-row">
          <form className="sb-phonebar-actions" onSubmit={dial} noValidate>
            <label htmlFor="dial-number">外呼号码</label>
            <input
              id="dial-number"
              ref={dialField}
              className="p-inputtext p-component p-inputtext-sm"
              inputMode="tel"
              value={dialNumber}
              aria-invalid={dialNumber !== "" && !dialValid}
              aria-describedby="dial-hint"
              onChange={(e) => setDialNumber(e.target.value)}
            />
            <button
              type="submit"
              className="p-button p-button-sm"
              disabled={!dialValid || !["READY", "NOT_READY", "ACW"].includes(agent.state)}
            >
              呼叫
            </button>
            <small id="dial-hint">{dialNumber !== "" && !dialValid ? "请输入正确的电话号码" : "手机号或带区号的固话"}</small>
          </form>
          {/* Always there (disabled outside a call), so the page does not move when a call connects. */}
          <fieldset className="sb-phonebar-actions sb-phonebar-transfer" disabled={!inCall} aria-label="转接目标">
            <label htmlFor="transfer-to">转接/咨询目标</label>
            <select
              id="transfer-to"
              className="p-inputtext p-component p-inputtext-sm"
              value={transferTo}
              onFocus={() => void props.refreshColleagues()}
              onChange={(e) => setTransferTo(e.target.value)}
            >
              <option value="">请选择</option>
              <optgroup label="坐席">
                {props.colleagues.map((c) => (
                  <option key={c.agentId} value={c.agentId}>
                    {c.name}（{labelOf(AGENT_STATES, c.state)}）
                  </option>
                ))}
              </optgroup>
              <optgroup label="队列">
                <option value={agent.queueName}>{agent.queueName}</option>
              </optgroup>
            </select>
            <button
              type="button"
              className="p-button p-button-outlined p-button-sm"
              disabled={!transferTo}
              onClick={() => void transfer(transferTo === agent.queueName ? "queue" : "agent")}
            >
              转接
            </button>
            <button
              type="button"
              className="p-button p-button-outlined p-button-sm"
              disabled={!transferTo || transferTo === agent.queueName}
              onClick={() => act("consult", { agentId: transferTo })}
            >
              咨询
            </button>
          </fieldset>
        </div>
      </div>
      {showKeypad && agent.state === "TALKING" ? (
        <div className="sb-phonebar-actions">
          <div className="sb-keypad" role="group" aria-label="拨号盘">
            {["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"].map((digit) => (
              <button key={digit} type="button" className="p-button p-button-outlined p-button-sm" onClick={() => sendDigit(digit)}>
                {digit}
              </button>
            ))}
          </div>
          <output aria-live="polite">{call?.dtmf ? `已发送按键：${call.dtmf}` : "尚未发送按键"}</output>
        </div>
      ) : null}
      {call?.consult ? <ConsultPanel consult={call.consult} act={act} /> : null}
      {transferred && agent.state === "ACW" && call?.ctiCallId === transferred.ctiCallId ? (
        <span role="status">{transferred.text}</span>
      ) : null}
      {error ? (
        <p className="sb-phonebar-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** What the strip says when no call is offered or on. */
const IDLE_HINTS: Partial<Record<PhoneSnapshot["agent"]["state"], string>> = {
  SIGNED_OUT: "签入后开始接听来电",
  NOT_READY: "就绪后即可接听来电",
  READY: "已就绪，来电将在此显示",
  ACW: "话后整理：请填写并保存通话结论",
};

/** mm:ss of a call in progress. */
const clock = (ms: number) => {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
};

const CONSULT_STATE_LABELS = { ringing: "振铃中", talking: "通话中", conference: "三方通话中" } as const;

/**
 * A consultation in progress. The asking agent (customer on hold) hands the customer over, brings
 * all three together, or takes the customer back; the consulted colleague sees who asks.
 */
function ConsultPanel({ consult, act }: { consult: NonNullable<PhoneSnapshot["call"]>["consult"] & object; act: Act }) {
  const state = CONSULT_STATE_LABELS[consult.state];
  if (!consult.asking) {
    return (
      <p className="sb-phonebar-actions" role="status">
        {consult.state === "conference"
          ? `与 ${consult.colleague} 及客户三方通话中`
          : `${consult.colleague} 的咨询（${state}），挂机即结束咨询`}
      </p>
    );
  }
  const answered = consult.state !== "ringing";
  return (
    <div className="sb-phonebar-actions" role="group" aria-label="咨询">
      <span role="status">
        咨询 {consult.colleague}：{state}
        {consult.state === "conference" ? "（挂机后由对方继续通话）" : "（客户保持中）"}
      </span>
      <button type="button" className="p-button p-button-sm" disabled={!answered} onClick={() => act("consultStep", { step: "transfer" })}>
        完成转接
      </button>
      {consult.state === "talking" ? (
        <button type="button" className="p-button p-button-outlined p-button-sm" onClick={() => act("consultStep", { step: "conference" })}>
          三方通话
        </button>
      ) : null}
      {consult.state !== "conference" ? (
        <button type="button" className="p-button p-button-text p-button-sm" onClick={() => act("consultStep", { step: "cancel" })}>
          结束咨询
        </button>
      ) : null}
    </div>
  );
}
