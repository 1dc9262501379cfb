/**
 * What each form of the server's page held when hydration began. The page is shown, and can be
 * clicked and typed in, before it hydrates (entry.client waits for the first paint; on a slow link
 * the scripts take seconds). A controlled input is then set back to its component's initial
 * state by the first render after hydration; its component takes this once, when it mounts, to
 * keep what the user did. Uncontrolled inputs keep it by themselves, except a textarea with text
 * by default: React's hydration puts that text back, so the root puts back what was typed.
 */
const early = new WeakMap<HTMLFormElement, FormData>();
/** The same for a text field on its own (one the page's forms do not post, such as the dial field). */
const earlyText = new WeakMap<HTMLInputElement | HTMLTextAreaElement, string>();

const TEXT_TYPES = new Set(["text", "tel", "search", "email", "url", "number"]);
let earlyTextareas: HTMLTextAreaElement[] = [];

/** Called by entry.client just before hydration. */
export function keepEarlyInput(): void {
  for (const form of Array.from(document.forms)) early.set(form, new FormData(form));
  for (const field of Array.from(document.querySelectorAll("input, textarea"))) {
    if (field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && TEXT_TYPES.has(field.type))) {
      earlyText.set(field, field.value);
    }
  }
  earlyTextareas = Array.from(document.querySelectorAll("textarea"));
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

/**
 * After hydration (the root's effect, which runs after every other component's): a textarea no
 * component took that hydration set back to its default text gets what was typed in it again.
 * Then the page is marked as hydrated.
 */
export function restoreEarlyTextareas(): void {
  for (const area of earlyTextareas) {
    const typed = takeEarlyText(area);
    if (typed !== undefined && area.value === area.defaultValue && typed !== area.value) area.value = typed;
  }
  earlyTextareas = [];
  document.documentElement.dataset.hydrated = "1";
}
