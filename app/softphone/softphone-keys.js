/*
 * Switchboard softphone SDK: keyboard shortcuts of the phone bar. Alt+A answers, Alt+H hangs up,
 * Alt+R goes ready, Alt+N not ready. Each press is reported as a "shortcut" carrying the action
 * (Softphone.on("shortcut", ...)), which the phone bar performs when its state allows.
 */
(function () {
  var Softphone = (window.Softphone = window.Softphone || {});
  var keys = { a: "answer", h: "hangup", r: "ready", n: "notReady" };
  Softphone.shortcuts = { answer: "Alt+A", hangup: "Alt+H", ready: "Alt+R", notReady: "Alt+N" };

  window.addEventListener("keydown", function (event) {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    // event.code, not event.key: on macOS Alt turns letters into symbols.
    var letter = /^Key([A-Z])$/.exec(event.code || "");
    var action = letter && keys[letter[1].toLowerCase()];
    if (!action) return;
    event.preventDefault();
    if (Softphone.emit) Softphone.emit("shortcut", { action: action });
  });
})();
