// A table's page through an outage (REF-9.4): the referee's page at a table already opened
// reloads while the hall's network is down. The page, its last panel (the position the page
// reads on every change) and its assets are fetched from the network when it answers, and
// the last copy is kept; offline, the kept copy is shown, and table.js keeps the outbox.
// Kept for this browser only, and forgotten at sign-in (login.html): a referee's page may
// show what the players may not see.
"use strict";
const CACHE = "referee-table-v1";  // the sign-in page forgets it by this name (login.html)
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // the table page and its panel, not its replay, dossier or stream
  const kept = /^\/games\/[^/]+(\/panel)?$/.test(url.pathname);
  if (!kept && !url.pathname.startsWith("/static/")) return;
  // one copy per path: the page after a form (?said=KEY) is the same page
  const key = kept ? url.origin + url.pathname : request;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const fresh = await fetch(request);
      if (fresh.ok && !fresh.redirected) await cache.put(key, fresh.clone());
      return fresh;
    } catch (error) {
      const copy = await cache.match(key);
      if (copy) return copy;
      throw error;
    }
  })());
});
