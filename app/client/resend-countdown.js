// Progressive enhancement of the sign-up and reset forms (loaded as a file with the page's nonce,
// no framework): a code button marked `data-resend-seconds` (the seconds the platform said to wait
// before the next code to this number) is disabled and counts them down, then comes back; typing
// another number ends the wait (the platform counts per number). Without JavaScript the button
// stays usable and the notice above it says when to ask again; the platform refuses early asks.
(() => {
  for (const button of document.querySelectorAll("button[data-resend-seconds]")) {
    const seconds = Number(button.getAttribute("data-resend-seconds"));
    if (!(seconds > 0)) continue;
    const label = button.textContent;
    const until = Date.now() + seconds * 1000;
    const mobile = button.form && button.form.elements.namedItem("mobile");
    const number = mobile ? mobile.value : "";
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0 || (mobile && mobile.value !== number)) {
        button.disabled = false;
        button.textContent = label;
        return;
      }
      button.disabled = true;
      button.textContent = `${label}（${left} 秒）`;
      // Measured against the end, so a slow or sleeping tab does not drift.
      setTimeout(tick, 250);
    };
    tick();
  }
})();
