import { useEffect, useRef, useState } from "react";
import type { PhoneSnapshot } from "#contracts/cti";
import { SipAccessSchema } from "#contracts/voice";
import { readJson } from "./island";
import type { SipPhone, SipPhoneStatus } from "./sip-phone";

/** Credentials are fetched again this long before they expire (the softphone registers anew with them). */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * The softphone's media adapter (decision 036): when the platform has SIP servers, the SIP phone
 * (and JsSIP with it, loaded only then) registers with credentials read from `endpoint`, plays
 * the customer into `audio`, and follows the phone state the workbench shows. Without SIP
 * servers it does nothing: the media is simulated. Answers the phone's status and `dtmf`.
 */
export function useSoftphoneMedia(endpoint: string, phone: PhoneSnapshot) {
  const audio = useRef<HTMLAudioElement>(null);
  const sip = useRef<SipPhone | null>(null);
  const latest = useRef(phone);
  latest.current = phone;
  const [status, setStatus] = useState<SipPhoneStatus | null>(null);

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
    void connect();
    return () => {
      stopped = true;
      clearTimeout(renewal);
      sip.current?.stop();
      sip.current = null;
    };
  }, [endpoint]);

  useEffect(() => {
    sip.current?.follow(phone);
  }, [phone]);

  return { audio, status, dtmf: (digit: string) => sip.current?.dtmf(digit) };
}
