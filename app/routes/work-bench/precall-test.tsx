import { useRef, useState } from "react";
import { PrecallResultSchema, PrecallStartSchema } from "#contracts/voice";
import type { AgentStateCode } from "#contracts/agent-state";
import { postAction, readJson } from "#app/client/island";
import { runPrecallTest, verdictOf, type Step } from "#app/client/precall-test";
import type { SipPhone } from "#app/client/sip-phone";
import { PhoneBarDialog } from "./phone-bar-dialog";
import { PHONE_ENDPOINT } from "./types";

const STATUS_TEXT = { waiting: "待测试", running: "测试中…", passed: "通过", failed: "失败", skipped: "未进行" } as const;

/** States in which a test call could clash with a customer's call. */
const BUSY: ReadonlySet<AgentStateCode> = new Set(["READY", "RINGING", "TALKING", "HOLD"]);

type Props = {
  state: AgentStateCode;
  csrf: string;
  sipPhone: () => SipPhone | null;
  /** The chosen microphone and call speaker (device ids; none: the system's default). */
  microphone: string | undefined;
  speaker: string | undefined;
};

/**
 * 通话测试 (decision 053): a modal dialog from the phone bar that checks, in under 30 s, the
 * microphone, the call speaker, the SIP server, media through the media server and a loopback of
 * the agent's own voice, with a verdict per step. Closing it leaves a test in progress going on
 * and its results stay.
 */
export function PrecallTest({ state, csrf, sipPhone, microphone, speaker }: Props) {
  const [steps, setSteps] = useState<Step[]>([]);
  const [running, setRunning] = useState(false);
  const player = useRef<HTMLAudioElement>(null);

  const busy = BUSY.has(state);
  const start = async () => {
    setRunning(true);
    await runPrecallTest({
      phone: sipPhone(),
      microphone,
      play: (source) => play(player.current, source, speaker),
      start: async () => {
        const answer = await postAction<{ precall?: unknown }>(PHONE_ENDPOINT, csrf, "precall");
        const started = answer.ok ? PrecallStartSchema.safeParse(answer.result?.precall) : null;
        return started?.success ? started.data : { error: answer.ok ? "平台未能发起测试呼叫，请稍后重试。" : answer.error };
      },
      result: async (testId) => {
        const parsed = PrecallResultSchema.safeParse((await readJson<{ precall?: unknown }>(PHONE_ENDPOINT, { precall: testId }))?.precall);
        return parsed.success ? parsed.data : null;
      },
      onSteps: setSteps,
    }).catch(() => undefined);
    setRunning(false);
  };
  const verdict = running ? "" : verdictOf(steps);

  return (
    <PhoneBarDialog label="通话测试" title="通话测试">
      <p>
        检查麦克风、扬声器、语音服务器和媒体服务器，约 20
        秒。平台会呼叫本软电话并播放测试音，请在测试时对着麦克风说几句话，最后会回放您的声音。
      </p>
      {busy ? <p id="precall-busy">就绪或通话中不能测试（可能有来电），请先置为未就绪。</p> : null}
      <button
        type="button"
        className="p-button p-button-sm"
        onClick={() => void start()}
        disabled={running || busy}
        aria-describedby={busy ? "precall-busy" : undefined}
      >
        {running ? "测试中…" : "开始测试"}
      </button>
      {steps.length > 0 ? (
        <ol className="sb-precall-steps" aria-label="测试步骤">
          {steps.map((step) => (
            <li key={step.key} data-testid={`precall-${step.key}`} data-status={step.status}>
              <strong>
                {step.label}：{STATUS_TEXT[step.status]}
              </strong>{" "}
              <span>{step.detail}</span>
            </li>
          ))}
        </ol>
      ) : null}
      <p role="status" data-testid="precall-verdict" className={verdict.startsWith("通话测试未通过") ? "sb-phonebar-error" : undefined}>
        {verdict}
      </p>
      <audio ref={player} controls hidden={!verdict.startsWith("通话测试通过")} data-testid="precall-playback" aria-label="您的声音回放" />
    </PhoneBarDialog>
  );
}

/** Plays a stream or a URL on the call speaker (the chosen device, else the default). */
async function play(element: HTMLAudioElement | null, source: MediaStream | string, speaker: string | undefined) {
  if (!element) throw new Error("no player");
  if ("setSinkId" in element) await element.setSinkId(speaker ?? "");
  if (typeof source === "string") {
    element.srcObject = null;
    element.src = source;
  } else {
    element.removeAttribute("src");
    element.srcObject = source;
  }
  await element.play();
}
