// Starting a game from the pages: one name per seat, the table label, the game's options as JSON.
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const game = document.getElementById("game");
  const seats = document.getElementById("seats");
  function drawSeats() {
    const option = game.selectedOptions[0];
    const names = option.dataset.seats.split(",");
    const min = Number(option.dataset.min);
    seats.innerHTML = names.map((s, i) => '<label>' + s + ' <input type="text" data-seat="' + s + '" ' +
      (i < min ? "required" : 'placeholder="(optional)"') + "></label>").join("");
  }
  game.addEventListener("change", drawSeats);
  drawSeats();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const players = {};
    for (const input of seats.querySelectorAll("input")) if (input.value.trim()) players[input.dataset.seat] = input.value.trim();
    let options = {};
    try { options = JSON.parse(document.getElementById("options").value || "{}"); } catch (e) {
      document.getElementById("result").textContent = "options: not JSON"; return; }
    const table = document.getElementById("table-label").value.trim();
    const body = { game: game.value, players, options, meta: table ? { table } : {} };
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), credentials: "same-origin" });
    const data = await r.json();
    if (r.status === 201) location.href = "/games/" + encodeURIComponent(data.game_id);
    else { const out = document.getElementById("result"); out.className = "result bad"; out.textContent = data.detail || data.title; }
  });
})();
