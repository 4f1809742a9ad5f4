// A player's page through an outage (issue 33): the page and its assets are fetched from the
// network when it answers, and the last copy is kept; while the hall's network is down the
// player still sees their last pairings and table (served from the kept copy).
"use strict";
const CACHE = "referee-player-v1";  // the sign-in page forgets it by this name (login.html)
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const page = /^\/events\/[^/]+\/players\/[^/]+$/.test(url.pathname);
  if (!page && !url.pathname.startsWith("/static/")) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const fresh = await fetch(request);
      if (fresh.ok) await cache.put(request, fresh.clone());
      return fresh;
    } catch (error) {
      const kept = await cache.match(request);
      if (kept) return kept;
      throw error;
    }
  })());
});
