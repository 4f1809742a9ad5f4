// What the two service workers (player-sw.js, table-sw.js) share: each keeps the last copy
// of the pages it names, and of their assets, fetched from the network when it answers;
// offline, the kept copy is shown. Imported by both (importScripts), kept with them.
"use strict";

// Serve this origin's GET requests through the cache named `cache`: `keyOf(url, request)`
// is the key a request is kept under, or null for a request the worker leaves alone. A
// redirected answer (a sign-in page, say) is never kept under the page's key.
function keepLastCopies(cache, keyOf) {
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET") return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    const key = keyOf(url, request);
    if (key === null) return;
    event.respondWith((async () => {
      const kept = await caches.open(cache);
      try {
        const fresh = await fetch(request);
        if (fresh.ok && !fresh.redirected) await kept.put(key, fresh.clone());
        return fresh;
      } catch (error) {
        const copy = await kept.match(key);
        if (copy) return copy;
        throw error;
      }
    })());
  });
}
