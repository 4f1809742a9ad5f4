// A player's page through an outage (issue 33): the page and its assets are fetched from the
// network when it answers, and the last copy is kept; while the hall's network is down the
// player still sees their last pairings and table (served from the kept copy).
"use strict";
importScripts("/static/keep-sw.js");
const CACHE = "referee-player-v1";  // the sign-in page forgets it by this name (login.html)
keepLastCopies(CACHE, (url, request) => {
  // a page showing what a form just did (?said=KEY) is of its moment: not kept, so the
  // kept copies are not one per form sent
  if (url.searchParams.has("said")) return null;
  const page = /^\/events\/[^/]+\/players\/[^/]+$/.test(url.pathname);
  return page || url.pathname.startsWith("/static/") ? request : null;
});
