/**
 * Typed access to the softphone SDK (public/cti/*.js), which the voice workbench routes load.
 * The SDK talks only to the console (its actions endpoint); events come on the event stream.
 */
export type SoftphoneAnswer = { ok: boolean; status: number; body: { ok?: boolean; message?: string; [key: string]: unknown } | null };

type SoftphoneSdk = {
  configure(options: { endpoint: string; csrf: string }): void;
  act(intent: string, fields?: Record<string, unknown>): Promise<SoftphoneAnswer>;
  read(query?: Record<string, string>): Promise<unknown>;
  shortcuts: Record<"answer" | "hangup" | "ready" | "notReady", string>;
  tone(digit: string): void;
  ring(on: boolean): void;
};

declare global {
  interface Window {
    Softphone?: SoftphoneSdk;
  }
}

/** The SDK scripts, in the order the page loads them (spec §2: a stylesheet and three scripts). */
export const SOFTPHONE_SCRIPTS = ["/cti/softphone.js", "/cti/softphone-keys.js", "/cti/softphone-tones.js"] as const;
export const PHONE_BAR_STYLESHEET = "/cti/phonebar.css";

export function softphone(): SoftphoneSdk {
  if (!window.Softphone) throw new Error("softphone SDK not loaded");
  return window.Softphone;
}
