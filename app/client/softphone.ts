/**
 * Typed access to the softphone SDK (public/cti/*.js), which the voice workbench routes load: the
 * phone's local side (keyboard shortcuts, ring and keypad tones). Actions go to the console as
 * every island's do (app/client/island.ts); events come on the event stream.
 */
export type ShortcutAction = "answer" | "hangup" | "ready" | "notReady";

type SoftphoneSdk = {
  on(name: "shortcut", handler: (detail: { action: ShortcutAction }) => void): () => void;
  shortcuts: Record<ShortcutAction, string>;
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
