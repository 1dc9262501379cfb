import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { PhoneSnapshot } from "#contracts/cti";
import type { SipAccess } from "#contracts/voice";
import { loadChoice, saveChoice, usableChoice, type AudioRole, type ChosenDevice, type Device, type DeviceChoice } from "./audio-devices";
import { readJson } from "./island";
import type { SipPhone, SipPhoneStatus } from "./sip-phone";

/** Credentials are fetched again this long before they expire (the softphone registers anew with them). */
const RENEW_BEFORE_MS = 5 * 60_000;

type SipCredentials = Extract<SipAccess, { mode: "sip" }>;

/** Which tab of this browser holds the agent's phone (decision 043): this one, another one, or not known yet. */
export type PhoneOwner = "here" | "elsewhere" | null;

/**
 * The softphone's media adapter (decision 036): when the platform has SIP servers, the SIP phone
 * (and JsSIP with it, loaded only then) registers with credentials read from `endpoint`, plays
 * the customer into `audio`, and follows the phone state the workbench shows. Without SIP
 * servers it does nothing: the media is simulated. Answers the phone's status and `dtmf`.
 *
 * One tab owns the phone (decision 043): the tab holding the Web Lock named for the agent
 * registers and opens the microphone; another tab waits in the lock's queue (so it takes over
 * when the owner closes) and may take the lock over (`takeOver`).
 */
export function useSoftphoneMedia(endpoint: string, phone: PhoneSnapshot) {
  const audio = useRef<HTMLAudioElement>(null);
  const ring = useRef<HTMLAudioElement>(null);
  const sip = useRef<SipPhone | null>(null);
  const microphone = useRef<string | undefined>(undefined);
  const latest = useRef(phone);
  latest.current = phone;
  const [status, setStatus] = useState<SipPhoneStatus | null>(null);
  const [owner, setOwner] = useState<PhoneOwner>(null);
  /** Whether the platform has SIP servers (null: not known yet). */
  const [mode, setMode] = useState<SipAccess["mode"] | null>(null);
  const takeOver = useRef<() => void>(() => undefined);
  const agentId = phone.agent.agentId;

  useEffect(() => {
    let stopped = false;
    let renewal: ReturnType<typeof setTimeout> | undefined;
    const readAccess = async () => {
      // As the platform's contract says (the console parsed it): the island loads no schema.
      const access = (await readJson<{ sip?: SipAccess }>(endpoint, { sip: "1" }))?.sip;
      if (access && !stopped) setMode(access.mode);
      return access?.mode === "sip" ? access : null;
    };
    // The credentials read to learn whether there is a phone at all serve its first registration
    // too, unless the tab waited so long for the phone that they are about to expire.
    let probed: SipCredentials | null = null;
    const connect = async () => {
      const fresh = probed && Date.parse(probed.expiresAt) - Date.now() > RENEW_BEFORE_MS ? probed : null;
      probed = null;
      const credentials = fresh ?? (await readAccess());
      if (stopped || !credentials || !audio.current) return;
      const { createSipPhone } = await import("./sip-phone");
      if (stopped) return;
      const next = createSipPhone(credentials, audio.current, setStatus, microphone.current);
      next.follow(latest.current);
      const previous = sip.current;
      sip.current = next;
      previous?.stop();
      // New credentials before these expire; the phone re-registers with them between calls.
      renewal = setTimeout(
        function renew() {
          if (latest.current.call) renewal = setTimeout(renew, 30_000);
          else void connect();
        },
        Math.max(30_000, Date.parse(credentials.expiresAt) - Date.now() - RENEW_BEFORE_MS),
      );
    };
    const stopPhone = () => {
      clearTimeout(renewal);
      sip.current?.stop();
      sip.current = null;
      setStatus(null);
    };

    // The lock is held as long as this promise is pending: until the tab leaves the workbench.
    let release: (() => void) | null = null;
    const own = () =>
      new Promise<void>((resolve) => {
        release = resolve;
        setOwner("here");
        void connect();
      });
    let waiting: AbortController | null = null;
    const lockName = `switchboard-softphone:${agentId}`;
    const claim = (options: LockOptions) => {
      navigator.locks
        .request(lockName, options, async (lock) => {
          if (!lock) return false;
          await own();
          return true;
        })
        .then(
          (held) => {
            if (!held && !stopped) wait();
          },
          () => {
            // Another tab took the phone over (or this tab gave up waiting to take it over itself).
            if (stopped || options.signal?.aborted) return;
            stopPhone();
            wait();
          },
        );
    };
    const wait = () => {
      setOwner("elsewhere");
      waiting = new AbortController();
      claim({ signal: waiting.signal });
    };
    takeOver.current = () => {
      waiting?.abort();
      claim({ steal: true });
    };

    void (async () => {
      // Only real SIP has a phone to own; the simulated media has nothing to register.
      probed = await readAccess();
      if (stopped || !probed) return;
      // Without Web Locks (an insecure origin, an old browser) every tab owns its phone, as before.
      if (!("locks" in navigator)) void own();
      else claim({ ifAvailable: true });
    })();
    return () => {
      stopped = true;
      waiting?.abort();
      (release as (() => void) | null)?.();
      stopPhone();
    };
  }, [endpoint, agentId]);

  useEffect(() => {
    sip.current?.follow(phone);
  }, [phone]);

  const devices = useAudioDevices(agentId, owner === "here");
  const { microphone: mic, speaker, ringer } = devices.usable;
  useEffect(() => {
    if (microphone.current === mic?.deviceId) return;
    microphone.current = mic?.deviceId;
    sip.current?.setMicrophone(mic?.deviceId).catch(() => devices.report("无法切换到所选麦克风，请检查设备是否已连接并允许使用麦克风。"));
  }, [mic?.deviceId, devices.report]);
  useEffect(() => setSink(audio.current, speaker?.deviceId), [speaker?.deviceId]);
  useEffect(() => setSink(ring.current, ringer?.deviceId), [ringer?.deviceId]);

  return {
    audio,
    ring,
    devices,
    status,
    owner,
    takeOver: useCallback(() => takeOver.current(), []),
    dtmf: useCallback((digit: string) => sip.current?.dtmf(digit), []),
    connection: useCallback(() => sip.current?.connection(), []),
    mode,
    /** The SIP phone of this tab, if it owns one now (the pre-call test drives it). */
    sipPhone: useCallback(() => sip.current, []),
  };
}

/** Plays an element on a device ("": the default); browsers without output choice play on the default. */
function setSink(element: HTMLAudioElement | null, deviceId: string | undefined) {
  if (element && "setSinkId" in element) void element.setSinkId(deviceId ?? "").catch(() => undefined);
}

/**
 * The agent's audio devices, in the tab that owns the phone: the devices there are,
 * the choice kept for this agent in this browser, what of it can be used now and what went
 * missing (said in Chinese, the default used instead). A device unplugged, or the permission
 * withdrawn, is noticed when the browser says its devices changed.
 */
function useAudioDevices(agentId: string, active: boolean) {
  const [choice, setChoice] = useState<DeviceChoice>({});
  const [available, setAvailable] = useState<Device[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setChoice(loadChoice(window.localStorage, agentId)), [agentId]);

  const refresh = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    setAvailable(await navigator.mediaDevices.enumerateDevices());
  }, []);
  useEffect(() => {
    if (!active || !navigator.mediaDevices) return;
    void refresh();
    navigator.mediaDevices.addEventListener("devicechange", refresh);
    return () => navigator.mediaDevices.removeEventListener("devicechange", refresh);
  }, [active, refresh]);

  /** Names the devices: the browser hides their names until the microphone may be used. */
  const ask = useCallback(async () => {
    if (available?.some((d) => d.kind === "audioinput" && d.label)) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      for (const track of stream.getTracks()) track.stop();
      setProblem(null);
    } catch {
      setProblem("浏览器未允许使用麦克风，无法列出设备名称。请在地址栏的网站设置中允许使用麦克风。");
    }
    await refresh();
  }, [available, refresh]);

  const choose = useCallback(
    (role: AudioRole, device: ChosenDevice | undefined) => {
      setChoice((current) => {
        const next = { ...current };
        if (device) next[role] = device;
        else delete next[role];
        saveChoice(window.localStorage, agentId, next);
        return next;
      });
    },
    [agentId],
  );
  // Until the browser has listed its devices, the choice is taken as it is.
  const { usable, missing } = useMemo(
    () => (available ? usableChoice(choice, available) : { usable: choice, missing: [] }),
    [choice, available],
  );
  return { available: available ?? [], choice, usable, missing, problem, report: setProblem, ask, choose };
}

export type AudioDevices = ReturnType<typeof useAudioDevices>;
