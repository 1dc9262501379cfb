/**
 * What each form of the server's page held when hydration began. The page is shown, and can be
 * clicked and typed in, before it hydrates (entry.client waits for the first paint); the first
 * render of a controlled input then sets it back to the component's initial state, and React's
 * own hydration re-checks a radio that was checked by default. A component reads this once, when
 * it mounts, to keep what the user did.
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
