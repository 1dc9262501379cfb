/**
 * What each form of the server's page held when hydration began. The page is shown, and can be
 * clicked and typed in, before it hydrates (entry.client waits for the first paint; on a slow link
 * the scripts take seconds). A controlled input is then set back to its component's initial
 * state by the first render after hydration; its component takes this once, when it mounts, to
 * keep what the user did. (Uncontrolled inputs keep it by themselves.)
 */
const early = new WeakMap<HTMLFormElement, FormData>();
/** The same for a text field on its own (one the page's forms do not post, such as the dial field). */
const earlyText = new WeakMap<HTMLInputElement | HTMLTextAreaElement, string>();

const TEXT_TYPES = new Set(["text", "tel", "search", "email", "url", "number"]);

/** Called by entry.client just before hydration. */
export function keepEarlyInput(): void {
  for (const form of Array.from(document.forms)) early.set(form, new FormData(form));
  for (const field of Array.from(document.querySelectorAll("input, textarea"))) {
    if (field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && TEXT_TYPES.has(field.type))) {
      earlyText.set(field, field.value);
    }
  }
}

/** What `form` held before hydration, once; nothing for a form rendered in the browser. */
export function takeEarlyInput(form: HTMLFormElement | null): FormData | undefined {
  if (!form) return undefined;
  const data = early.get(form);
  early.delete(form);
  return data;
}

/** What a text field held before hydration, once; nothing for a field rendered in the browser. */
export function takeEarlyText(field: HTMLInputElement | HTMLTextAreaElement | null): string | undefined {
  if (!field) return undefined;
  const text = earlyText.get(field);
  earlyText.delete(field);
  return text;
}
