// Progressive enhancement of a confirmation step (app/components/confirm.tsx; loaded as a file with
// the page's nonce, no framework): Escape leaves the step as its 取消 link does (the page again at
// the link's address). Not while an input method is composing: there Escape ends the composition.
// Without JavaScript the step is the same page, left with 取消.
(() => {
  const cancel = document.querySelector("a[data-confirm-cancel]");
  if (!cancel) return;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.isComposing || event.defaultPrevented) return;
    event.preventDefault();
    cancel.click();
  });
})();
