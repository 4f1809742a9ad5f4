// The replay viewer: works on the page or as one saved file (no server needed).
// Left/right step, Home/End jump to the ends; buttons jump to the previous or next rejection,
// correction, dispute or ruling; F (or the button) flips sides; the moves list is clickable.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = data.frames;
  const root = document.getElementById("replay");
  const $ = (id) => document.getElementById(id);
  const esc = (t) => { const d = document.createElement("div"); d.textContent = t == null ? "" : String(t); return d.innerHTML; };
  let index = 0;

  const list = $("moves");
  frames.forEach((f, i) => {
    const li = document.createElement("li");
    li.dataset.index = String(i);
    li.innerHTML = esc(f.what) + f.incidents.map((k) => '<span class="tag ' + k + '">' + k + "</span>").join("");
    li.addEventListener("click", () => show(i));
    list.appendChild(li);
  });

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[index];
    $("frame").innerHTML = f.board;
    $("where").textContent = "step " + index + " of " + (frames.length - 1) + " (event " + f.event + ", position " + f.ply + ")";
    $("what").textContent = f.what;
    $("notes").innerHTML = f.notes.map((n) => "<div>" + esc(n) + "</div>").join("");
    $("cited").innerHTML = f.events.map((c) => "<p>event " + esc(c.event) + ': <span class="clause">' + esc(c.clause) +
      "</span> " + esc(c.why) + (data.clauses[c.clause] ? '<br><span class="muted">' + esc(c.clause) + " " + esc(data.clauses[c.clause]) + "</span>" : "") + "</p>").join("");
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.index) === index);
    const current = list.children[index];
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    root.dataset.index = String(index);
  }
  function jump(kind, step) {
    for (let i = index + step; i >= 0 && i < frames.length; i += step) {
      if (frames[i].incidents.includes(kind)) { show(i); return true; }
    }
    return false;
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target && /INPUT|TEXTAREA|SELECT/.test(ev.target.tagName)) return;
    if (ev.key === "ArrowRight") show(index + 1);
    else if (ev.key === "ArrowLeft") show(index - 1);
    else if (ev.key === "Home") show(0);
    else if (ev.key === "End") show(frames.length - 1);
    else if (ev.key === "f" || ev.key === "F") root.classList.toggle("flipped");
    else return;
    ev.preventDefault();
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("last").addEventListener("click", () => show(frames.length - 1));
  $("flip").addEventListener("click", () => root.classList.toggle("flipped"));
  for (const button of document.querySelectorAll("button[data-jump]")) {
    const [kind, step] = button.dataset.jump.split(":");
    button.disabled = !frames.some((f) => f.incidents.includes(kind));
    button.addEventListener("click", () => jump(kind, Number(step)));
  }
  const start = Number(new URLSearchParams(location.search).get("step"));
  show(Number.isFinite(start) && start > 0 ? start : 0);
})();
