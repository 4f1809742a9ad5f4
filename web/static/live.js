// The games list and the scoreboard, kept live from /api/live (resumes with Last-Event-ID).
"use strict";
(function () {
  const games = document.getElementById("games");
  const board = document.getElementById("scoreboard");
  const root = games || board;
  if (!root) return;
  const esc = (t) => { const d = document.createElement("div"); d.textContent = t == null ? "" : String(t); return d.innerHTML; };
  const source = new EventSource("/api/live?after=" + (root.dataset.after || "0"));
  const dot = document.getElementById("live");
  source.onopen = () => dot && dot.classList.add("on");
  source.onerror = () => dot && dot.classList.remove("on");
  if (games) source.addEventListener("game", (ev) => {
    const g = JSON.parse(ev.data);
    const body = games.querySelector("tbody");
    let row = body.querySelector('tr[data-game="' + CSS.escape(g.game_id) + '"]');
    if (!row) { row = document.createElement("tr"); row.dataset.game = g.game_id; body.prepend(row); }
    const players = Object.entries(g.players).map(([s, n]) => esc(n) + " (" + esc(s) + ")").join(" vs ");
    const id = encodeURIComponent(g.game_id);
    row.innerHTML = '<td><a href="/games/' + id + '">' + esc(g.game_id) + "</a></td><td>" + esc(g.game) +
      "</td><td>" + esc(g.meta.table || "") + "</td><td>" + players + '</td><td class="result">' +
      esc(g.result) + (g.how ? " by " + esc(g.how) : "") + '</td><td><a href="/games/' + id + '/replay">replay</a></td>';
    row.classList.add("changed");
  });
  if (board) source.addEventListener("scoreboard", (ev) => {
    const rows = JSON.parse(ev.data);
    const body = board.querySelector("tbody");
    body.innerHTML = rows.map((r) => "<tr><td>" + esc(r.game) + "</td><td>" + esc(r.player) + "</td><td>" + r.played +
      "</td><td>" + r.won + "</td><td>" + r.drawn + "</td><td>" + r.lost + "</td><td>" + Number(r.points).toFixed(1) +
      "</td><td>" + (r.rating == null ? "" : Number(r.rating).toFixed(1)) + "</td></tr>").join("");
  });
})();
