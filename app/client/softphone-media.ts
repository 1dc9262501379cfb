import { useCallback, useEffect, useRef, useState } from "react";
import type { PhoneSnapshot } from "#contracts/cti";
import { SipAccessSchema } from "#contracts/voice";
import { readJson } from "./island";
import type { SipPhone, SipPhoneStatus } from "./sip-phone";

/** Credentials are fetched again this long before they expire (the softphone registers anew with them). */
const RENEW_BEFORE_MS = 5 * 60_000;

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
  const sip = useRef<SipPhone | null>(null);
  const latest = useRef(phone);
  latest.current = phone;
  const [status, setStatus] = useState<SipPhoneStatus | null>(null);
  const [owner, setOwner] = useState<PhoneOwner>(null);
  const takeOver = useRef<() => void>(() => undefined);
  const agentId = phone.agent.agentId;

  useEffect(() => {
    let stopped = false;
    let renewal: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      const answer = await readJson<{ sip?: unknown }>(endpoint, { sip: "1" });
      const access = SipAccessSchema.safeParse(answer?.sip);
      if (stopped || !access.success || access.data.mode !== "sip" || !audio.current) return;
      const credentials = access.data;
      const { createSipPhone } = await import("./sip-phone");
      if (stopped) return;
      const next = createSipPhone(credentials, audio.current, setStatus);
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
      const answer = await readJson<{ sip?: unknown }>(endpoint, { sip: "1" });
      const access = SipAccessSchema.safeParse(answer?.sip);
      if (stopped || !access.success || access.data.mode !== "sip") return;
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

  return {
    audio,
    status,
    owner,
    takeOver: useCallback(() => takeOver.current(), []),
    dtmf: useCallback((digit: string) => sip.current?.dtmf(digit), []),
    connection: useCallback(() => sip.current?.connection(), []),
  };
}
