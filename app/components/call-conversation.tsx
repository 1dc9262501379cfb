import { useEffect, useRef, useState } from "react";
import { CUSTOMER_ROLE, DIALOG_ROLES, DIALOG_TYPES, labelOf } from "#contracts/codes";
import type { CallingResult } from "#contracts/contact";
import {
  NO_RECORDING_TEXT,
  RECORDING_EXPORTED_TEXT,
  SPEED,
  SPEED_HINT,
  TABLE_MAX_HEIGHT_PX,
  UNSUPPORTED_TEXT,
  clampSpeed,
  lineAt,
  speedKey,
} from "#app/lib/call-detail";
import { maskDialogue } from "#app/lib/format";

type Toast = { severity: "success" | "warn"; text: string; id: number };

/**
 * The conversation tab: the recording player and the transcript. The player is a native audio
 * element that fetches nothing until the agent plays or seeks (preload="none"): a long call on a
 * slow link costs nothing until it is wanted, and the recording route answers ranges, so seeking
 * fetches from where it is needed. A call without a recording has no player at all. With
 * JavaScript it plays at the agent's remembered speed, exports the file, seeks when a customer
 * line is clicked and highlights the line being played: by React where the page hydrates (the
 * inspection's scoring view), by app/client/call-detail.js reading the data-* attributes below
 * where it does not (the call detail, decision 032).
 */
export function Conversation({
  callingResults,
  recordingHref,
  hasRecording,
  agentId,
}: {
  callingResults: CallingResult[];
  recordingHref: string;
  hasRecording: boolean;
  agentId: number;
}) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [speed, setSpeed] = useState<number>(SPEED.default);
  const [playingMs, setPlayingMs] = useState(-1);
  const [toast, setToast] = useState<Toast | null>(null);
  const lines = callingResults.flatMap((section) => section.dialogResults);
  const downloadHref = `${recordingHref}?download=1`;

  const notify = (severity: Toast["severity"], text: string) => setToast({ severity, text, id: Date.now() });

  useEffect(() => {
    setHydrated(true);
    setSpeed(clampSpeed(window.localStorage.getItem(speedKey(agentId)) ?? SPEED.default));
  }, [agentId]);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), 3000);
    return () => window.clearTimeout(timer);
  }, [toast]);

  useEffect(() => {
    const element = audioRef.current;
    if (!element) return;
    element.playbackRate = speed;
    element.defaultPlaybackRate = speed;
  }, [speed]);

  const changeSpeed = (value: string) => {
    const next = clampSpeed(value);
    setSpeed(next);
    window.localStorage.setItem(speedKey(agentId), String(next));
  };

  const exportRecording = () => {
    if (!hasRecording) return notify("warn", NO_RECORDING_TEXT);
    const link = document.createElement("a");
    link.href = downloadHref;
    link.download = `${recordingHref.split("/").slice(-2, -1)[0]}.mp3`;
    document.body.append(link);
    link.click();
    link.remove();
    notify("success", RECORDING_EXPORTED_TEXT);
  };

  // Seeking loads the audio (the first press is the agent asking for it).
  const seek = (startMs: number | null) => {
    const element = audioRef.current;
    if (startMs === null || !hasRecording || !element) return notify("warn", UNSUPPORTED_TEXT);
    element.currentTime = startMs / 1000;
    // Not loaded yet (preload="none"): the position is only kept once the metadata has arrived.
    if (element.readyState < HTMLMediaElement.HAVE_METADATA) {
      element.addEventListener("loadedmetadata", () => (element.currentTime = startMs / 1000), { once: true });
    }
    setPlayingMs(startMs);
    void element.play().catch(() => undefined);
  };

  const playing = lineAt(lines, playingMs);
  let lineIndex = -1;

  return (
    <div
      className="sb-conversation"
      data-call-player
      data-speed-key={speedKey(agentId)}
      data-texts={JSON.stringify({ exported: RECORDING_EXPORTED_TEXT, noRecording: NO_RECORDING_TEXT, unsupported: UNSUPPORTED_TEXT })}
    >
      <div className="sb-player">
        {hasRecording ? (
          <audio
            ref={audioRef}
            controls
            preload="none"
            src={recordingHref}
            onLoadedMetadata={(event) => (event.currentTarget.playbackRate = speed)}
            onTimeUpdate={(event) => setPlayingMs(event.currentTarget.currentTime * 1000)}
            onRateChange={(event) => {
              // Keep the element at the chosen speed if the browser resets it (e.g. on a new source).
              if (Math.abs(event.currentTarget.playbackRate - speed) > 0.01) event.currentTarget.playbackRate = speed;
            }}
            aria-label="通话录音"
            data-speed={speed}
          />
        ) : null}
        <div className="sb-player-controls">
          <label htmlFor="sb-speed">播放倍速</label>
          <input
            id="sb-speed"
            type="number"
            min={SPEED.min}
            max={SPEED.max}
            step={SPEED.step}
            value={speed}
            disabled={!hydrated}
            onChange={(event) => changeSpeed(event.currentTarget.value)}
            className="p-inputtext p-component sb-speed"
            aria-describedby="sb-speed-hint"
          />
          <small id="sb-speed-hint" className="sb-muted">
            {SPEED_HINT}
          </small>
          {hydrated ? (
            <button
              type="button"
              className="p-button p-button-sm p-button-outlined"
              onClick={exportRecording}
              disabled={!hasRecording}
              aria-describedby={hasRecording ? undefined : "sb-no-recording"}
            >
              <i className="pi pi-download" aria-hidden="true" /> 导出录音
            </button>
          ) : (
            <>
              {hasRecording ? (
                <a className="p-button p-button-sm p-button-outlined" href={downloadHref} download data-download>
                  <i className="pi pi-download" aria-hidden="true" /> 下载录音
                </a>
              ) : null}
              <button
                type="button"
                className="p-button p-button-sm p-button-outlined"
                data-export
                hidden
                disabled={!hasRecording}
                aria-describedby={hasRecording ? undefined : "sb-no-recording"}
              >
                <i className="pi pi-download" aria-hidden="true" /> 导出录音
              </button>
            </>
          )}
          {hasRecording ? null : (
            <span id="sb-no-recording" className="sb-muted">
              {NO_RECORDING_TEXT}
            </span>
          )}
        </div>
      </div>
      <div className="sb-dialogue" style={{ maxHeight: TABLE_MAX_HEIGHT_PX }}>
        {callingResults.length === 0 ? <p className="sb-muted">暂无对话内容</p> : null}
        {callingResults.map((section, s) => (
          <section key={s} className="sb-dialogue-section" aria-label={labelOf(DIALOG_TYPES, section.dialogType === 1 ? 1 : 2)}>
            <h3 className="sb-dialogue-title">{labelOf(DIALOG_TYPES, section.dialogType === 1 ? 1 : 2)}</h3>
            <ol className="sb-dialogue-lines">
              {section.dialogResults.map((line) => {
                lineIndex += 1;
                const customer = line.thisRole === CUSTOMER_ROLE;
                const current = lineIndex === playing;
                const text = maskDialogue(line.dialogContent);
                return (
                  <li
                    key={lineIndex}
                    data-start={line.recordStartTime ?? undefined}
                    data-end={line.recordEndTime ?? undefined}
                    className={`sb-line ${customer ? "sb-line--left" : "sb-line--right"}${current ? " sb-line--playing" : ""}`}
                    aria-current={current ? "true" : undefined}
                  >
                    <span className="sb-line-role">{labelOf(DIALOG_ROLES, line.thisRole)}</span>
                    {customer ? (
                      <button
                        type="button"
                        className="sb-line-bubble sb-line-seek"
                        data-seek
                        onClick={() => seek(line.recordStartTime)}
                        title="点击播放该句录音"
                      >
                        {text}
                      </button>
                    ) : (
                      <span className="sb-line-bubble">{text}</span>
                    )}
                  </li>
                );
              })}
            </ol>
          </section>
        ))}
      </div>
      {toast ? (
        <div className="p-toast p-component p-toast-top-center sb-toast" role="status" aria-live="polite">
          <div key={toast.id} className={`p-toast-message p-toast-message-${toast.severity}`}>
            <div className="p-toast-message-content">
              <span
                className={`p-toast-message-icon pi ${toast.severity === "success" ? "pi-check" : "pi-exclamation-triangle"}`}
                aria-hidden="true"
              />
              <div className="p-toast-message-text">
                <span className="p-toast-summary">{toast.text}</span>
              </div>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
