/** Whether the agent is typing in `element` (a field that takes text or a choice from a list). */
function typingIn(element: Element | null): boolean {
  if (!element || !(element instanceof HTMLElement)) return false;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !["radio", "checkbox", "button", "submit", "reset"].includes(element.type);
}

/**
 * Moves the focus to `target` when the phone's state makes it the next thing to use (a call
 * answered, a call ended with its result to write), so a keyboard user is not left on the page's
 * body. A field the agent is typing in, or an open dialog, keeps the focus.
 */
export function focusNext(target: HTMLElement | null | undefined): void {
  const active = document.activeElement;
  if (!target || typingIn(active) || active?.closest("dialog[open], [role=alertdialog], [role=dialog]")) return;
  target.focus();
}
