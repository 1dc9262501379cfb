import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { z } from "zod";
import { ChallengeAnswerSchema, MobileSchema, type CodeChallenge } from "#contracts/account";
import resendCountdown from "#app/client/resend-countdown.js?url";
import { Field, inputClass } from "#app/components/form-field";
import { EnhancementScript } from "#app/components/enhancement-script";

/**
 * Asking for a code on the sign-up and reset forms (decision 024): a picture challenge first, the
 * SMS button, then after the second SMS a voice code; the seconds to wait before asking again are
 * counted down by a small script when JavaScript runs (app/client/resend-countdown.js).
 */

/** Asking for a code (by SMS or by a call) needs the number and the challenge's answer only. */
export const CodeRequestSchema = z.object({
  intent: z.enum(["send", "voice"]),
  mobile: MobileSchema,
  challengeAnswer: ChallengeAnswerSchema,
});
/** 「换一张」: the page again with a new picture, everything typed kept. */
export const NewChallengeSchema = z.object({ intent: z.literal("challenge") });

/** What the form remembers between posts about the codes asked for (the platform decides anyway). */
export type CodeState = { codeSent?: boolean; voiceOffered?: boolean; countdown?: number };

/** The state the previous page carried in its hidden fields. */
export function codeStateOf(form: FormData): CodeState {
  return { codeSent: form.get("codeSent") === "1", voiceOffered: form.get("offerVoice") === "1" };
}

/** The number, the challenge, the code with its button and the voice offer, as both forms ask for them. */
export function CodeRequestFields({
  fields,
  challenge,
  failure,
  state,
}: {
  fields: { mobile: FieldMetadata<string>; challengeAnswer: FieldMetadata<string>; code: FieldMetadata<string> };
  challenge: CodeChallenge | null;
  failure: string | null;
  state: CodeState | undefined;
}) {
  return (
    <>
      <Field field={fields.mobile} label="手机号">
        <input
          {...getInputProps(fields.mobile, { type: "tel" })}
          className={inputClass(fields.mobile)}
          autoComplete="tel"
          inputMode="numeric"
        />
      </Field>
      <ChallengeField challenge={challenge} failure={failure} field={fields.challengeAnswer} />
      <div className="sb-code-row">
        <Field field={fields.code} label="短信验证码">
          <input
            {...getInputProps(fields.code, { type: "text" })}
            className={inputClass(fields.code)}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
          />
        </Field>
        <SendCodeButton state={state} />
      </div>
      <VoiceCodeOffer state={state} />
    </>
  );
}

/** The challenge's picture, its answer field and 「换一张」 (a submit, so nothing typed is lost). */
function ChallengeField({
  challenge,
  failure,
  field,
}: {
  challenge: CodeChallenge | null;
  failure: string | null;
  field: FieldMetadata<string>;
}) {
  const hintId = `${field.id}-hint`;
  return (
    <>
      <div className="sb-code-row sb-challenge-row">
        <Field field={field} label="图形验证码">
          <input
            {...getInputProps(field, { type: "text" })}
            className={inputClass(field)}
            autoComplete="off"
            inputMode="numeric"
            maxLength={10}
            aria-describedby={field.errors ? `${field.errorId} ${hintId}` : hintId}
          />
        </Field>
        {challenge ? (
          <>
            <input type="hidden" name="challengeId" value={challenge.id} />
            <img className="sb-challenge-image" src={challenge.image} width={160} height={56} alt="图形验证码图片，图中为5位数字" />
          </>
        ) : null}
        <button type="submit" name="intent" value="challenge" formNoValidate className="p-button p-button-text">
          换一张
        </button>
      </div>
      <small id={hintId} className="sb-hint">
        {challenge ? "获取验证码前，请输入图片中的5位数字；看不清可点「换一张」" : `图形验证码获取失败：${failure ?? "请稍后重试"}`}
      </small>
    </>
  );
}

/** 「获取验证码」, 「重新获取」 once one was sent (counting down with JavaScript). */
function SendCodeButton({ state }: { state: CodeState | undefined }) {
  return (
    <>
      {state?.codeSent ? <input type="hidden" name="codeSent" value="1" /> : null}
      <button
        type="submit"
        name="intent"
        value="send"
        formNoValidate
        className="p-button p-button-outlined"
        data-resend-seconds={state?.countdown || undefined}
      >
        {state?.codeSent ? "重新获取" : "获取验证码"}
      </button>
    </>
  );
}

/** The voice code, offered once the number has had two codes by SMS. */
function VoiceCodeOffer({ state }: { state: CodeState | undefined }) {
  if (!state?.voiceOffered) return null;
  return (
    <p className="sb-voice-offer">
      <input type="hidden" name="offerVoice" value="1" />
      <button
        type="submit"
        name="intent"
        value="voice"
        formNoValidate
        className="p-button p-button-link"
        data-resend-seconds={state.countdown || undefined}
      >
        收不到短信？改用语音验证码
      </button>
    </p>
  );
}

/** The countdown script, only on a page that has something to count down. */
export function ResendCountdownScript({ state }: { state: CodeState | undefined }) {
  return state?.countdown ? <EnhancementScript src={resendCountdown} /> : null;
}
