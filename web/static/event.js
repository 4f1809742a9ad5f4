// The event pages, kept live: when the event's stream moves (/events/ID/live, server-sent
// events resumed with Last-Event-ID), the page reads itself again and swaps its live region.
"use strict";
(function () {
  // a player's own page is kept by a service worker: shown from the last copy in an outage
  if (navigator.serviceWorker && /^\/events\/[^/]+\/players\/[^/]+$/.test(location.pathname)) {
    navigator.serviceWorker.register("/player-sw.js", { scope: "/events/" }).catch(() => {});
  }
  const root = document.getElementById("event");
  if (!root || !window.EventSource) return;
  if (root.dataset.ended) return; // an ended event does not move: no live stream, no dot
  const region = document.getElementById("live-region");
  const source = livePage.stream("/events/" + encodeURIComponent(root.dataset.event) + "/live?after=" + (root.dataset.version || "0"));
  const refresh = livePage.oneAtATime(async () => {
    const response = await fetch(window.location.href, { credentials: "same-origin", cache: "no-cache" });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.getElementById("live-region");
    const from = doc.getElementById("event");
    if (fresh) livePage.swap(region, fresh);
    if (from) root.dataset.version = from.dataset.version;
  });
  source.addEventListener("moved", refresh);
})();
