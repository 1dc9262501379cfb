import softphoneCore from "#app/softphone/softphone.js?url";
import softphoneKeys from "#app/softphone/softphone-keys.js?url";
import softphoneTones from "#app/softphone/softphone-tones.js?url";
import phoneBar from "#app/softphone/phonebar.css?url";

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
  /** Lets the page make sound; called in a click or key press (browsers keep a page silent until then). */
  unlock(): void;
  /** Plays the ring through this element (whose output device the page chooses). */
  ringer(element: HTMLAudioElement): void;
};

declare global {
  interface Window {
    Softphone?: SoftphoneSdk;
  }
}

/**
 * The SDK scripts, in the order the page loads them, and the phone bar's stylesheet (spec §2: a
 * stylesheet and three scripts from a local /cti path). The build gives each a name with its
 * content's hash under /cti (vite.config.ts), so they are cached for good and a release replaces them.
 */
export const SOFTPHONE_SCRIPTS = [softphoneCore, softphoneKeys, softphoneTones] as const;
export const PHONE_BAR_STYLESHEET = phoneBar;

export function softphone(): SoftphoneSdk {
  if (!window.Softphone) throw new Error("softphone SDK not loaded");
  return window.Softphone;
}
