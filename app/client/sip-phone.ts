import { C, UA, WebSocketInterface } from "jssip";
import type { PeerConnectionEvent, RTCSession } from "jssip/lib/RTCSession";
import type { RTCSessionEvent } from "jssip/lib/UA";
import type { PhoneSnapshot } from "#contracts/cti";
import type { SipAccess } from "#contracts/voice";

type Credentials = Extract<SipAccess, { mode: "sip" }>;

/** What the workbench hears of its softphone: registered, and the problems worth telling the agent. */
export type SipPhoneStatus = { registered: boolean; problem: string | null };

/**
 * The agent's SIP softphone (decision 036), loaded only when the platform has SIP servers: it
 * registers over WebSocket with the platform's short-lived credentials and carries the audio of
 * the calls the CTI puts through. It never decides anything about a call: the platform's phone
 * line calls it, naming the CTI call (X-Cti-Call), and it answers, holds, mutes and leaves as
 * the phone state it is given (`follow`) says.
 */
export function createSipPhone(credentials: Credentials, audio: HTMLAudioElement, onStatus: (status: SipPhoneStatus) => void) {
  const ua = new UA({
    sockets: [new WebSocketInterface(credentials.wsUrl)],
    uri: credentials.uri,
    authorization_user: credentials.username,
    password: credentials.password,
    register: true,
    register_expires: 300,
    session_timers: false,
    user_agent: "Switchboard softphone",
  });
  /** Calls the phone line put through, by CTI call, until they end. */
  const sessions = new Map<string, RTCSession>();
  /** CTI calls the phone state has named: only these may be ended from here (an INVITE can arrive before the state). */
  const known = new Set<string>();
  let phone: PhoneSnapshot | null = null;

  ua.on("registered", () => onStatus({ registered: true, problem: null }));
  ua.on("registrationFailed", () => onStatus({ registered: false, problem: "软电话注册失败，通话将没有声音" }));
  ua.on("disconnected", () => onStatus({ registered: false, problem: "与语音服务器的连接已断开，正在重连" }));
  ua.on("newRTCSession", ({ originator, session, request }: RTCSessionEvent) => {
    const ctiCallId = originator === "remote" ? request.getHeader("X-Cti-Call") : "";
    if (!ctiCallId) {
      session.terminate({ status_code: 488 });
      return;
    }
    end(sessions.get(ctiCallId));
    sessions.set(ctiCallId, session);
    session.on("peerconnection", ({ peerconnection }: PeerConnectionEvent) => playRemote(peerconnection));
    const forget = () => {
      if (sessions.get(ctiCallId) === session) sessions.delete(ctiCallId);
    };
    session.on("ended", forget);
    session.on("failed", forget);
    session.on("confirmed", () => apply());
    apply();
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
          session.answer({ mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: credentials.iceServers } });
        }
      }
      if (state !== "RINGING" && state !== "TALKING" && state !== "HOLD") {
        end(session);
        continue;
      }
      // Hold silences both ways; mute silences the agent.
      const held = state === "HOLD";
      const connection = session.connection as RTCPeerConnection | undefined;
      for (const sender of connection?.getSenders() ?? []) if (sender.track) sender.track.enabled = !held && !phone?.agent.muted;
      for (const receiver of connection?.getReceivers() ?? []) receiver.track.enabled = !held;
    }
  }
  const answering = new WeakSet<RTCSession>();

  function end(session: RTCSession | undefined) {
    if (session && !session.isEnded()) session.terminate();
  }

  ua.start();
  return {
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
    stop() {
      for (const session of sessions.values()) end(session);
      ua.stop();
    },
  };
}

export type SipPhone = ReturnType<typeof createSipPhone>;
