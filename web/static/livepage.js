// What the live pages share (event.js, queue.js, table.js, live.js): a stream of the server's
// pushes (server-sent events, resumed with Last-Event-ID) with the dot (#live) lit while it is
// open, a reading of the page again that runs one at a time (a push that comes while one runs
// asks for one more after it, however many came), and the swap of a region read again that
// keeps what the viewer is typing.
"use strict";
window.livePage = {
  stream(url) {
    const source = new EventSource(url);
    const dot = document.getElementById("live");
    source.onopen = () => dot && dot.classList.add("on");
    source.onerror = () => dot && dot.classList.remove("on");
    return source;
  },
  // a live region read again, swapped in without losing what the viewer is typing: a field
  // they changed (its value is not the one the page was drawn with) is carried into the same
  // field of the fresh copy (same form action, same name), and the focus and caret stay; an
  // open <details> stays open. A form the fresh copy no longer has takes its edits with it.
  swap(here, fresh) {
    const fields = (root) => root.querySelectorAll("input, textarea, select");
    const key = (el) => {
      const form = el.closest("form");
      const where = form ? (form.id || form.getAttribute("action") || "") : "";
      return where + "|" + el.name + (el.type === "radio" ? "=" + el.value : "");
    };
    const changed = (el) => {
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") return [...el.options].some((o) => o.selected !== o.defaultSelected);
      return el.value !== el.defaultValue;
    };
    const edited = new Map();
    for (const el of fields(here)) {
      if (el.name && el.type !== "hidden" && changed(el)) edited.set(key(el), el);
    }
    const active = here.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = active && active.name ? key(active) : null;
    let caret = null;
    try { caret = active ? [active.selectionStart, active.selectionEnd] : null; } catch (e) { caret = null; }
    const open = new Set([...here.querySelectorAll("details[open]")].map((d) => d.id).filter(Boolean));
    here.innerHTML = fresh.innerHTML;
    for (const el of fields(here)) {
      const old = el.name ? edited.get(key(el)) : undefined;
      if (!old || old.tagName !== el.tagName || old.type !== el.type) continue;
      if (el.type === "checkbox" || el.type === "radio") el.checked = old.checked;
      else if (el.tagName === "SELECT") [...el.options].forEach((o, i) => { o.selected = !!(old.options[i] && old.options[i].selected && old.options[i].value === o.value); });
      else el.value = old.value;
    }
    for (const id of open) { const d = document.getElementById(id); if (d && here.contains(d)) d.open = true; }
    if (focusKey) {
      const again = [...fields(here)].find((el) => el.name && key(el) === focusKey);
      if (again) {
        again.focus();
        try { if (caret && caret[0] !== null) again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* no caret here */ }
      }
    }
  },
  oneAtATime(read) {
    let busy = false, again = false;
    async function run() {
      if (busy) { again = true; return; }
      busy = true;
      try {
        await read();
      } finally {
        busy = false;
        if (again) { again = false; run(); }
      }
    }
    return run;
  },
};
