// The referees' queue, kept live: /api/queue/events says when it changed, and the page's
// list is read again from /queue (the same server-rendered cards).
"use strict";
(function () {
  const root = document.getElementById("queue");
  if (!root) return;
  const dot = document.getElementById("live");
  const source = new EventSource("/api/queue/events?after=" + (root.dataset.after || "0"));
  source.onopen = () => dot && dot.classList.add("on");
  source.onerror = () => dot && dot.classList.remove("on");
  let busy = false, again = false;
  async function reload() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("queue");
      if (fresh) { root.innerHTML = fresh.innerHTML; root.dataset.after = fresh.dataset.after; }
    } finally {
      busy = false;
      if (again) { again = false; reload(); }
    }
  }
  source.addEventListener("queue", reload);
})();
