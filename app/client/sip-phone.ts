import { C, UA, WebSocketInterface } from "jssip";
import type { PeerConnectionEvent, RTCSession } from "jssip/lib/RTCSession";
import type { RTCSessionEvent } from "jssip/lib/UA";
import type { PhoneSnapshot } from "#contracts/cti";
import { isAgentSipUser, type SipAccess } from "#contracts/voice";
import { createCallMix, mixOf, type CallMix } from "./call-mix";

type Credentials = Extract<SipAccess, { mode: "sip" }>;

/**
 * What the workbench hears of its softphone: registered, a problem worth an alert, and what it is
 * doing now (said politely: connecting, reconnecting, restoring a call's audio).
 */
export type SipPhoneStatus = { registered: boolean; problem: string | null; activity: string };

/** A lost link is tried again within this many seconds (JsSIP's default backs off to 30 s). */
const RECONNECT_MIN_SECONDS = 1;
const RECONNECT_MAX_SECONDS = 2;
/**
 * ICE gathering ends this long after the first candidate: an unreachable STUN or TURN server
 * would otherwise hold the answer for 10-40 s (JsSIP waits for gathering to complete).
 */
export const ICE_GATHERING_CAP_MS = 1_000;

/**
 * The agent's SIP softphone (decision 036), loaded only when the platform has SIP servers: it
 * registers over WebSocket with the platform's short-lived credentials and carries the audio of
 * the calls the CTI puts through. It never decides anything about a call: the platform's phone
 * line calls it, naming the CTI call (X-Cti-Call), and it answers, holds, mutes and leaves as
 * the phone state it is given (`follow`) says. In a consultation the asking agent's softphone
 * calls the colleague's, once the phone state says the colleague answered, and mixes the three
 * (decision 052).
 */
export function createSipPhone(
  credentials: Credentials,
  audio: HTMLAudioElement,
  onStatus: (status: SipPhoneStatus) => void,
  /** The microphone chosen (a device id), else the system's default. */
  microphone?: string,
) {
  const ua = new UA({
    sockets: [new WebSocketInterface(credentials.wsUrl)],
    uri: credentials.uri,
    authorization_user: credentials.username,
    password: credentials.password,
    register: true,
    register_expires: 300,
    session_timers: false,
    connection_recovery_min_interval: RECONNECT_MIN_SECONDS,
    connection_recovery_max_interval: RECONNECT_MAX_SECONDS,
    user_agent: "Switchboard softphone",
  });
  /** Calls the phone line put through, by CTI call, until they end. */
  const sessions = new Map<string, RTCSession>();
  /** CTI calls the phone state has named: only these may be ended from here (an INVITE can arrive before the state). */
  const known = new Set<string>();
  let phone: PhoneSnapshot | null = null;

  /** The link to the SIP server dropped since the last registration: calls in progress need their media restored. */
  let linkLost = false;
  onStatus({ registered: false, problem: null, activity: "软电话正在连接语音服务器…" });
  ua.on("registered", () => {
    onStatus({ registered: true, problem: null, activity: "软电话已就绪" });
    if (linkLost) restoreMedia();
    linkLost = false;
  });
  ua.on("registrationFailed", () => onStatus({ registered: false, problem: "软电话注册失败，通话将没有声音", activity: "" }));
  ua.on("disconnected", () => {
    linkLost = true;
    onStatus({ registered: false, problem: null, activity: "与语音服务器的连接已断开，正在重新连接…" });
  });

  /**
   * After a lost link the call's media path may be gone too (a new network, a sleeping laptop):
   * a re-INVITE with an ICE restart finds it again, through the same media server.
   */
  function restoreMedia() {
    for (const session of sessions.values()) {
      if (!session.isEstablished()) continue;
      onStatus({ registered: true, problem: null, activity: "已重新连接，正在恢复通话声音…" });
      session.renegotiate({ rtcOfferConstraints: { iceRestart: true } }, () =>
        onStatus({ registered: true, problem: null, activity: "通话声音已恢复" }),
      );
    }
  }
  ua.on("newRTCSession", ({ originator, session, request }: RTCSessionEvent) => {
    // A call this phone places (to a consulted colleague) is looked after where it is placed.
    if (originator === "local") return;
    const ctiCallId = request.getHeader("X-Cti-Call");
    if (!ctiCallId) {
      session.terminate({ status_code: 488 });
      return;
    }
    if (testCalls.take(ctiCallId, session)) return;
    if (isAgentSipUser(request.from.uri.user) && !consultedBy(ctiCallId, request.from.uri.user)) {
      session.terminate({ status_code: 403 });
      return;
    }
    end(sessions.get(ctiCallId));
    sessions.set(ctiCallId, session);
    session.on("peerconnection", ({ peerconnection }: PeerConnectionEvent) => playRemote(peerconnection));
    capIceGathering(session);
    const forget = () => {
      if (sessions.get(ctiCallId) === session) sessions.delete(ctiCallId);
      // JsSIP stops the microphone it opened; one switched to during the call is ours to stop.
      for (const sender of (session.connection as RTCPeerConnection | undefined)?.getSenders() ?? []) sender.track?.stop();
    };
    session.on("ended", forget);
    session.on("failed", forget);
    session.on("confirmed", () => apply());
    apply();
  });

  /** A colleague's call is taken only for the consultation the phone state names, from the agent who asks. */
  function consultedBy(ctiCallId: string, sipUser: string): boolean {
    const consult = phone?.call?.ctiCallId === ctiCallId ? phone.call.consult : null;
    return !!consult && !consult.asking && consult.sipUser === sipUser;
  }

  /** The chosen microphone if it is there, else the default (an ideal, not an exact, device). */
  const callMedia = () => ({
    mediaConstraints: { audio: microphone ? { deviceId: microphone } : true, video: false },
    pcConfig: peerConfig(credentials),
  });

  function playRemote(connection: RTCPeerConnection) {
    connection.addEventListener("track", (event) => {
      audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
      void audio.play().catch(() => undefined);
    });
  }

  /** Makes the SIP calls agree with the phone state. */
  function apply() {
    const call = phone?.call;
    const state = phone?.agent.state;
    for (const [ctiCallId, session] of sessions) {
      const current = call?.ctiCallId === ctiCallId;
      if (!current) {
        if (known.has(ctiCallId)) end(session);
        continue;
      }
      if ((state === "TALKING" || state === "HOLD") && !session.isEstablished() && !session.isEnded() && session.direction === "incoming") {
        if (!answering.has(session)) {
          answering.add(session);
          session.answer(callMedia());
        }
      }
      if (state !== "RINGING" && state !== "TALKING" && state !== "HOLD") {
        end(session);
        continue;
      }
      // While mixed with a consultation, the mix carries hold and mute.
      if (consultation?.mix) continue;
      // Hold silences both ways; mute silences the agent.
      const held = state === "HOLD";
      const connection = session.connection as RTCPeerConnection | undefined;
      for (const sender of connection?.getSenders() ?? []) if (sender.track) sender.track.enabled = !held && !phone?.agent.muted;
      for (const receiver of connection?.getReceivers() ?? []) receiver.track.enabled = !held;
    }
    followConsultation();
  }
  const answering = new WeakSet<RTCSession>();

  /** The asking agent's call to the consulted colleague (named by CTI call and colleague), and the mix once it is up. */
  let consultation: { key: string; session: RTCSession; mix: CallMix | null } | null = null;
  /** Consultations already called: one that ended or failed is not called again. */
  const called = new Set<string>();

  /** Calls the colleague once the phone state says they answered; hangs up when it no longer names them. */
  function followConsultation() {
    const call = phone?.call;
    const consult = call?.consult;
    const live = phone?.agent.state === "TALKING" || phone?.agent.state === "HOLD";
    const key = live && consult?.asking && consult.state !== "ringing" ? `${call!.ctiCallId} ${consult.sipUser}` : null;
    if (consultation && consultation.key !== key) end(consultation.session);
    if (key && !consultation && !called.has(key)) callColleague(call!.ctiCallId, consult!.sipUser, key);
    if (phone && consultation?.mix) consultation.mix.follow(mixOf(phone));
  }

  function callColleague(ctiCallId: string, sipUser: string, key: string) {
    called.add(key);
    const domain = credentials.uri.slice(credentials.uri.indexOf("@") + 1);
    // Kamailio names the CTI call to the colleague's softphone from the request URI, as for the phone line's calls.
    const session = ua.call(`sip:${sipUser}@${domain};cti=${ctiCallId}`, callMedia());
    const leg: NonNullable<typeof consultation> = { key, session, mix: null };
    consultation = leg;
    capIceGathering(session);
    session.on("confirmed", () => {
      leg.mix = createCallMix(sessions.get(ctiCallId)?.connection as RTCPeerConnection | undefined, session.connection, audio);
      apply();
    });
    const forget = () => {
      leg.mix?.close();
      leg.mix = null;
      if (consultation === leg) consultation = null;
      // The customer's leg carries hold and mute by itself again.
      queueMicrotask(apply);
    };
    session.on("ended", forget);
    session.on("failed", forget);
  }

  function end(session: RTCSession | undefined) {
    if (session && !session.isEnded()) session.terminate();
  }

  const testCalls = precallTestCalls(() => ({ audio: microphone ? { deviceId: microphone } : true, video: false }), credentials);

  ua.start();
  return {
    /**
     * The pre-call test's check of the SIP server (decision 053): the phone registers anew; false
     * if the server refused or did not answer within `ms`.
     */
    checkRegistration(ms: number): Promise<boolean> {
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          ua.off("registered", yes);
          ua.off("registrationFailed", no);
          resolve(ok);
        };
        const yes = () => done(true);
        const no = () => done(false);
        const timer = setTimeout(no, ms);
        ua.on("registered", yes);
        ua.on("registrationFailed", no);
        if (!ua.isConnected()) return;
        // A registration anew, answered now: JsSIP says "registered" only when it was not, so a
        // registered phone unregisters first (no call rings meanwhile: the agent is not ready).
        if (!ua.isRegistered()) ua.register();
        else {
          ua.once("unregistered", () => ua.register());
          ua.unregister();
        }
      });
    },
    answerTestCall: testCalls.answer,
    follow(snapshot: PhoneSnapshot) {
      phone = snapshot;
      if (snapshot.call) known.add(snapshot.call.ctiCallId);
      apply();
    },
    /** A keypad press reaches the customer in the audio (RFC 4733), where the call is connected. */
    dtmf(digit: string) {
      const session = phone?.call ? sessions.get(phone.call.ctiCallId) : undefined;
      if (session?.isEstablished()) session.sendDTMF(digit, { transportType: C.DTMF_TRANSPORT.RFC2833 });
    },
    /**
     * Another microphone, for the next calls and for those in progress: the sender's track is
     * replaced (no renegotiation), so the call goes on; mute and hold carry over.
     */
    async setMicrophone(deviceId: string | undefined) {
      microphone = deviceId;
      for (const session of sessions.values()) {
        const connection = session.connection as RTCPeerConnection | undefined;
        const sender = connection?.getSenders().find((s) => s.track?.kind === "audio");
        if (!sender || session.isEnded()) continue;
        const stream = await navigator.mediaDevices.getUserMedia({ audio: deviceId ? { deviceId: { exact: deviceId } } : true });
        const [track] = stream.getAudioTracks();
        const old = sender.track;
        await sender.replaceTrack(track);
        old?.stop();
        apply();
      }
    },
    /** The current call's peer connection, for its statistics (the quality badge). */
    connection(): RTCPeerConnection | undefined {
      const session = phone?.call ? sessions.get(phone.call.ctiCallId) : undefined;
      return session?.isEstablished() ? (session.connection as RTCPeerConnection) : undefined;
    },
    stop() {
      end(consultation?.session);
      for (const session of sessions.values()) end(session);
      ua.stop();
    },
  };
}

export type SipPhone = ReturnType<typeof createSipPhone>;

/** JsSIP waits for ICE gathering to complete; the softphone sends its SDP ICE_GATHERING_CAP_MS after the first candidate. */
/** The platform's STUN/TURN servers, and whether media may only go through a relay. */
const peerConfig = (credentials: Credentials): RTCConfiguration => ({
  iceServers: credentials.iceServers,
  iceTransportPolicy: credentials.iceTransportPolicy,
});

function capIceGathering(session: RTCSession) {
  let capped: (() => void) | null = null;
  session.on("icecandidate", ({ ready }) => {
    if (capped === ready) return;
    capped = ready;
    setTimeout(ready, ICE_GATHERING_CAP_MS);
  });
}

/** The CTI call id of the pre-call test's calls (upstream/voice/precall.ts): no CTI call has it. */
const TEST_CALL_PREFIX = "test-";

/**
 * The pre-call test's calls (decision 053): the platform's phone line calls the softphone naming
 * `test-<id>`. A test arms the softphone before asking the platform (the call may arrive before
 * the platform's answer does); the armed test answers the next test call and gets its remote
 * stream. A test call when none is armed is refused; it never becomes one of the CTI's calls.
 */
function precallTestCalls(constraints: () => MediaStreamConstraints, credentials: Credentials) {
  let armed: ((ctiCallId: string, session: RTCSession) => void) | null = null;
  return {
    /** True when the incoming call was a test call (answered here, or refused). */
    take(ctiCallId: string, session: RTCSession): boolean {
      if (!ctiCallId.startsWith(TEST_CALL_PREFIX)) return false;
      if (armed) armed(ctiCallId, session);
      else session.terminate({ status_code: 480 });
      return true;
    },
    /** Answers the next test call within `ms`: the id it names, its session and the line's audio; null if none came or it failed. */
    answer(ms: number): Promise<{ id: string; session: RTCSession; stream: MediaStream } | null> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(null), ms);
        const finish = (answer: { id: string; session: RTCSession; stream: MediaStream } | null) => {
          clearTimeout(timer);
          armed = null;
          resolve(answer);
        };
        armed = (ctiCallId, session) => {
          armed = null;
          const id = ctiCallId.slice(TEST_CALL_PREFIX.length);
          session.on("peerconnection", ({ peerconnection }: PeerConnectionEvent) =>
            peerconnection.addEventListener("track", (event) =>
              finish({ id, session, stream: event.streams[0] ?? new MediaStream([event.track]) }),
            ),
          );
          session.on("failed", () => finish(null));
          capIceGathering(session);
          session.answer({ mediaConstraints: constraints(), pcConfig: peerConfig(credentials) });
        };
      });
    },
  };
}
