// Starting a game from the pages: one name box per seat of the chosen game. The form itself
// is posted as it is (it works without this script, players typed as seat=name pairs).
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const game = document.getElementById("game");
  const seats = document.getElementById("seats");
  const typed = document.getElementById("players-typed");
  const esc = (text) => { const d = document.createElement("div"); d.textContent = text; return d.innerHTML; };
  function drawSeats() {
    const option = game.selectedOptions[0];
    const names = option.dataset.seats.split(",");
    const min = Number(option.dataset.min);
    seats.innerHTML = names.map((s, i) => "<label>" + esc(s) + ' <input type="text" name="player_' + esc(s) +
      '" data-seat="' + esc(s) + '" ' + (i < min ? "required" : 'placeholder="(optional)"') + "></label>").join("");
  }
  if (typed && !document.getElementById("players").value) {
    typed.hidden = true;  // one box per seat instead of typed pairs
    game.addEventListener("change", drawSeats);
    drawSeats();
  }
  form.addEventListener("submit", () => { document.getElementById("create").disabled = true; });
})();
