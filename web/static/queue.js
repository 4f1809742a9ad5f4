// The referees' queue, kept live: /api/queue/events (with this page's own settings, ?idle=
// and ?time_limit=) says when it changed, and the list is read again from /queue (the same
// server-rendered cards). Ages tick here every few seconds, from the server's time at the
// last reading, so they never freeze between two pushes.
"use strict";
(function () {
  const root = document.getElementById("queue");
  if (!root) return;
  const settings = new URLSearchParams(location.search);
  let offset = 0; // server time minus this browser's, at the last reading
  function synced() {
    const now = Date.parse(root.dataset.now || "");
    offset = isNaN(now) ? 0 : now - Date.now();
  }
  function tick() {
    const now = Date.now() + offset;
    root.querySelectorAll(".age[data-since]").forEach((el) => {
      const since = Date.parse(el.dataset.since);
      if (isNaN(since)) return;
      const minutes = Math.max(0, (now - since) / 60000);
      el.textContent = (Math.round(minutes * 10) / 10) + " min";
    });
  }
  const query = new URLSearchParams();
  query.set("after", root.dataset.after || "0");
  for (const key of ["idle", "time_limit", "call_after"]) if (settings.has(key)) query.set(key, settings.get(key));
  const source = livePage.stream("/api/queue/events?" + query.toString());
  const reload = livePage.oneAtATime(async () => {
    const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("queue");
    if (fresh) {
      livePage.swap(root, fresh);
      root.dataset.after = fresh.dataset.after;
      root.dataset.now = fresh.dataset.now;
      synced();
      tick();
    }
  });
  source.addEventListener("queue", reload);
  synced();
  tick();
  setInterval(tick, 5000);
})();
