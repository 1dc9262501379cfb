/**
 * What each form of the server's page held when hydration began. The page is shown, and can be
 * clicked and typed in, before it hydrates (entry.client waits for the first paint; on a slow link
 * the scripts take seconds). A controlled input is then set back to its component's initial
 * state by the first render after hydration; its component takes this once, when it mounts, to
 * keep what the user did. (Uncontrolled inputs keep it by themselves.)
 */
const early = new WeakMap<HTMLFormElement, FormData>();

/** Called by entry.client just before hydration. */
export function keepEarlyInput(): void {
  for (const form of Array.from(document.forms)) early.set(form, new FormData(form));
}

/** What `form` held before hydration, once; nothing for a form rendered in the browser. */
export function takeEarlyInput(form: HTMLFormElement | null): FormData | undefined {
  if (!form) return undefined;
  const data = early.get(form);
  early.delete(form);
  return data;
}
