// What the live pages share (event.js, queue.js, table.js, live.js): a stream of the server's
// pushes (server-sent events, resumed with Last-Event-ID) with the dot (#live) lit while it is
// open, and a reading of the page again that runs one at a time: a push that comes while one
// runs asks for one more after it, however many came.
"use strict";
window.livePage = {
  stream(url) {
    const source = new EventSource(url);
    const dot = document.getElementById("live");
    source.onopen = () => dot && dot.classList.add("on");
    source.onerror = () => dot && dot.classList.remove("on");
    return source;
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
