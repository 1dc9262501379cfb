import { useEffect, useState } from "react";
import {
  NO_STRETCH,
  callQuality,
  followPoorStretch,
  poorCallReport,
  statsSample,
  type CallQuality,
  type StatsSample,
} from "#app/client/call-quality";
import type { CallQualityReport } from "#contracts/cti";
import type { PhoneOwner } from "#app/client/softphone-media";
import type { SipPhoneStatus } from "#app/client/sip-phone";

/** How often the call's statistics are read for the quality badge. */
const QUALITY_EVERY_MS = 2_000;

type Props = {
  status: SipPhoneStatus | null;
  owner: PhoneOwner;
  takeOver: () => void;
  /** The agent is on a call (ringing, talking, holding): the phone is not taken over then. */
  onCall: boolean;
  connection: () => RTCPeerConnection | undefined;
  /** The call on the phone, if any. */
  callId: string | undefined;
  /** Tells the platform a call ended after its audio was poor for a while (supervisors see it on the record). */
  reportPoorCall: (report: CallQualityReport) => void;
  /** What the agent should know about their devices (a chosen one gone missing). */
  notices: string[];
};

/**
 * The softphone's own line under the phone bar (decisions 036, 043): which tab holds the phone,
 * what the softphone is doing (politely announced), its problems (alerted) and the call's quality.
 */
export function SoftphoneStatus({ status, owner, takeOver, onCall, connection, callId, reportPoorCall, notices }: Props) {
  const quality = useCallQuality(connection, onCall && owner === "here" ? callId : undefined, reportPoorCall);
  return (
    <div className="sb-softphone">
      {owner === "elsewhere" ? (
        <div className="sb-softphone-elsewhere" data-testid="phone-elsewhere">
          <p>另一个标签页正在使用软电话（注册和麦克风都在那个标签页），本页不播放通话声音。</p>
          <button type="button" className="p-button p-button-outlined p-button-sm" onClick={takeOver} disabled={onCall}>
            在此标签页接管
          </button>
          {onCall ? <span>通话结束后可接管。</span> : null}
        </div>
      ) : null}
      <p className="sb-softphone-activity" role="status" aria-live="polite" data-testid="softphone-status">
        {owner === "here" ? (status?.activity ?? "") : ""}
      </p>
      {status?.problem ? (
        <p className="sb-phonebar-error" role="alert">
          {status.problem}
        </p>
      ) : null}
      {owner === "here"
        ? notices.map((text) => (
            <p key={text} className="sb-phonebar-error" role="alert">
              {text}
            </p>
          ))
        : null}
      {quality ? <QualityBadge quality={quality} /> : null}
    </div>
  );
}

function QualityBadge({ quality }: { quality: CallQuality }) {
  const poor = quality.warnings.length > 0;
  const figures = [
    `MOS ${quality.mos.toFixed(1)}`,
    quality.rttMs === null ? null : `往返 ${Math.round(quality.rttMs)} 毫秒`,
    quality.jitterMs === null ? null : `抖动 ${Math.round(quality.jitterMs)} 毫秒`,
    `丢包 ${quality.lossPercent}%`,
  ].filter(Boolean);
  return (
    <p className={`sb-quality sb-quality--${poor ? "poor" : "good"}`} data-testid="call-quality">
      <strong>通话质量：{poor ? `较差（${quality.warnings.join("，")}）` : "良好"}</strong> <span>{figures.join(" · ")}</span>
    </p>
  );
}

/**
 * The call's quality, read from its peer connection's statistics while the call `callId` is on;
 * when it ends after a long enough poor stretch, it is reported.
 */
function useCallQuality(
  connection: () => RTCPeerConnection | undefined,
  callId: string | undefined,
  reportPoorCall: (report: CallQualityReport) => void,
): CallQuality | null {
  const [quality, setQuality] = useState<CallQuality | null>(null);
  useEffect(() => {
    setQuality(null);
    if (!callId) return;
    let before: StatsSample | null = null;
    let stretch = NO_STRETCH;
    let stopped = false;
    const timer = setInterval(() => {
      const peer = connection();
      if (!peer) return;
      void peer.getStats().then((report) => {
        if (stopped) return;
        const now = statsSample(report as unknown as Parameters<typeof statsSample>[0]);
        if (now.packetsReceived > 0) {
          const reading = callQuality(before, now);
          stretch = followPoorStretch(stretch, reading, Date.now());
          setQuality(reading);
        }
        before = now;
      });
    }, QUALITY_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      const poor = poorCallReport(callId, stretch);
      if (poor) reportPoorCall(poor);
    };
  }, [connection, callId, reportPoorCall]);
  return quality;
}
