// A table's page through an outage (REF-9.4): the referee's page at a table already opened
// reloads while the hall's network is down. The page, its last panel (the position the page
// reads on every change) and its assets are fetched from the network when it answers, and
// the last copy is kept; offline, the kept copy is shown, and table.js keeps the outbox.
// Kept for this browser only, and forgotten at sign-in (login.html): a referee's page may
// show what the players may not see.
"use strict";
importScripts("/static/keep-sw.js");
const CACHE = "referee-table-v1";  // the sign-in page forgets it by this name (login.html)
keepLastCopies(CACHE, (url, request) => {
  // the table page and its panel, not its replay, dossier or stream
  const kept = /^\/games\/[^/]+(\/panel)?$/.test(url.pathname);
  if (!kept && !url.pathname.startsWith("/static/")) return null;
  // one copy per path: the page after a form (?said=KEY) is the same page
  return kept ? url.origin + url.pathname : request;
});
