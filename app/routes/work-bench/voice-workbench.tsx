import { useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { canDo, isIdle } from "../../../contracts/agent-state";
import {
  AGENT_STATES,
  CALL_RESULTS,
  DIALOG_ROLES,
  CUSTOMER_ROLE,
  GENDERS,
  INTENT_LABELS,
  NOT_READY_REASONS,
  labelOf,
  toneOf,
} from "../../../contracts/codes";
import { AsrEventSchema, CTI_EVENTS, ConsultEventSchema, DIALABLE_PHONE, PhoneSnapshotSchema, type AsrEntry, type PhoneSnapshot } from "../../../contracts/cti";
import type { AgentEvent } from "../../../contracts/events";
import { BUSINESS_FIELDS } from "../../../contracts/workbench";
import { createOutbox, OUTBOX_STATE_LABELS, type ConclusionDraft, type Outbox, type OutboxItem, type SendResult } from "../../lib/conclusion-outbox";
import { softphone, SOFTPHONE_SCRIPTS } from "../../lib/softphone";
import { STREAM_STATUS_LABELS, useEventStream } from "../../lib/use-event-stream";
import { useNonce } from "../../lib/nonce";
import { maskPhone } from "../../lib/phone";
import type { loadWorkbench } from "./workbench.server";

type Data = Awaited<ReturnType<typeof loadWorkbench>>;
type Panels = Pick<Data, "pop" | "today" | "satisfaction" | "needCall" | "colleagues">;

const ORIGIN_LABELS = { inbound: "呼入", manual: "外呼", handoff: "机器人转人工" } as const;
const TABS = [
  { key: "business", label: "业务处理" },
  { key: "history", label: "今日通话" },
  { key: "knowledge", label: "知识库" },
] as const;

const seconds = (ms: number) => `${Math.floor(ms / 60_000)}分${Math.round((ms % 60_000) / 1000)}秒`;

/** Sends one queued conclusion through the SDK and says whether to retry. */
async function sendConclusion(item: OutboxItem): Promise<SendResult> {
  const { ctiCallId, phone, callResult, intent, remark, fields } = item.draft;
  const answer = await softphone().act("conclusion", { ctiCallId, phone, callResult, intentLabel: intent, remark, fields, idempotencyKey: item.key });
  if (answer.ok) return { kind: "saved" };
  const message = answer.body?.message ?? (answer.status === 0 ? "网络已断开，恢复后自动重试" : "保存失败，稍后自动重试");
  return answer.status === 400 ? { kind: "refused", message } : { kind: "retry", message };
}

export function VoiceWorkbench({ title }: { title: string }) {
  const data = useLoaderData<Data>();
  const csrf = useAuthenticityToken();
  const nonce = useNonce();
  const [phone, setPhone] = useState<PhoneSnapshot>(data.phone);
  const [panels, setPanels] = useState<Panels>(data);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tab, setTab] = useState<(typeof TABS)[number]["key"]>("business");
  const [reason, setReason] = useState("BREAK");
  /** The call whose conclusion is being written: the current one, or the last until it is submitted. */
  const [formCall, setFormCall] = useState(data.phone.call ? { ctiCallId: data.phone.call.ctiCallId, phone: data.phone.call.phone } : null);
  // The conclusion form and outbox live in the browser's storage: rendered once hydrated.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
  }, []);

  const refresh = useCallback(async () => {
    const fresh = (await softphone().read()) as (Panels & { phone: PhoneSnapshot }) | null;
    if (fresh) setPanels(fresh);
  }, []);

  const onEvent = useCallback((event: AgentEvent) => {
    if (event.type === CTI_EVENTS.state) {
      const parsed = PhoneSnapshotSchema.safeParse(event.payload);
      if (parsed.success) setPhone(parsed.data);
    } else if (event.type === CTI_EVENTS.asr) {
      const parsed = AsrEventSchema.safeParse(event.payload);
      if (parsed.success) setPhone((current) => withAsr(current, parsed.data.ctiCallId, parsed.data.entry));
    } else if (event.type === CTI_EVENTS.consult) {
      const parsed = ConsultEventSchema.safeParse(event.payload);
      if (parsed.success) setNotice(`${parsed.data.fromAgent} 请求咨询（来电 ${maskPhone(parsed.data.phone)}）`);
    }
  }, []);
  const stream = useEventStream("/workBench/events", data.startId, onEvent);

  const state = phone.agent.state;
  const call = phone.call;
  useEffect(() => {
    softphone().configure({ endpoint: "/workBench/phone", csrf });
  }, [csrf]);
  // A new call: load its screen pop; keep it as the call to conclude, across reloads too.
  useEffect(() => {
    const outbox = sharedOutbox();
    if (!call) {
      setFormCall((current) => current ?? outbox.openCall());
      return;
    }
    const opened = { ctiCallId: call.ctiCallId, phone: call.phone };
    if (!outbox.items().some((i) => i.draft.ctiCallId === call.ctiCallId)) outbox.open(opened);
    setFormCall((current) => (current?.ctiCallId === call.ctiCallId ? current : opened));
    if (panels.pop?.ctiCallId !== call.ctiCallId) void refresh();
  }, [call?.ctiCallId]); // eslint-disable-line react-hooks/exhaustive-deps
  // A call ended (or never connected): today's calls and satisfaction changed.
  useEffect(() => {
    if (isIdle(state)) void refresh();
  }, [state, refresh]);
  useEffect(() => {
    softphone().ring(state === "RINGING" && call?.origin !== "manual");
    return () => softphone().ring(false);
  }, [state, call?.origin]);

  const act = useCallback(async (intent: string, fields: Record<string, unknown> = {}) => {
    setError(null);
    const answer = await softphone().act(intent, fields);
    if (!answer.ok) {
      setError(answer.body?.message ?? (answer.status === 0 ? "网络已断开，操作未发送" : "操作失败"));
      return false;
    }
    const snapshot = PhoneSnapshotSchema.safeParse(answer.body?.phone);
    if (snapshot.success) setPhone(snapshot.data);
    return true;
  }, []);

  const can = {
    answer: state === "RINGING" && call?.origin !== "manual",
    hangup: state === "RINGING" || state === "TALKING" || state === "HOLD",
    ready: canDo(state, "ready"),
    notReady: canDo(state, "notReady"),
  };
  const canRef = useRef(can);
  canRef.current = can;
  const reasonRef = useRef(reason);
  reasonRef.current = reason;
  useEffect(() => {
    const onShortcut = (event: Event) => {
      const action = (event as CustomEvent<{ action: keyof typeof can }>).detail.action;
      if (!canRef.current[action]) return;
      if (action === "answer" || action === "hangup") void act("call", { action });
      else if (action === "ready") void act("state", { command: "ready" });
      else void act("notReady", { reason: reasonRef.current });
    };
    window.addEventListener("softphone:shortcut", onShortcut);
    return () => window.removeEventListener("softphone:shortcut", onShortcut);
  }, [act]);

  return (
    <section className="sb-screen" aria-labelledby="screen-title">
      {SOFTPHONE_SCRIPTS.map((src) => (
        <script key={src} src={src} nonce={nonce} suppressHydrationWarning />
      ))}
      <header className="sb-screen-header">
        <h1 id="screen-title">{title}</h1>
      </header>
      <PhoneBar phone={phone} stream={stream} can={can} act={act} reason={reason} setReason={setReason} error={error} colleagues={panels.colleagues} />
      {notice ? (
        <p className="p-message p-message-info" role="status">
          {notice}{" "}
          <button type="button" className="p-button p-button-text p-button-sm" onClick={() => setNotice(null)}>
            知道了
          </button>
        </p>
      ) : null}
      <div className="p-tabview-nav" role="tablist" aria-label="工作台">
        {TABS.map((t) => (
          <button key={t.key} type="button" role="tab" id={`tab-${t.key}`} aria-selected={tab === t.key} className={`p-button ${tab === t.key ? "" : "p-button-outlined"} p-button-sm`} onClick={() => setTab(t.key)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-labelledby={`tab-${tab}`} style={{ marginTop: "1rem" }}>
        {tab === "business" ? (
          <div className="sb-wb-grid">
            <div>
              <ScreenPop phone={phone} pop={panels.pop} />
            </div>
            <div>
              {!hydrated ? null : formCall ? (
                <ConclusionForm key={formCall.ctiCallId} call={formCall} onSubmitted={() => !call && setFormCall(null)} />
              ) : (
                <OutboxPanel />
              )}
              <section className="sb-wb-card" aria-label="今日概况">
                <h2>今日概况</h2>
                <dl>
                  <dt>今日通话</dt>
                  <dd>{panels.satisfaction.calls}</dd>
                  <dt>满意度</dt>
                  <dd>{panels.satisfaction.rated ? `${Math.round((panels.satisfaction.satisfied / panels.satisfaction.rated) * 100)}%（${panels.satisfaction.rated}条评价）` : "暂无评价"}</dd>
                  <dt>待外呼</dt>
                  <dd>{panels.needCall}</dd>
                </dl>
              </section>
            </div>
          </div>
        ) : tab === "history" ? (
          <TodayCalls calls={panels.today} />
        ) : (
          <KnowledgeLookup />
        )}
      </div>
    </section>
  );
}

function withAsr(phone: PhoneSnapshot, ctiCallId: string, entry: AsrEntry): PhoneSnapshot {
  if (!phone.call || phone.call.ctiCallId !== ctiCallId || phone.call.transcript.some((l) => l.segmentId === entry.segmentId)) return phone;
  return { ...phone, call: { ...phone.call, transcript: [...phone.call.transcript, entry] } };
}

function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

type Act = (intent: string, fields?: Record<string, unknown>) => Promise<boolean>;

function PhoneBar(props: {
  phone: PhoneSnapshot;
  stream: keyof typeof STREAM_STATUS_LABELS;
  can: Record<"answer" | "hangup" | "ready" | "notReady", boolean>;
  act: Act;
  reason: string;
  setReason: (reason: string) => void;
  error: string | null;
  colleagues: Data["colleagues"];
}) {
  const { phone, stream, can, act, reason, setReason, error } = props;
  const { agent, call } = phone;
  const now = useNow(agent.state === "ACW");
  // The countdown runs on the browser's clock from the period's length, so clock skew does not matter.
  const acwEnd = useMemo(
    () => (agent.acwEndsAt ? Date.now() + Date.parse(agent.acwEndsAt) - Date.parse(agent.since) : null),
    [agent.acwEndsAt, agent.since],
  );
  const [dialNumber, setDialNumber] = useState("");
  const [transferTo, setTransferTo] = useState("");
  const [showKeypad, setShowKeypad] = useState(false);
  const shortcuts = { answer: "Alt+A", hangup: "Alt+H", ready: "Alt+R", notReady: "Alt+N" };
  const inCall = agent.state === "TALKING" || agent.state === "HOLD";
  const dialValid = DIALABLE_PHONE.test(dialNumber.trim());

  const dial = (event: FormEvent) => {
    event.preventDefault();
    if (dialValid) void act("dial", { phone: dialNumber.trim() });
  };
  const transfer = (kind: "agent" | "queue") => {
    if (!transferTo) return;
    void act("transfer", { target: kind, to: transferTo });
  };

  return (
    <section className={`sb-phonebar ${agent.state === "RINGING" ? "sb-ringing" : ""}`} aria-label="电话条">
      <div className="sb-phonebar-state" role="status" aria-live="polite" data-testid="agent-state">
        <span className={`sb-phonebar-dot sb-phonebar-dot--${toneOf(AGENT_STATES, agent.state)}`} aria-hidden="true" />
        <span>{labelOf(AGENT_STATES, agent.state)}</span>
        {agent.state === "NOT_READY" && agent.reason ? <span>（{labelOf(NOT_READY_REASONS, agent.reason)}）</span> : null}
        {agent.state === "ACW" && acwEnd ? <span data-testid="acw-countdown">剩余 {Math.max(0, Math.ceil((acwEnd - now) / 1000))} 秒</span> : null}
        {agent.muted ? <span>（已静音）</span> : null}
      </div>
      {call && agent.state === "RINGING" ? (
        <span>
          {call.origin === "manual" ? "正在呼叫" : "来电"} {maskPhone(call.phone)}（{ORIGIN_LABELS[call.origin]}）
        </span>
      ) : null}
      <div className="sb-phonebar-actions">
        {agent.state === "SIGNED_OUT" ? (
          <button type="button" className="p-button p-button-sm" onClick={() => act("state", { command: "signIn" })}>
            签入
          </button>
        ) : null}
        <button type="button" className="p-button p-button-success p-button-sm" disabled={!can.answer} aria-keyshortcuts={shortcuts.answer} onClick={() => act("call", { action: "answer" })}>
          接听<kbd>{shortcuts.answer}</kbd>
        </button>
        <button type="button" className="p-button p-button-danger p-button-sm" disabled={!can.hangup} aria-keyshortcuts={shortcuts.hangup} onClick={() => act("call", { action: "hangup" })}>
          挂机<kbd>{shortcuts.hangup}</kbd>
        </button>
        <button type="button" className="p-button p-button-sm" disabled={!can.ready} aria-keyshortcuts={shortcuts.ready} onClick={() => act("state", { command: "ready" })}>
          就绪<kbd>{shortcuts.ready}</kbd>
        </button>
        <label className="p-sr-only" htmlFor="not-ready-reason">
          未就绪原因
        </label>
        <select id="not-ready-reason" className="p-inputtext p-component p-inputtext-sm" value={reason} onChange={(e) => setReason(e.target.value)}>
          {NOT_READY_REASONS.map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </select>
        <button type="button" className="p-button p-button-warning p-button-sm" disabled={!can.notReady} aria-keyshortcuts={shortcuts.notReady} onClick={() => act("notReady", { reason })}>
          未就绪<kbd>{shortcuts.notReady}</kbd>
        </button>
        <button type="button" className="p-button p-button-outlined p-button-sm" disabled={!inCall} onClick={() => act("call", { action: agent.state === "HOLD" ? "resume" : "hold" })}>
          {agent.state === "HOLD" ? "恢复" : "保持"}
        </button>
        <button type="button" className="p-button p-button-outlined p-button-sm" disabled={agent.state !== "TALKING"} onClick={() => act("call", { action: agent.muted ? "unmute" : "mute" })}>
          {agent.muted ? "取消静音" : "静音"}
        </button>
        <button type="button" className="p-button p-button-outlined p-button-sm" disabled={agent.state !== "TALKING"} aria-expanded={showKeypad} onClick={() => setShowKeypad(!showKeypad)}>
          拨号盘
        </button>
        {agent.state !== "SIGNED_OUT" && !call ? (
          <button type="button" className="p-button p-button-text p-button-sm" onClick={() => act("state", { command: "signOut" })}>
            签出
          </button>
        ) : null}
      </div>
      <div className={`sb-phonebar-link sb-phonebar-link--${stream}`} role="status" data-testid="connection">
        <span className="sb-phonebar-dot" aria-hidden="true" />
        {STREAM_STATUS_LABELS[stream]}
      </div>
      {showKeypad && agent.state === "TALKING" ? (
        <div className="sb-keypad" role="group" aria-label="拨号盘">
          {["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"].map((digit) => (
            <button
              key={digit}
              type="button"
              className="p-button p-button-outlined p-button-sm"
              onClick={() => {
                softphone().tone(digit);
                void act("dtmf", { digits: digit });
              }}
            >
              {digit}
            </button>
          ))}
        </div>
      ) : null}
      <form className="sb-phonebar-actions" onSubmit={dial} noValidate>
        <label htmlFor="dial-number">外呼号码</label>
        <input
          id="dial-number"
          className="p-inputtext p-component p-inputtext-sm"
          inputMode="tel"
          value={dialNumber}
          aria-invalid={dialNumber !== "" && !dialValid}
          aria-describedby="dial-hint"
          onChange={(e) => setDialNumber(e.target.value)}
        />
        <button type="submit" className="p-button p-button-sm" disabled={!dialValid || !["READY", "NOT_READY", "ACW"].includes(agent.state)}>
          呼叫
        </button>
        <small id="dial-hint">{dialNumber !== "" && !dialValid ? "请输入正确的电话号码" : "手机号或带区号的固话"}</small>
      </form>
      {inCall ? (
        <div className="sb-phonebar-actions">
          <label htmlFor="transfer-to">转接/咨询目标</label>
          <select id="transfer-to" className="p-inputtext p-component p-inputtext-sm" value={transferTo} onChange={(e) => setTransferTo(e.target.value)}>
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
          <button type="button" className="p-button p-button-outlined p-button-sm" disabled={!transferTo} onClick={() => transfer(transferTo === agent.queueName ? "queue" : "agent")}>
            转接
          </button>
          <button type="button" className="p-button p-button-outlined p-button-sm" disabled={!transferTo || transferTo === agent.queueName} onClick={() => act("consult", { agentId: transferTo })}>
            咨询
          </button>
          {call?.consultAgent ? <span>已咨询：{call.consultAgent}</span> : null}
        </div>
      ) : null}
      <label className="sb-phonebar-actions">
        <input type="checkbox" checked={agent.autoAnswer} onChange={(e) => act("autoAnswer", { autoAnswer: String(e.target.checked) })} />
        自动接听
      </label>
      {error ? (
        <p className="sb-phonebar-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function ScreenPop({ phone, pop }: { phone: PhoneSnapshot; pop: Data["pop"] }) {
  const call = phone.call;
  const transcriptEnd = useRef<HTMLLIElement>(null);
  // A block body: newer browsers return a promise from scrollIntoView, which must not become the cleanup.
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: "nearest" });
  }, [call?.transcript.length]);
  if (!call) {
    return (
      <section className="sb-wb-card" aria-label="来电信息">
        <h2>来电信息</h2>
        <p>{phone.agent.state === "READY" ? "等待来电…" : "就绪后即可接听来电"}</p>
      </section>
    );
  }
  const current = pop?.ctiCallId === call.ctiCallId ? pop : null;
  const contact = current?.contact;
  return (
    <>
      <section className="sb-wb-card" aria-label="客户信息">
        <h2>客户信息</h2>
        <dl>
          <dt>客户</dt>
          <dd data-testid="customer-name">{contact?.name ?? (current ? "未知客户" : "加载中…")}</dd>
          <dt>电话</dt>
          <dd>{maskPhone(call.phone)}</dd>
          <dt>来源</dt>
          <dd>{ORIGIN_LABELS[call.origin]}</dd>
          {contact ? (
            <>
              <dt>性别</dt>
              <dd>{labelOf(GENDERS, contact.gender)}</dd>
              <dt>公司</dt>
              <dd>{contact.company ?? "—"}</dd>
              <dt>标签</dt>
              <dd>{contact.tags.join("、") || "—"}</dd>
              <dt>备注</dt>
              <dd>{contact.remark ?? "—"}</dd>
            </>
          ) : null}
          {current?.campaign ? (
            <>
              <dt>外呼活动</dt>
              <dd>{current.campaign.name}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="sb-wb-card" aria-label="对话记录">
        <h2>对话记录</h2>
        {call.transcript.length === 0 ? (
          <p>暂无对话</p>
        ) : (
          <ol className="sb-transcript">
            {call.transcript.map((line) => (
              <li key={line.segmentId} className={line.thisRole === CUSTOMER_ROLE ? "sb-transcript-customer" : undefined}>
                <small>{labelOf(DIALOG_ROLES, line.thisRole)}</small>
                {line.dialogContent}
              </li>
            ))}
            <li ref={transcriptEnd} hidden />
          </ol>
        )}
      </section>
      {current?.flow ? (
        <section className="sb-wb-card" aria-label="服务话术">
          <h2>服务话术 · {current.flow.flowName}</h2>
          <ol>
            {current.flow.steps.map((step) => (
              <li key={step.title}>
                <strong>{step.title}</strong>：{step.content}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {current?.previous ? (
        <section className="sb-wb-card" aria-label="上次业务记录">
          <h2>上次业务记录</h2>
          <dl>
            <dt>通话结果</dt>
            <dd>{labelOf(CALL_RESULTS, current.previous.callResult)}</dd>
            <dt>意向</dt>
            <dd>{current.previous.intent ? labelOf(INTENT_LABELS, current.previous.intent) : "—"}</dd>
            <dt>备注</dt>
            <dd>{current.previous.remark || "—"}</dd>
            <dt>处理坐席</dt>
            <dd>{current.previous.agentName}</dd>
            <dt>时间</dt>
            <dd>{new Date(current.previous.createdAt).toLocaleString("zh-CN")}</dd>
          </dl>
        </section>
      ) : null}
      {current?.workOrder ? (
        <section className="sb-wb-card" aria-label="关联工单">
          <h2>关联工单 · {current.workOrder.number}</h2>
          <p>
            <strong>{current.workOrder.title}</strong>
          </p>
          <p>{current.workOrder.content}</p>
        </section>
      ) : null}
    </>
  );
}

/** One outbox per page (browser only), shared by the form and the status list. */
let pageOutbox: Outbox | null = null;
function sharedOutbox(): Outbox {
  pageOutbox ??= createOutbox({ storage: window.localStorage, send: sendConclusion, newKey: () => crypto.randomUUID() });
  return pageOutbox;
}
function useOutbox(): [Outbox, OutboxItem[]] {
  const outbox = useMemo(sharedOutbox, []);
  const [items, setItems] = useState(outbox.items());
  useEffect(() => {
    const unsubscribe = outbox.subscribe(setItems);
    const timer = setInterval(() => void outbox.flush(), 2_000);
    const online = () => void outbox.flush(true);
    window.addEventListener("online", online);
    void outbox.flush();
    return () => {
      unsubscribe();
      clearInterval(timer);
      window.removeEventListener("online", online);
    };
  }, [outbox]);
  return [outbox, items];
}

function OutboxPanel() {
  const [, items] = useOutbox();
  if (items.length === 0) return null;
  return (
    <section className="sb-wb-card" aria-label="结论发送状态">
      <h2>结论发送状态</h2>
      <ul className="sb-outbox" data-testid="outbox">
        {items
          .slice()
          .reverse()
          .slice(0, 5)
          .map((item) => (
            <li key={item.key} className={`sb-outbox-${item.state === "saved" ? "saved" : item.state === "failed" ? "failed" : "pending"}`}>
              <span>{maskPhone(item.draft.phone)}</span>
              <span>{OUTBOX_STATE_LABELS[item.state]}</span>
              {item.error && item.state !== "saved" ? <span>{item.error}</span> : null}
            </li>
          ))}
      </ul>
    </section>
  );
}

function ConclusionForm({ call, onSubmitted }: { call: { ctiCallId: string; phone: string }; onSubmitted: () => void }) {
  const [outbox, items] = useOutbox();
  const empty: ConclusionDraft = { ctiCallId: call.ctiCallId, phone: call.phone, callResult: "", intent: "", remark: "", fields: {} };
  const [draft, setDraft] = useState<ConclusionDraft>(() => outbox.loadDraft(call.ctiCallId) ?? empty);
  const [problem, setProblem] = useState<string | null>(null);
  const submitted = items.some((i) => i.draft.ctiCallId === call.ctiCallId && i.state !== "failed");
  const change = (patch: Partial<ConclusionDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    outbox.saveDraft(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.callResult === "") return setProblem("请选择通话结果");
    setProblem(null);
    outbox.submit(draft);
    void outbox.flush(true);
    onSubmitted();
  };
  return (
    <>
      <form className="sb-wb-card" aria-label="通话结论" onSubmit={submit} noValidate>
        <h2>通话结论</h2>
        <fieldset className="sb-form-row" style={{ border: 0, padding: 0 }} disabled={submitted}>
          <legend>通话结果</legend>
          <div style={{ display: "flex", gap: "1rem" }}>
            {CALL_RESULTS.map((r) => (
              <label key={r.code}>
                <input type="radio" name="callResult" value={r.code} checked={draft.callResult === String(r.code)} onChange={() => change({ callResult: String(r.code) })} /> {r.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="sb-form-row">
          <label htmlFor="intent-label">意向标签</label>
          <select id="intent-label" className="p-inputtext p-component" value={draft.intent} disabled={submitted} onChange={(e) => change({ intent: e.target.value })}>
            <option value="">未选择</option>
            {INTENT_LABELS.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        {BUSINESS_FIELDS.map((field) => (
          <div className="sb-form-row" key={field.name}>
            <label htmlFor={`field-${field.name}`}>{field.label}</label>
            <input
              id={`field-${field.name}`}
              className="p-inputtext p-component"
              type={field.name === "callbackDate" ? "date" : "text"}
              maxLength={200}
              value={draft.fields[field.name] ?? ""}
              disabled={submitted}
              onChange={(e) => change({ fields: { ...draft.fields, [field.name]: e.target.value } })}
            />
          </div>
        ))}
        <div className="sb-form-row">
          <label htmlFor="conclusion-remark">备注</label>
          <textarea id="conclusion-remark" className="p-inputtextarea p-inputtext p-component" rows={3} maxLength={500} value={draft.remark} disabled={submitted} onChange={(e) => change({ remark: e.target.value })} />
        </div>
        {problem ? (
          <p className="sb-phonebar-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" className="p-button p-button-sm" disabled={submitted}>
          保存结论
        </button>
      </form>
      <OutboxPanel />
    </>
  );
}

function TodayCalls({ calls }: { calls: Data["today"] }) {
  if (calls.length === 0) return <p>今天还没有通话</p>;
  return (
    <div className="p-datatable p-component">
      <table className="p-datatable-table" aria-label="今日通话">
        <thead className="p-datatable-thead">
          <tr>
            <th>时间</th>
            <th>电话</th>
            <th>类型</th>
            <th>通话时长</th>
            <th>通话结果</th>
          </tr>
        </thead>
        <tbody className="p-datatable-tbody">
          {calls.map((c) => (
            <tr key={c.ctiCallId}>
              <td>{new Date(c.callTime).toLocaleTimeString("zh-CN")}</td>
              <td>{maskPhone(c.phone)}</td>
              <td>{ORIGIN_LABELS[c.origin]}</td>
              <td>{c.isAnswer ? seconds(c.callDuration) : "未接通"}</td>
              <td>{c.conclusion === null ? "未填写" : labelOf(CALL_RESULTS, c.conclusion)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KnowledgeLookup() {
  const [keyword, setKeyword] = useState("");
  const [nodes, setNodes] = useState<Array<{ id: number; title: string; content: string; groupName: string }> | null>(null);
  const search = async (event: FormEvent) => {
    event.preventDefault();
    const answer = (await softphone().read({ keyword })) as { knowledge?: typeof nodes } | null;
    setNodes(answer?.knowledge ?? []);
  };
  return (
    <section className="sb-wb-card" aria-label="知识库查询">
      <form onSubmit={search} className="sb-phonebar-actions">
        <label htmlFor="knowledge-keyword">关键词</label>
        <input id="knowledge-keyword" className="p-inputtext p-component p-inputtext-sm" value={keyword} maxLength={50} onChange={(e) => setKeyword(e.target.value)} />
        <button type="submit" className="p-button p-button-sm">
          查询
        </button>
      </form>
      {nodes === null ? null : nodes.length === 0 ? (
        <p>没有找到相关知识</p>
      ) : (
        <ul>
          {nodes.map((n) => (
            <li key={n.id}>
              <strong>{n.title}</strong>（{n.groupName}）：{n.content}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
