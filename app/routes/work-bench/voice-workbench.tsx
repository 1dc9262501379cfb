import { useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { canDo, isIdle } from "#contracts/agent-state";
import type { AsrEntry, AsrEvent, CallQualityReport, PhoneSnapshot } from "#contracts/cti";
import type { RealtimeNotification } from "#contracts/events";
import type { SupervisorNotice } from "#contracts/monitor";
import { CTI_EVENTS } from "#contracts/workbench-live";
import { SupervisorNoticeBanner } from "#app/components/supervisor-notice";
import { useNonce } from "#app/lib/nonce";
import { maskPhone } from "#app/lib/format";
import { laterPhone } from "#app/lib/phone-snapshot";
import { postAction, readJson } from "#app/client/island";
import { softphone, SOFTPHONE_SCRIPTS } from "#app/client/softphone";
import { useNotifyWhileHidden, useRingNotification } from "#app/client/ring-notification";
import { useSoftphoneMedia } from "#app/client/softphone-media";
import { useEventStream } from "#app/client/use-event-stream";
import { ConfirmDialog } from "#app/components/confirm-dialog";
import { ConclusionForms, callTitle, hasUnsavedConclusion, sharedOutbox, useCallsToConclude } from "./conclusion";
import { KnowledgeLookup, TodayCalls } from "./panels";
import { PhoneBar } from "./phone-bar";
import { ScreenPop } from "./screen-pop";
import { SoftphoneStatus } from "./softphone-status";
import { PHONE_ENDPOINT, type WorkbenchData } from "./types";
import type { PhoneActionResult } from "./workbench.server";

// Parts the browser shows only later (this tab owns the phone; a call to send an SMS about, whose
// card fetches its templates then anyway) load their code then, not with the workbench.
const DeviceDialog = lazy(() => import("./device-dialog").then((module) => ({ default: module.DeviceDialog })));
const NotificationOffer = lazy(() => import("./device-dialog").then((module) => ({ default: module.NotificationOffer })));
const PrecallTest = lazy(() => import("./precall-test").then((module) => ({ default: module.PrecallTest })));
const SmsCard = lazy(() => import("./sms-card").then((module) => ({ default: module.SmsCard })));

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
  // The result forms and outbox live in the browser's storage: rendered once hydrated.
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

  // Payloads come as the console checked them (events.ts): the island loads no schema.
  const onEvent = useCallback((event: RealtimeNotification) => {
    if (event.type === CTI_EVENTS.state) {
      const snapshot = event.payload as PhoneSnapshot;
      setPhone((current) => laterPhone(current, snapshot));
    } else if (event.type === CTI_EVENTS.asr) {
      const { ctiCallId, entry } = event.payload as AsrEvent;
      setPhone((current) => withAsr(current, ctiCallId, entry));
    } else if (event.type === CTI_EVENTS.supervisor) setSupervisorNotice(event.payload as SupervisorNotice);
  }, []);
  const stream = useEventStream("/workBench/events", data.startId, onEvent);

  // Real audio when the platform has SIP servers: the softphone follows the phone state.
  const media = useSoftphoneMedia(PHONE_ENDPOINT, phone);
  const state = phone.agent.state;
  const call = phone.call;
  // A new call: load its screen pop. Keyed on the call's id only (the snapshot object changes with
  // every phone event), reading the rest as it is when the call changes.
  const latest = useRef({ call, popCallId: panels.pop?.ctiCallId, refresh, csrf });
  latest.current = { call, popCallId: panels.pop?.ctiCallId, refresh, csrf };
  const callId = call?.ctiCallId;
  useEffect(() => {
    const { call, popCallId, refresh } = latest.current;
    if (call && popCallId !== call.ctiCallId) void refresh();
  }, [callId]);
  // A call that connected is the agent's to conclude once it is theirs (a colleague consulted on it
  // is not): its form opens, and stays, across reloads too, until its result is submitted.
  const ownsCall = Boolean(call?.answeredAt) && !(call?.consult && !call.consult.asking);
  useEffect(() => {
    const { call, csrf } = latest.current;
    if (!call || !ownsCall) return;
    sharedOutbox(csrf).open({ ctiCallId: call.ctiCallId, phone: call.phone, startedAt: call.startedAt, origin: call.origin });
  }, [callId, ownsCall]);
  const toConclude = useCallsToConclude();
  // A call ended (or never connected): today's calls and satisfaction changed.
  useEffect(() => {
    if (isIdle(state)) void refresh();
  }, [state, refresh]);
  // A call offered to the agent rings (unless they muted the ring, or another tab holds the phone)
  // and names itself in the tab's title.
  const offered = state === "RINGING" && call?.origin !== "manual";
  const [ringMuted, setRingMuted] = useRingMuted();
  const rings = offered && !ringMuted && media.owner !== "elsewhere";
  useEffect(() => {
    softphone().ring(rings);
    return () => softphone().ring(false);
  }, [rings]);
  // The ring plays on the agent's ringer; any first click or key press lets the page make sound
  // (a reload loses the 签入 click's permission).
  const ringElement = media.ring;
  useEffect(() => {
    if (ringElement.current) softphone().ringer(ringElement.current);
    const unlock = () => softphone().unlock();
    window.addEventListener("pointerdown", unlock, { once: true, capture: true });
    window.addEventListener("keydown", unlock, { once: true, capture: true });
    return () => {
      window.removeEventListener("pointerdown", unlock, { capture: true });
      window.removeEventListener("keydown", unlock, { capture: true });
    };
  }, [ringElement]);
  const ownsPhone = media.owner === "here";
  const notification = useRingNotification(phone.agent.agentId);
  const offeredPhone = offered ? call?.phone : undefined;
  useNotifyWhileHidden(offeredPhone && call ? { id: call.ctiCallId, title: `来电 ${maskPhone(offeredPhone)}` } : null, ownsPhone);
  useEffect(() => {
    if (!offeredPhone) return;
    const before = document.title;
    document.title = `【来电】${maskPhone(offeredPhone)} - ${before}`;
    return () => {
      document.title = before;
    };
  }, [offeredPhone]);

  const handingCallId = useRef(call?.ctiCallId);
  handingCallId.current = call?.ctiCallId;
  const act = useCallback(
    async (intent: string, fields: Record<string, unknown> = {}) => {
      setError(null);
      const answer = await postAction<PhoneActionResult>(PHONE_ENDPOINT, csrf, intent, fields);
      if (!answer.ok) {
        setError(answer.error);
        return false;
      }
      // The console answers the phone's new state as the platform's contract says it is.
      const snapshot = "phone" in answer.result ? answer.result.phone : undefined;
      if (snapshot) setPhone((current) => laterPhone(current, snapshot));
      // A call handed on (to a colleague or back to the queue) is concluded by whoever takes it.
      const handedOn = intent === "transfer" || (intent === "consultStep" && fields.step === "transfer");
      if (handedOn && handingCallId.current) sharedOutbox(csrf).forget(handingCallId.current);
      return true;
    },
    [csrf],
  );

  // Best effort: a report that fails leaves the call unmarked, and the agent need not know.
  const reportPoorCall = useCallback(
    (report: CallQualityReport) => void postAction(PHONE_ENDPOINT, csrf, "quality", { report: JSON.stringify(report) }),
    [csrf],
  );

  const live = state === "RINGING" || state === "TALKING" || state === "HOLD";
  const can = {
    answer: state === "RINGING" && call?.origin !== "manual",
    hangup: live,
    ready: canDo(state, "ready"),
    notReady: canDo(state, "notReady"),
  };
  const canRef = useRef(can);
  canRef.current = can;
  const reasonRef = useRef(reason);
  reasonRef.current = reason;
  // Alt+H with a conclusion typed but not saved asks first (the button itself does not).
  const [confirmHangup, setConfirmHangup] = useState(false);
  // Going ready with a result unsaved asks first: the next call would ring over it.
  const [confirmReady, setConfirmReady] = useState(false);
  const unsaved = useRef(toConclude);
  unsaved.current = toConclude;
  const goReady = useCallback(() => {
    if (unsaved.current.length > 0) setConfirmReady(true);
    else void act("state", { command: "ready" });
  }, [act]);
  const callIdRef = useRef(callId);
  callIdRef.current = callId;
  useEffect(
    () =>
      softphone().on("shortcut", ({ action }) => {
        if (!canRef.current[action]) return;
        if (action === "hangup" && hasUnsavedConclusion(sharedOutbox(csrf), callIdRef.current)) setConfirmHangup(true);
        else if (action === "answer" || action === "hangup") void act("call", { action });
        else if (action === "ready") goReady();
        else void act("notReady", { reason: reasonRef.current });
      }),
    [act, csrf, goReady],
  );

  // The SMS card serves the call on the phone, or else the latest call still to conclude.
  const smsCall = ownsCall && call ? call : toConclude.at(-1);

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
        goReady={goReady}
        hasResultToWrite={toConclude.length > 0}
        ringMuted={ringMuted}
        setRingMuted={setRingMuted}
        reason={reason}
        setReason={setReason}
        error={error}
        colleagues={panels.colleagues}
        refreshColleagues={refreshColleagues}
        sendTone={media.dtmf}
        devices={
          ownsPhone ? (
            <Suspense fallback={null}>
              <DeviceDialog devices={media.devices} notification={notification} />
              <PrecallTest
                state={state}
                csrf={csrf}
                sipPhone={media.sipPhone}
                microphone={media.devices.usable.microphone?.deviceId}
                speaker={media.devices.usable.speaker?.deviceId}
              />
            </Suspense>
          ) : null
        }
      />
      <audio ref={media.audio} autoPlay hidden data-testid="softphone-audio" />
      <audio ref={media.ring} hidden data-testid="softphone-ring" />
      {ownsPhone && state !== "SIGNED_OUT" ? (
        <Suspense fallback={null}>
          <NotificationOffer notification={notification} />
        </Suspense>
      ) : null}
      <SoftphoneStatus
        status={media.status}
        owner={media.owner}
        takeOver={media.takeOver}
        onCall={live}
        connection={media.connection}
        callId={callId}
        reportPoorCall={reportPoorCall}
        notices={media.devices.missing}
      />
      {media.mode === "simulated" ? (
        <p className="sb-softphone-activity" data-testid="precall-unavailable">
          通话测试不可用：当前为模拟语音（平台未配置语音服务器），没有真实的通话声音可测。
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
      <ConfirmDialog
        open={confirmReady}
        title="通话结论尚未保存"
        confirmLabel="仍然就绪"
        cancelLabel="继续填写"
        onConfirm={() => {
          setConfirmReady(false);
          if (canRef.current.ready) void act("state", { command: "ready" });
        }}
        onCancel={() => setConfirmReady(false)}
      >
        <p>以下通话的结论尚未保存：{toConclude.map(callTitle).join("；")}。</p>
        <p>就绪后新的来电会接入，未保存的结论仍保留在页面上，可稍后填写。</p>
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
          // No call on the line and a result to write: on a phone, the result forms come first.
          <div className={`sb-wb-grid${toConclude.length > 0 && !live ? " sb-wb-grid--concluding" : ""}`}>
            <div>
              <ScreenPop phone={phone} pop={panels.pop} />
            </div>
            <div>
              {hydrated ? (
                <ConclusionForms currentCallId={ownsCall ? callId : undefined} onCall={state === "TALKING" || state === "HOLD"} />
              ) : null}
              {hydrated && smsCall ? (
                <Suspense fallback={null}>
                  <SmsCard key={smsCall.ctiCallId} call={smsCall} />
                </Suspense>
              ) : null}
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
          <TodayCalls
            calls={panels.today}
            canDial={["READY", "NOT_READY", "ACW"].includes(state)}
            dialBack={(ctiCallId) => act("dialBack", { ctiCallId })}
          />
        ) : (
          <KnowledgeLookup />
        )}
      </div>
    </section>
  );
}

const RING_MUTED_KEY = "sb-ring-muted";

/** Whether the agent muted the ring tone (kept in this browser). */
function useRingMuted(): [boolean, (muted: boolean) => void] {
  const [muted, setMuted] = useState(false);
  useEffect(() => setMuted(window.localStorage.getItem(RING_MUTED_KEY) === "1"), []);
  const change = useCallback((next: boolean) => {
    setMuted(next);
    window.localStorage.setItem(RING_MUTED_KEY, next ? "1" : "0");
  }, []);
  return [muted, change];
}

function withAsr(phone: PhoneSnapshot, ctiCallId: string, entry: AsrEntry): PhoneSnapshot {
  if (!phone.call || phone.call.ctiCallId !== ctiCallId || phone.call.transcript.some((l) => l.segmentId === entry.segmentId)) return phone;
  return { ...phone, call: { ...phone.call, transcript: [...phone.call.transcript, entry] } };
}
