// The table page: an entry box judged as you type (nothing stored), entries recorded with
// If-Match, undo with a reason, disputes, and the position kept live from the game's events.
"use strict";
(function () {
  const root = document.getElementById("table");
  if (!root) return;
  const gameId = root.dataset.game;
  let version = Number(root.dataset.version);
  const api = "/api/games/" + encodeURIComponent(gameId);
  const $ = (id) => document.getElementById(id);

  // -- a reload while the server cannot be reached (REF-9.4) ---------------------------------
  // table-sw.js keeps the last copy of this page and of its panel: offline, a reload shows
  // them and the outbox below is the same. A page opened before the worker was there is put
  // in its cache here, once. The newest version this tab has seen is kept for the tab: a
  // kept page older than that reads its kept panel, so entries taken after the reload are
  // based on the position last seen, not on the page's older one (no false branch).
  const CACHE = "referee-table-v1";  // table-sw.js's, forgotten at sign-in (login.html)
  if (navigator.serviceWorker) {
    const controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register("/table-sw.js", { scope: "/games/" })
      .then(() => { if (!controlled && window.caches) return caches.open(CACHE).then((c) => c.add(location.pathname)); })
      .catch(() => {});
  }
  const seenKey = "referee-seen:" + gameId;
  function seen(v) {
    try { sessionStorage.setItem(seenKey, String(v)); } catch (e) { /* no storage: nothing kept */ }
  }
  function lastSeen() {
    try { return Number(sessionStorage.getItem(seenKey) || 0); } catch (e) { return 0; }
  }

  function clauseHtml(v) {
    return '<span class="clause">' + esc(v.clause) + "</span> " + esc(v.reason);
  }
  function esc(text) {
    const d = document.createElement("div");
    d.textContent = text == null ? "" : String(text);
    return d.innerHTML;
  }
  function newKey() {  // crypto.randomUUID needs a secure context; a LAN address over http is not one
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }
  async function send(method, url, body, withVersion, key) {
    const headers = { "Content-Type": "application/json", "Idempotency-Key": key || newKey() };
    if (withVersion) headers["If-Match"] = '"' + version + '"';
    const response = await fetch(url, { method, headers, body: JSON.stringify(body), credentials: "same-origin" });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    return { status: response.status, data };
  }
  function showResult(kind, html) {
    const out = $("result");
    out.className = "result " + kind;
    out.innerHTML = html;
  }
  function problemHtml(data) {
    if (data.violations) return esc(data.title) + ": " + data.violations.map(clauseHtml).join("; ") +
      " (kept as evidence, event " + esc(data.event) + ")";
    if (data.clause) return '<span class="clause">' + esc(data.clause) + "</span> " + esc(data.reason || data.detail);
    return esc(data.detail || data.title || "refused");
  }

  // -- the live part of the page ---------------------------------------------------------
  const refresh = livePage.oneAtATime(async () => {
    try {
      const flip = root.classList.contains("flipped");
      const response = await fetch("/games/" + encodeURIComponent(gameId) + "/panel", { credentials: "same-origin" });
      if (response.ok) {
        const p = await response.json();
        if (p.version < version) return;  // a kept copy older than the page (table-sw.js)
        version = p.version;
        seen(version);
        root.dataset.version = String(version);
        $("board").innerHTML = p.board;
        $("status").textContent = p.status;
        $("last").textContent = p.last ? "last: " + p.last : "";
        const awaited = $("awaited");
        if (awaited) {
          awaited.textContent = p.awaited || "";
          awaited.hidden = !p.awaited;
          $("legal-box").hidden = !!p.awaited;
        }
        const legal = $("legal");
        if (legal) {
          legal.innerHTML = "";
          for (const a of p.legal) {
            const b = document.createElement("button");
            b.type = "button"; b.textContent = a;
            legal.appendChild(b);
          }
          $("legal-count").textContent = p.legal_total ? "(" + p.legal_total + ")" : "";
        }
        const log = $("log");
        log.innerHTML = p.log.map((e) => "<li>" + esc(e.line) + "</li>").join("");
        root.classList.toggle("over", p.over);
        if (flip) root.classList.add("flipped");
        document.dispatchEvent(new CustomEvent("referee:refreshed", { detail: { version } }));
      }
    } catch (e) {
      // the server cannot be reached: the page stays as it was (entries go to the outbox)
    }
  });
  function follow() {
    const source = livePage.stream(api + "/events?after=" + version);
    const onEvent = () => refresh();
    for (const kind of ["action", "rejected", "retracted", "ended", "voided", "dispute", "ruling", "appeal",
                        "deck", "deck-opened", "ruling-needed", "adjustment", "penalty", "penalty-withdrawal", "withdrawn", "created"]) {
      source.addEventListener(kind, onEvent);
    }
  }

  // -- the outbox: entries taken while the server cannot be reached (REF-9.4) ---------------------
  // kept in this browser, marked "pending, not yet judged", and sent in order with their keys and
  // the version they were entered on when the server answers again; the server judges them then
  const boxKey = "referee-outbox:" + gameId;
  function outbox() {
    try { return JSON.parse(localStorage.getItem(boxKey) || "[]"); } catch (e) { return []; }
  }
  function showOutbox() {
    const items = outbox();
    let list = $("outbox");
    if (!list) {
      const anchor = $("result");
      if (!anchor) return;
      list = document.createElement("ul");
      list.id = "outbox"; list.className = "outbox";
      anchor.parentNode.insertBefore(list, anchor.nextSibling);
    }
    const waiting = items.some((p) => !p.rejected);
    const hold = held && waiting
      ? '<li class="held" id="outbox-held">not sent: ' + held +
        ' <button type="button" class="send-again" id="send-again">send again</button></li>'
      : "";
    list.innerHTML = hold + items.map((p, i) => p.rejected
      ? '<li class="rejected">' + esc(p.text) + " — sent when the server answered: rejected, " +
        p.rejected.map(clauseHtml).join("; ") + (p.event ? " (kept as evidence, event " + esc(p.event) + ")" : "") +
        ' <button type="button" class="seen" data-seen="' + i + '">seen</button></li>'
      : '<li class="pending">' + esc(p.text) + " — pending, not yet judged</li>").join("");
    list.hidden = !items.length;
  }
  // a pending entry the server rejected when it answered stays listed, with its clause,
  // until the judge marks it seen: it is never dropped unseen
  // a batch the server refused as a whole (signed out, a role that may not: 4xx) is held, with
  // why, and not sent again every two seconds: the judge sends it again once it is put right
  let held = "";
  document.addEventListener("click", (ev) => {
    if (ev.target.closest && ev.target.closest("#outbox button.send-again")) {
      held = "";
      showOutbox();
      flushOutbox();
    }
  });
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("#outbox button.seen");
    if (!b) return;
    const items = outbox();
    items.splice(Number(b.dataset.seen), 1);
    saveOutbox(items);
  });
  const pending = () => outbox().filter((p) => !p.rejected);
  function saveOutbox(items) {
    if (items.length) localStorage.setItem(boxKey, JSON.stringify(items)); else localStorage.removeItem(boxKey);
    showOutbox();
  }
  // key: the one an entry was sent live under when no answer came (the server may have
  // stored it: sent again under its key, the server knows it and makes no second line of play)
  function queueEntry(text, seat, key) {
    const items = outbox(), waiting = items.filter((p) => !p.rejected);
    items.push({ text, seat, key: key || newKey(), base_version: waiting.length ? waiting[0].base_version : version,
                 judged_on: version, recorded_at: new Date().toISOString() });
    saveOutbox(items);
  }
  // this browser's name in a branch (REF-9.5): two devices of one referee told apart
  function device() {
    let id = "";
    try {
      id = localStorage.getItem("referee-device") || "";
      if (!id) {
        id = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, "0")).join("");
        localStorage.setItem("referee-device", id);
      }
    } catch (e) { /* no storage: unnamed */ }
    return id ? "table page " + id : "table page";
  }
  let flushing = false;
  async function flushOutbox() {
    const items = pending();
    if (!items.length || flushing || held) return;
    flushing = true;
    try {
      const entries = items.map((p) => ({ text: p.text, seat: p.seat, key: p.key, recorded_at: p.recorded_at, judged_on: p.judged_on }));
      const response = await fetch(api + "/offline", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Idempotency-Key": "batch-" + items[0].key },
        body: JSON.stringify({ device: device(), base_version: items[0].base_version, entries }),
      });
      let data = {};
      try { data = await response.json(); } catch (e) { data = {}; }
      if (response.status === 200) {
        // each entry's fate, in the order sent: the rejected ones stay listed with their clauses
        const results = data.outcome === "merged" && Array.isArray(data.results) ? data.results : [];
        const fate = new Map(items.map((q, i) => [q.key, results[i]]));
        saveOutbox(outbox().flatMap((p) => {
          if (!fate.has(p.key)) return [p];
          const r = fate.get(p.key);
          if (r && r.status === "rejected") return [Object.assign({}, p, { rejected: r.violations || [], event: r.event })];
          return [];
        }));
        const refused = results.filter((r) => r && r.status === "rejected").length;
        if (data.outcome === "merged" && refused) {
          showResult("bad", "sent " + items.length + " pending entries: " + (items.length - refused) + " stored, " +
            refused + " rejected (listed below with the clause broken)");
        } else if (data.outcome === "merged") {
          showResult("good", "sent " + items.length + " pending entries: judged and stored");
        } else {
          showResult("bad", "branches disagree: the game moved while the server could not be reached; your " +
            items.length + " entries are kept for the head referee (REF-9.5)" + (data.reason ? ": " + esc(data.reason) : ""));
        }
        refresh();
      } else if (response.status >= 400 && response.status < 500 && response.status !== 409) {
        held = problemHtml(data) + (response.status === 401 || response.status === 403
          ? " (sign in again in another tab; the entries stay in this browser)" : "");
        showResult("bad", "the pending entries were refused: " + problemHtml(data));
        showOutbox();
      }
    } catch (e) {
      // still out of reach: try again later
    } finally {
      flushing = false;
    }
  }
  showOutbox();
  flushOutbox();
  setInterval(flushOutbox, 2000);

  // -- the entry box ------------------------------------------------------------------------------
  let timer = null, asked = 0;
  async function check() {
    const text = $("entry").value.trim();
    const out = $("check");
    if (!text) { out.textContent = ""; out.className = "check"; return; }
    const mine = ++asked;
    const seat = $("seat") ? $("seat").value || null : null;
    let r;
    try {
      r = await send("POST", api + "/check", { text, seat }, false);
    } catch (e) {
      out.className = "check";
      out.textContent = "the server cannot be reached: the entry is judged when it answers";
      return;
    }
    if (mine !== asked) return;
    if (r.status === 200 && r.data.accepted) {
      out.className = "check legal";
      out.innerHTML = "legal: " + esc(r.data.notation) + " by " + esc(r.data.seat) + " (not recorded yet)";
    } else if (r.status === 200) {
      out.className = "check illegal";
      out.innerHTML = "would be rejected: " + r.data.violations.map(clauseHtml).join("; ");
    } else {
      out.className = "check illegal";
      out.innerHTML = problemHtml(r.data);
    }
  }
  const entry = $("entry");
  const legalList = $("legal");
  if (legalList) legalList.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    entry.value = b.textContent; entry.focus(); check();
  });
  // a click on the drawing (a square, hex, unit, card) adds its notation to the entry line:
  // straight after a space or one of the drawing's glue characters (data-glue), else after
  // the element's (or the drawing's) joiner, a space unless it says otherwise (data-join)
  const boardArea = $("board");
  if (entry && boardArea) boardArea.addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-notation]");
    if (!el || !boardArea.contains(el)) return;
    const svg = el.closest("svg");
    const glue = (svg && svg.dataset.glue) || "";
    const text = entry.value;
    const tail = text.slice(-1);
    const join = !text || /\s/.test(tail) || glue.includes(tail) ? "" : (el.dataset.join || (svg && svg.dataset.join) || " ");
    entry.value = text + join + el.dataset.notation;
    entry.focus(); check();
  });
  if (entry) {
    entry.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 120); });
    $("entry-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = entry.value.trim();
      if (!text) return;
      const seat = $("seat") ? $("seat").value || null : null;
      $("record").disabled = true;
      if (pending().length) {  // in order: behind the entries still pending
        queueEntry(text, seat);
        entry.value = ""; $("check").textContent = "";
        showResult("bad", esc(text) + " is pending, not yet judged: sent after the entries before it");
        $("record").disabled = false;
        flushOutbox();
        return;
      }
      try {
        let r;
        const key = newKey();
        try {
          r = await send("POST", api + "/entries", { text, seat }, true, key);
        } catch (e) {  // no answer: the server could not be reached, or its answer was lost
          queueEntry(text, seat, key);
          entry.value = ""; $("check").textContent = "";
          showResult("bad", "the server cannot be reached: " + esc(text) + " is pending, not yet judged; " +
            "it is sent when the server answers");
          return;
        }
        if (r.status === 201) {
          showResult("good", "recorded " + esc(r.data.notation) + " by " + esc(r.data.seat) + " (event " + esc(r.data.event) + ")" +
            (r.data.ended ? " — game over" : ""));
          entry.value = ""; $("check").textContent = "";
        } else if (r.status === 422) {
          showResult("bad", "rejected: " + problemHtml(r.data));
        } else if (r.status === 412 || (r.status === 409 && /concurrent-write|idempotency/.test(r.data.type || ""))) {
          showResult("bad", problemHtml(r.data) + " — the position was reloaded; enter again if it still stands");
        } else {
          showResult("bad", "refused: " + problemHtml(r.data));
        }
      } finally {
        $("record").disabled = false;
        await refresh();
        entry.focus();
      }
    });
  }
  // the referee's forms (retract, back up, adjust, penalty, disputes): posted as plain forms
  // (they work without this script); here they are sent in the background and the answer,
  // or the refusal with its clause, is shown without leaving the page
  async function reloadToolkit() {
    const response = await fetch(location.pathname, { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("toolkit"), here = $("toolkit");
    if (fresh && here) livePage.swap(here, fresh);
  }
  function freshKey(form) {  // a form's idempotency key (web/formkeys.py), made here as the page would
    const field = form.querySelector('input[name="idem"]');
    if (!field) return;
    const bytes = crypto.getRandomValues(new Uint8Array(16));  // also outside a secure context
    field.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function formData(form, submitter) {  // the pressed button's name=value too (End: how)
    try { return new FormData(form, submitter || undefined); } catch (e) {
      const data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
      return data;
    }
  }
  document.addEventListener("submit", async (ev) => {
    const form = ev.target.closest("form.tool");
    if (!form) return;
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    let data = { ok: false, message: "the server could not be reached" };
    try {
      const response = await fetch(form.action, {
        method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
        body: new URLSearchParams(formData(form, ev.submitter)),
      });
      try { data = await response.json(); } catch (e) { data = { ok: false, message: "the server did not answer (" + response.status + ")" }; }
    } finally {
      if (button) button.disabled = false;
      // only a recorded change redraws the forms: a refusal keeps what was typed, to be
      // corrected; the answer is shown once the redraw is done, so nothing typed after
      // reading it is wiped by a redraw still under way
      await refresh();
      if (data.ok) {
        form.reset();  // what was sent is done: the redraw keeps only what is typed elsewhere
        await reloadToolkit();
        // extra time given: the table's clock (clock.js) reads the round clock again now
        if (form.dataset.tool === "extend") document.dispatchEvent(new CustomEvent("referee:clock"));
      }
      else freshKey(form);  // the refused values are kept; corrected, they go under a key of their own
      // a refusal before the form was read (the role may not: a guard's) is a problem document
      const said = esc(data.message || data.detail || "refused");
      showResult(data.ok ? "good" : "bad", said);
      sayAtForm(form, data.ok ? "good" : "bad", said);
    }
  });
  // the answer said under the form that was sent too: on a phone the toolkit is far below
  // the entry box's answer, so a referee who pressed "Give extra time" saw nothing happen
  // and might press it again (a second extension, under a fresh key)
  function sayAtForm(form, kind, html) {
    const action = form.getAttribute("action");
    const here = [...document.querySelectorAll("form.tool")].find((f) => f.getAttribute("action") === action) || form;
    let note = here.nextElementSibling;
    if (!note || !note.classList.contains("tool-said")) {
      note = document.createElement("p");
      note.setAttribute("role", "status");
      here.after(note);
    }
    note.className = "tool-said result " + kind;
    note.innerHTML = html;
  }
  const kind = () => $("adjust-kind");
  document.addEventListener("change", (ev) => {
    if (ev.target === kind() && $("adjust-changes")) {
      const option = kind().selectedOptions[0];
      $("adjust-changes").placeholder = (option ? option.dataset.rest : "") + " (';' between changes)";
    }
  });
  const flip = $("flip");
  if (flip) flip.addEventListener("click", () => root.classList.toggle("flipped"));
  if (lastSeen() > version) refresh();  // a kept page: the position last seen (table-sw.js)
  else seen(version);
  follow();
})();
