// Progressive enhancement of the call detail (decision 032; loaded as a file with the page's
// nonce, no framework). The recording player does what React does where the page hydrates, from
// the markup of app/components/call-conversation.tsx: the speed input (its min and max are the
// rule) remembered per agent, 导出录音 with its notice, a customer line seeking the recording, and
// the line being played highlighted. Without JavaScript the native controls and 下载录音 remain.
// The work-order card shows a chosen template's fields at once (it posts 换用此模板).
// The dialog by keyboard: Escape follows 关闭 (not while an input method is composing), and Tab
// cycles within the dialog. Focus moves in with the server's autofocus and returns to the row's
// link through 关闭's fragment, both without JavaScript.
(() => {
  const dialog = document.querySelector("[role=dialog]");
  const close = dialog?.querySelector("a[data-dialog-close]");
  if (close) {
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !event.isComposing && !event.defaultPrevented) {
        event.preventDefault();
        close.click();
      }
      if (event.key !== "Tab") return;
      const focusable = [...dialog.querySelectorAll("a[href],button,input,select,textarea,audio[controls]")].filter(
        (item) => !item.disabled && item.getClientRects().length > 0,
      );
      const [first, last] = event.shiftKey ? [focusable.at(-1), focusable[0]] : [focusable[0], focusable.at(-1)];
      const active = document.activeElement;
      // Past the end, or from outside the dialog (a click on the mask): to the other end.
      if (active === last || !dialog.contains(active)) {
        event.preventDefault();
        first.focus();
      }
    });
  }

  const switchTemplate = document.querySelector("button[name=switchTemplate]");
  if (switchTemplate) {
    switchTemplate.hidden = true;
    switchTemplate.form.elements
      .namedItem("templateId")
      .addEventListener("change", () => switchTemplate.form.requestSubmit(switchTemplate));
  }

  const root = document.querySelector("[data-call-player]");
  if (!root) return;
  const audio = root.querySelector("audio");
  const speedInput = root.querySelector("input[type=number]");
  const texts = JSON.parse(root.dataset.texts || "{}");
  const lines = [...root.querySelectorAll("li[data-start][data-end]")];
  let toastTimer = 0;

  function notify(severity, text) {
    root.querySelector(".sb-toast")?.remove();
    window.clearTimeout(toastTimer);
    const toast = document.createElement("div");
    toast.className = "p-toast p-component p-toast-top-center sb-toast";
    toast.setAttribute("role", "status");
    toast.setAttribute("aria-live", "polite");
    const icon = severity === "success" ? "pi-check" : "pi-exclamation-triangle";
    toast.innerHTML = `<div class="p-toast-message p-toast-message-${severity}"><div class="p-toast-message-content"><span class="p-toast-message-icon pi ${icon}" aria-hidden="true"></span><div class="p-toast-message-text"><span class="p-toast-summary"></span></div></div></div>`;
    toast.querySelector(".p-toast-summary").textContent = text;
    root.append(toast);
    toastTimer = window.setTimeout(() => toast.remove(), 3000);
  }

  // Clamped to the input's range and rounded to its step; anything else is the default (its min).
  function clamp(value) {
    const min = Number(speedInput.min);
    const max = Number(speedInput.max);
    const n = Number.parseFloat(value);
    if (!Number.isFinite(n)) return min;
    return Math.round(Math.min(max, Math.max(min, n)) * 10) / 10;
  }

  function applySpeed(speed) {
    if (!audio) return;
    audio.playbackRate = speed;
    audio.defaultPlaybackRate = speed;
    audio.dataset.speed = String(speed);
  }

  let speed = clamp(window.localStorage.getItem(root.dataset.speedKey) ?? speedInput.min);
  speedInput.value = String(speed);
  speedInput.disabled = false;
  applySpeed(speed);
  speedInput.addEventListener("input", () => {
    speed = clamp(speedInput.value);
    window.localStorage.setItem(root.dataset.speedKey, String(speed));
    applySpeed(speed);
    if (!speedInput.checkValidity()) speedInput.value = speed;
  });
  // Once typed, the field shows the speed the audio really plays at (3 reads 2).
  speedInput.addEventListener("change", () => {
    speedInput.value = String(speed);
  });

  const download = root.querySelector("a[data-download]");
  const exportButton = root.querySelector("button[data-export]");
  download?.remove();
  exportButton.hidden = false;
  exportButton.addEventListener("click", () => {
    if (!download) return notify("warn", texts.noRecording);
    download.hidden = true;
    document.body.append(download);
    download.click();
    download.remove();
    notify("success", texts.exported);
  });

  function highlight(ms) {
    for (const line of lines) {
      const current = ms >= Number(line.dataset.start) && ms < Number(line.dataset.end);
      line.classList.toggle("sb-line--playing", current);
      if (current) line.setAttribute("aria-current", "true");
      else line.removeAttribute("aria-current");
    }
  }

  if (audio) {
    audio.addEventListener("loadedmetadata", () => applySpeed(speed));
    // Keep the element at the chosen speed if the browser resets it (e.g. on a new source).
    audio.addEventListener("ratechange", () => {
      if (Math.abs(audio.playbackRate - speed) > 0.01) audio.playbackRate = speed;
    });
    audio.addEventListener("timeupdate", () => highlight(audio.currentTime * 1000));
  }

  for (const button of root.querySelectorAll("button[data-seek]")) {
    button.addEventListener("click", () => {
      const start = button.closest("li").dataset.start;
      if (start === undefined || !audio) return notify("warn", texts.unsupported);
      const seconds = Number(start) / 1000;
      audio.currentTime = seconds;
      // Not loaded yet (preload="none"): the position holds only once the metadata has arrived.
      if (audio.readyState < HTMLMediaElement.HAVE_METADATA) {
        audio.addEventListener("loadedmetadata", () => (audio.currentTime = seconds), { once: true });
      }
      highlight(Number(start));
      void audio.play().catch(() => undefined);
    });
  }
})();
