// The round clock on a page: every element with data-clock shows a time left that ticks here.
// An event's clock is read from /api/events/ID/clock (the time left at that moment, computed
// by the server from the recorded marks) and counted down locally from then, read again
// every few seconds so that a pause, a resume or an extension shows; an element without an
// event counts down from its own data-remaining. The figures are the server's clock_text.
"use strict";
(function () {
  const clocks = new Map(); // event id -> { data, at }
  const loaded = performance.now();
  function text(seconds) {
    let whole = Math.floor(seconds);
    const sign = whole < 0 ? "-" : "";
    whole = Math.abs(whole);
    const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return sign + (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
  }
  function eventOf(el) {
    if (el.dataset.event) return el.dataset.event;
    if (el.dataset.table === undefined) return "";
    const page = document.getElementById("event");
    return page ? page.dataset.event || "" : "";
  }
  function figures(el) {
    const ev = eventOf(el);
    const kept = ev && clocks.get(ev);
    if (kept) {
      const data = kept.data;
      let entry = data;
      if (el.dataset.table) {
        entry = data.tables.find((t) => String(t.table) === el.dataset.table);
        if (!entry) return null;
      }
      const done = Boolean(entry.finished);
      const running = data.running && !done;
      const gone = running ? (performance.now() - kept.at) / 1000 : 0;
      return { remaining: entry.remaining_seconds - gone, running, state: done ? "done" : data.state, ext: entry.extension_minutes || 0 };
    }
    if (el.dataset.remaining === undefined) return null;
    const running = el.dataset.running === "1";
    const gone = running ? (performance.now() - loaded) / 1000 : 0;
    return { remaining: parseFloat(el.dataset.remaining) - gone, running, state: el.dataset.state || "", ext: parseInt(el.dataset.ext || "0", 10) };
  }
  function paint() {
    document.querySelectorAll("[data-clock]").forEach((el) => {
      const f = figures(el);
      if (!f) return;
      const time = el.querySelector(".clock-time");
      if (time) time.textContent = text(f.remaining);
      const state = el.querySelector(".clock-state");
      if (state && f.state) state.textContent = f.state;
      const ext = el.querySelector(".clock-ext");
      if (ext) ext.textContent = f.ext ? "+" + f.ext + " min" : "";
      el.classList.toggle("over", f.remaining < 0 && f.state !== "done");
      el.classList.toggle("stopped", !f.running);
      el.dataset.shown = "1";
    });
  }
  // What a page's clocks of one event need read: one table alone (a player's or a table's
  // page), the tables with extra time (the hall's clock), else the whole round (at 5,000
  // tables that is the whole round for every open page, every few seconds).
  function narrowed(elements) {
    const tables = new Set(elements.filter((el) => el.dataset.table !== undefined).map((el) => el.dataset.table));
    if (tables.size === 1) return "?table=" + encodeURIComponent([...tables][0]);
    if (elements.every((el) => el.dataset.table === undefined || parseInt(el.dataset.ext || "0", 10) > 0)) return "?extended=true";
    return "";
  }
  async function sync() {
    const events = new Map();
    document.querySelectorAll("[data-clock]").forEach((el) => {
      const ev = eventOf(el);
      if (ev) events.set(ev, [...(events.get(ev) || []), el]);
    });
    for (const [ev, elements] of events) {
      try {
        const response = await fetch("/api/events/" + encodeURIComponent(ev) + "/clock" + narrowed(elements), { credentials: "same-origin", cache: "no-store" });
        if (response.ok) clocks.set(ev, { data: await response.json(), at: performance.now() });
      } catch (e) { /* keep counting from the last reading */ }
    }
    paint();
    if (stale()) location.reload();
  }
  // The hall's clock page draws its round and its tables with extra time once: a new round
  // (an 'event pair' elsewhere) or a table given time by another referee reads the page again,
  // unless a control of the page is being used (then at the next reading).
  function stale() {
    const page = document.getElementById("hall-clock");
    const kept = page && clocks.get(page.dataset.event);
    if (!kept) return false;
    const controls = document.getElementById("clock-controls");
    if (controls && controls.contains(document.activeElement)) return false;
    if (String(kept.data.round) !== page.dataset.round) return true;
    // the controls offer the marks of the state they were drawn in (EV-9.2): a mark made
    // elsewhere (another head's phone, the command line) draws them again
    const round = document.getElementById("round-clock");
    if (controls && round && round.dataset.state && kept.data.state !== round.dataset.state) return true;
    const shown = new Set([...page.querySelectorAll("[data-table]")].map((el) => el.dataset.table));
    const extended = new Set((kept.data.tables || []).filter((t) => t.extension_minutes && !t.finished).map((t) => String(t.table)));
    return shown.size !== extended.size || [...extended].some((t) => !shown.has(t));
  }
  paint();
  sync();
  document.addEventListener("referee:clock", sync);  // the page changed the clock (table.js)
  setInterval(paint, 250);
  setInterval(sync, 5000);
})();

// The head referee's buttons (start, pause, resume, end) and the extension form on the clock
// page are plain forms (each posted once per its key, then the page again with what was done:
// web/hallpages.py); they need no script.
