// The queue's judge calls: an unclaimed call turns "overdue" once it has waited the page's
// call_after seconds (default 60), on the page itself, between two pushes of the queue.
"use strict";
(function () {
  const root = document.getElementById("queue");
  if (!root) return;
  const after = Number(new URLSearchParams(location.search).get("call_after")) || 60;
  function mark() {
    for (const box of root.querySelectorAll(".call-actions[data-since]")) {
      const waited = (Date.now() - Date.parse(box.dataset.since)) / 1000;
      if (box.dataset.status === "open" && waited > after) box.classList.add("overdue");
    }
  }
  mark();
  setInterval(mark, 1000);
})();
