import { useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { canDo, isIdle } from "#contracts/agent-state";
import { AsrEventSchema, CTI_EVENTS, PhoneSnapshotSchema, type AsrEntry, type PhoneSnapshot } from "#contracts/cti";
import type { RealtimeNotification } from "#contracts/events";
import { SupervisorNoticeSchema, type SupervisorNotice } from "#contracts/monitor";
import { SupervisorNoticeBanner } from "#app/components/supervisor-notice";
import { useNonce } from "#app/lib/nonce";
import { laterPhone } from "#app/lib/phone-snapshot";
import { postAction, readJson } from "#app/client/island";
import { softphone, SOFTPHONE_SCRIPTS } from "#app/client/softphone";
import { useSoftphoneMedia } from "#app/client/softphone-media";
import { useEventStream } from "#app/client/use-event-stream";
import { ConfirmDialog } from "#app/components/confirm-dialog";
import { ConclusionForm, OutboxPanel, hasUnsavedConclusion, sharedOutbox } from "./conclusion";
import { KnowledgeLookup, TodayCalls } from "./panels";
import { PhoneBar } from "./phone-bar";
import { ScreenPop } from "./screen-pop";
import { SmsCard } from "./sms-card";
import { PHONE_ENDPOINT, type WorkbenchData } from "./types";
import type { PhoneActionResult } from "./workbench.server";

type Panels = Pick<WorkbenchData, "pop" | "today" | "satisfaction" | "needCall" | "colleagues">;

const TABS = [
  { key: "business", label: "业务处理" },
  { key: "history", label: "今日通话" },
  { key: "knowledge", label: "知识库" },
] as const;

/** The voice workbench (workBench, workBench/ty): phone bar, screen pop, conclusion, panels. */
export function VoiceWorkbench({ title }: { title: string }) {
  const data = useLoaderData<WorkbenchData>();
  const csrf = useAuthenticityToken();
  const nonce = useNonce();
  const [phone, setPhone] = useState<PhoneSnapshot>(data.phone);
  const [panels, setPanels] = useState<Panels>(data);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [supervisorNotice, setSupervisorNotice] = useState<SupervisorNotice | null>(null);
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
    const fresh = await readJson<Panels & { phone: PhoneSnapshot }>(PHONE_ENDPOINT);
    if (fresh) setPanels(fresh);
  }, []);

  const refreshColleagues = useCallback(async () => {
    const fresh = await readJson<Pick<Panels, "colleagues">>(PHONE_ENDPOINT, { colleagues: "1" });
    if (fresh) setPanels((current) => ({ ...current, colleagues: fresh.colleagues }));
  }, []);

  const onEvent = useCallback((event: RealtimeNotification) => {
    if (event.type === CTI_EVENTS.state) {
      const parsed = PhoneSnapshotSchema.safeParse(event.payload);
      if (parsed.success) setPhone((current) => laterPhone(current, parsed.data));
    } else if (event.type === CTI_EVENTS.asr) {
      const parsed = AsrEventSchema.safeParse(event.payload);
      if (parsed.success) setPhone((current) => withAsr(current, parsed.data.ctiCallId, parsed.data.entry));
    } else if (event.type === CTI_EVENTS.supervisor) {
      const parsed = SupervisorNoticeSchema.safeParse(event.payload);
      if (parsed.success) setSupervisorNotice(parsed.data);
    }
  }, []);
  const stream = useEventStream("/workBench/events", data.startId, onEvent);

  // Real audio when the platform has SIP servers: the softphone follows the phone state.
  const media = useSoftphoneMedia(PHONE_ENDPOINT, phone);
  const state = phone.agent.state;
  const call = phone.call;
  // A new call: load its screen pop; keep it as the call to conclude, across reloads too.
  // Keyed on the call's id only (the snapshot object changes with every phone event), reading the
  // rest as it is when the call changes.
  const latest = useRef({ call, popCallId: panels.pop?.ctiCallId, refresh, csrf });
  latest.current = { call, popCallId: panels.pop?.ctiCallId, refresh, csrf };
  const callId = call?.ctiCallId;
  useEffect(() => {
    const { call, popCallId, refresh, csrf } = latest.current;
    const outbox = sharedOutbox(csrf);
    if (!call) {
      setFormCall((current) => current ?? outbox.openCall());
      return;
    }
    const opened = { ctiCallId: call.ctiCallId, phone: call.phone };
    if (!outbox.items().some((i) => i.payload.ctiCallId === call.ctiCallId)) outbox.open(opened);
    setFormCall((current) => (current?.ctiCallId === call.ctiCallId ? current : opened));
    if (popCallId !== call.ctiCallId) void refresh();
  }, [callId]);
  // A call ended (or never connected): today's calls and satisfaction changed.
  useEffect(() => {
    if (isIdle(state)) void refresh();
  }, [state, refresh]);
  useEffect(() => {
    softphone().ring(state === "RINGING" && call?.origin !== "manual");
    return () => softphone().ring(false);
  }, [state, call?.origin]);

  const act = useCallback(
    async (intent: string, fields: Record<string, unknown> = {}) => {
      setError(null);
      const answer = await postAction<PhoneActionResult>(PHONE_ENDPOINT, csrf, intent, fields);
      if (!answer.ok) {
        setError(answer.error);
        return false;
      }
      const snapshot = PhoneSnapshotSchema.safeParse((answer.result as { phone?: unknown }).phone);
      if (snapshot.success) setPhone((current) => laterPhone(current, snapshot.data));
      return true;
    },
    [csrf],
  );

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
  // Alt+H with a conclusion typed but not saved asks first (the button itself does not).
  const [confirmHangup, setConfirmHangup] = useState(false);
  const callIdRef = useRef(callId);
  callIdRef.current = callId;
  useEffect(
    () =>
      softphone().on("shortcut", ({ action }) => {
        if (!canRef.current[action]) return;
        if (action === "hangup" && hasUnsavedConclusion(sharedOutbox(csrf), callIdRef.current)) setConfirmHangup(true);
        else if (action === "answer" || action === "hangup") void act("call", { action });
        else if (action === "ready") void act("state", { command: "ready" });
        else void act("notReady", { reason: reasonRef.current });
      }),
    [act, csrf],
  );

  return (
    <section className="sb-screen" aria-labelledby="screen-title">
      {SOFTPHONE_SCRIPTS.map((src) => (
        // Deferred: they still run in order before hydration, without holding back the page below.
        <script key={src} src={src} nonce={nonce} defer suppressHydrationWarning />
      ))}
      <header className="sb-screen-header">
        <h1 id="screen-title">{title}</h1>
      </header>
      <PhoneBar
        phone={phone}
        stream={stream}
        can={can}
        act={act}
        reason={reason}
        setReason={setReason}
        error={error}
        colleagues={panels.colleagues}
        refreshColleagues={refreshColleagues}
        sendTone={media.dtmf}
      />
      <audio ref={media.audio} autoPlay hidden data-testid="softphone-audio" />
      {media.status?.problem ? (
        <p className="sb-phonebar-error" role="alert">
          {media.status.problem}
        </p>
      ) : null}
      <SupervisorNoticeBanner notice={supervisorNotice} onDismiss={() => setSupervisorNotice(null)} />
      <ConfirmDialog
        open={confirmHangup}
        title="挂断通话"
        confirmLabel="挂断"
        onConfirm={() => {
          setConfirmHangup(false);
          if (canRef.current.hangup) void act("call", { action: "hangup" });
        }}
        onCancel={() => setConfirmHangup(false)}
      >
        <p>通话结论已填写但尚未保存。确定挂断吗？</p>
      </ConfirmDialog>
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
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-selected={tab === t.key}
            className={`p-button ${tab === t.key ? "" : "p-button-outlined"} p-button-sm`}
            onClick={() => setTab(t.key)}
          >
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
              {hydrated && formCall ? <SmsCard key={formCall.ctiCallId} call={formCall} /> : null}
              <section className="sb-wb-card" aria-label="今日概况">
                <h2>今日概况</h2>
                <dl>
                  <dt>今日通话</dt>
                  <dd>{panels.satisfaction.calls}</dd>
                  <dt>满意度</dt>
                  <dd>
                    {panels.satisfaction.rated
                      ? `${Math.round((panels.satisfaction.satisfied / panels.satisfaction.rated) * 100)}%（${panels.satisfaction.rated}条评价）`
                      : "暂无评价"}
                  </dd>
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
