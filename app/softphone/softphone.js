/*
 * Switchboard softphone SDK: the phone's local side in the agent's browser. This core defines the
 * `Softphone` namespace and a small hub through which the SDK tells the page what the agent did
 * (softphone-keys.js: keyboard shortcuts); softphone-tones.js plays the ring and keypad tones.
 * The SDK never talks to a server: the phone bar posts its actions to the console like every
 * island (app/client/island.ts), and events arrive on the console's event stream.
 *
 *   var off = Softphone.on("shortcut", function (detail) { ... detail.action ... });
 */
(function () {
  var Softphone = (window.Softphone = window.Softphone || {});
  var handlers = {};
  Softphone.version = "2.0";

  /** Calls `handler` with each `name` the SDK reports; answers the way to stop. */
  Softphone.on = function (name, handler) {
    (handlers[name] = handlers[name] || []).push(handler);
    return function () {
      handlers[name] = (handlers[name] || []).filter(function (h) {
        return h !== handler;
      });
    };
  };

  Softphone.emit = function (name, detail) {
    (handlers[name] || []).slice().forEach(function (handler) {
      handler(detail);
    });
  };
})();
