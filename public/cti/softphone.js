/*
 * Switchboard softphone SDK: the phone bar's transport. It talks only to the console that served
 * the page — the actions endpoint (form posts carrying the CSRF token) — never to the platform,
 * so no upstream token reaches the browser. Events arrive on the console's event stream.
 *
 *   Softphone.configure({ endpoint: "/workBench/phone", csrf: "<token>" });
 *   Softphone.act("call", { action: "answer" })  // → Promise<{ ok, status, body }>
 */
(function () {
  var config = { endpoint: "/workBench/phone", csrf: "" };
  var Softphone = (window.Softphone = window.Softphone || {});

  Softphone.configure = function (options) {
    for (var key in options) config[key] = options[key];
  };

  /** Posts one action; never throws: a network failure answers { ok: false, status: 0 }. */
  Softphone.act = function (intent, fields) {
    var form = new URLSearchParams();
    form.set("csrf", config.csrf);
    form.set("intent", intent);
    for (var key in fields || {}) {
      var value = fields[key];
      if (value !== undefined && value !== null) form.set(key, typeof value === "string" ? value : JSON.stringify(value));
    }
    return fetch(config.endpoint, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    }).then(
      function (response) {
        return response
          .json()
          .catch(function () {
            return null;
          })
          .then(function (body) {
            return { ok: response.ok && !!body && body.ok === true, status: response.status, body: body };
          });
      },
      function () {
        return { ok: false, status: 0, body: null };
      },
    );
  };

  /** Reads the screen pop of the agent's current call (customer, script, records). */
  Softphone.read = function (query) {
    var url = config.endpoint + (query ? "?" + new URLSearchParams(query).toString() : "");
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(
      function (response) {
        return response.ok ? response.json() : null;
      },
      function () {
        return null;
      },
    );
  };
})();
