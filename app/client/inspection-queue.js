// The live inspection queue (decision 033; loaded as a file with the page's nonce, no framework).
// The page is the server's snapshot with its 数据时间; this script reads the tenant's inspection
// changes from /inspectionSuccess/events (the one event stream, replayed from the snapshot's start)
// and sets the rows shown in place: status, influence, score, inspector, appeal, and whether the
// row opens for scoring. A call entering or leaving the list's filter on inspection state reloads
// the list (the page's own GET, as it is now) instead of guessing where it goes. Everything it
// needs (codes, labels, the filter) comes from the markup's data-qc-live; the forms stay forms.
(() => {
  const region = document.querySelector("[data-qc-live]");
  if (!region || typeof EventSource === "undefined") return;
  const config = JSON.parse(region.dataset.qcLive);
  const { filter } = config;
  const filtered = filter.qcStatus !== null || filter.mine || filter.appealState !== null;
  let lastId = config.startId;
  let state = "connecting";
  let source = null;
  let failures = 0;
  let reloadTimer = 0;
  let reloading = false;
  let again = false;

  function showState(next) {
    state = next;
    const status = region.querySelector("[data-qc=stream]");
    if (status) status.textContent = ` ${config.streamLabels.prefix}${config.streamLabels[state]}`;
  }

  // The time as the server writes it (China Standard Time, app/lib/format.ts's formatDateTime).
  const cst = (iso) => new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");

  function tag(table, code) {
    const known = table[code];
    if (!known) return "—";
    const span = document.createElement("span");
    span.className = `p-tag p-component p-tag-${known[1]}`;
    span.textContent = known[0];
    return span;
  }

  const matches = (call) =>
    (filter.qcStatus === null || call.qcStatus === filter.qcStatus) &&
    (!filter.mine || (call.qcStatus === config.checking && call.inspectorId === config.userId)) &&
    (filter.appealState === null || call.appealState === filter.appealState);

  // Sets a shown call's cells; answers whether the list must be reloaded (the call left the
  // filter, or one not shown may have entered it).
  function apply(call) {
    const cells = region.querySelectorAll(`[data-call="${call.callId}"]`);
    if (cells.length === 0) return filtered && matches(call);
    for (const cell of cells) {
      const field = cell.dataset.qc;
      if (field === "status") cell.replaceChildren(tag(config.status, call.qcStatus));
      else if (field === "influence") cell.replaceChildren(call.influence === null ? "—" : tag(config.influence, call.influence));
      else if (field === "score") cell.textContent = call.score === null ? "—" : String(call.score);
      else if (field === "inspector") cell.textContent = call.inspectorName ?? "—";
      else if (field === "appeal") cell.replaceChildren(call.appealState ? tag(config.appeal, call.appealState) : "—");
      else if (field === "action") {
        const verb = call.qcStatus === config.checking && call.inspectorId === config.userId ? config.verbs.score : config.verbs.view;
        cell.textContent = verb;
        cell.setAttribute("aria-label", `${verb}${config.verbs.call} ${call.callId}`);
      }
    }
    return !matches(call);
  }

  // The list as the server has it now, swapped in with the ticked rows kept ticked.
  async function reload() {
    if (reloading) return void (again = true);
    reloading = true;
    try {
      const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
      const fresh = response.ok && new DOMParser().parseFromString(await response.text(), "text/html").querySelector("[data-qc-live]");
      if (fresh) {
        const ticked = new Set([...region.querySelectorAll("input[name=ids]:checked")].map((box) => box.value));
        region.replaceChildren(...fresh.childNodes);
        for (const box of region.querySelectorAll("input[name=ids]")) box.checked = ticked.has(box.value);
        showState(state);
      }
    } catch {
      // The next change tries again; the page stays as it was.
    } finally {
      reloading = false;
      if (again) {
        again = false;
        void reload();
      }
    }
  }

  function open() {
    source?.close();
    source = new EventSource(`${config.stream}?lastEventId=${lastId}`);
    source.onopen = () => {
      failures = 0;
      showState("open");
    };
    source.onmessage = (message) => {
      const notification = JSON.parse(message.data);
      if (notification.type !== config.type || notification.id <= lastId) return;
      lastId = notification.id;
      let stale = false;
      for (const call of notification.payload.calls) stale = apply(call) || stale;
      const asOf = region.querySelector("[data-qc=asOf]");
      if (asOf) asOf.textContent = cst(notification.at);
      if (stale) {
        window.clearTimeout(reloadTimer);
        reloadTimer = window.setTimeout(reload, 200);
      }
    };
    source.onerror = () => {
      showState(navigator.onLine ? "reconnecting" : "offline");
      // CLOSED: the browser gave up (a refusal, the session ended); try again ourselves, slower.
      if (source.readyState === EventSource.CLOSED) window.setTimeout(open, Math.min(30_000, 1_000 * ++failures));
    };
  }

  showState(state);
  open();
  window.addEventListener("online", open);
})();
