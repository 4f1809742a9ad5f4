// The games list and the scoreboard, kept live from /api/live (resumes with Last-Event-ID).
"use strict";
(function () {
  const games = document.getElementById("games");
  const board = document.getElementById("scoreboard");
  const root = games || board;
  if (!root) return;
  const esc = (t) => { const d = document.createElement("div"); d.textContent = t == null ? "" : String(t); return d.innerHTML; };
  const source = livePage.stream("/api/live?after=" + (root.dataset.after || "0"));
  if (games) source.addEventListener("game", (ev) => {
    const g = JSON.parse(ev.data);
    const body = games.querySelector("tbody");
    let row = body.querySelector('tr[data-game="' + CSS.escape(g.game_id) + '"]');
    if (!row) { row = document.createElement("tr"); row.dataset.game = g.game_id; body.prepend(row); }
    const players = Object.entries(g.players).map(([s, n]) => esc(n) + " (" + esc(s) + ")").join(" vs ");
    const id = encodeURIComponent(g.game_id);
    row.innerHTML = '<td data-label="game"><a href="/games/' + id + '">' + esc(g.game_id) + '</a></td><td data-label="type">' + esc(g.game) +
      '</td><td data-label="table">' + esc(g.meta.table || "") + '</td><td data-label="players">' + players + '</td><td class="result" data-label="result">' +
      esc(g.result) + (g.how ? " by " + esc(g.how) : "") + '</td><td><a href="/games/' + id + '/replay">replay</a></td>';
    row.classList.add("changed");
  });
  if (board) source.addEventListener("scoreboard", (ev) => {
    const rows = JSON.parse(ev.data);
    const body = board.querySelector("tbody");
    const cell = (label, text) => '<td data-label="' + label + '">' + text + "</td>";
    body.innerHTML = rows.map((r) => "<tr>" + cell("game", esc(r.game)) + cell("player", esc(r.player)) + cell("P", r.played) +
      cell("W", r.won) + cell("D", r.drawn) + cell("L", r.lost) + cell("pts", Number(r.points).toFixed(1)) +
      cell("rating", r.rating == null ? "" : Number(r.rating).toFixed(1)) + "</tr>").join("");
  });
})();
