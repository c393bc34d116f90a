// The play page: sends chosen actions to the server and draws what it answers. All rules are
// checked on the server (sim/engine.py); the page only knows what the server shows it.
"use strict";
const PAWN_COLOURS = ["#e74c3c", "#2980b9", "#27ae60", "#f39c12"];  // as experiments/boards.py
const KIND_NAMES = {move: "Move", swim: "Swim", shore: "Shore up", salvage: "Salvage", give: "Give",
                    raise: "Raise a treasure", takeoff: "Take off"};
let game = null;
let setup = null;
let shown = 0;  // answers shown so far; the board says which one it drew (data-step)
let token = null;  // this browser's proof that the game is its own (sent as X-Game-Token)

const $ = (id) => document.getElementById(id);

function headers() {
  const h = {"Content-Type": "application/json"};
  if (token) h["X-Game-Token"] = token;
  return h;
}

async function api(method, path, body) {
  const res = await fetch(path, {method, headers: headers(),
                                 body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// --- start page ---
function levelChoices() {
  const players = $("players").value;
  const levels = (setup.levels || {})[players] || {};
  const box = $("level-choice");
  box.innerHTML = "";
  const names = ["easy", "normal", "hard"].filter((l) => levels[l]);
  if (!names.length) { box.textContent = "(no difficulty report yet: make report)"; return; }
  for (const level of names) {
    const info = levels[level];
    const label = document.createElement("label");
    const pct = info.win_rate == null ? "" : ` - expert wins ${(100 * info.win_rate).toFixed(0)}%`;
    label.innerHTML = `<input type="radio" name="level" value="${level}"> <b>${level}</b>: ` +
      `<span></span>${pct}`;
    label.querySelector("span").textContent = info.change;
    box.appendChild(label);
  }
  const want = setup.defaults.level || "normal";
  const pick = box.querySelector(`input[value=${want}]`) || box.querySelector("input");
  pick.checked = true;
}

async function startPage() {
  setup = await api("GET", "/api/setup");
  const d = setup.defaults || {};
  const form = $("start-form");
  if (d.players) form.players.value = d.players;
  if (d.seed != null) form.seed.value = d.seed;
  if (d.rules) {
    for (const [k, v] of Object.entries(d.rules)) {
      if (form[k]) form[k].value = Array.isArray(v) ? v.join(" ") : v;
    }
    if (!d.level) form.querySelector("input[name=mode][value=rules]").checked = true;
  }
  levelChoices();
  $("players").addEventListener("change", levelChoices);
  // choosing a level or editing a rule picks that way of setting the rules
  const mode = (m) => { form.querySelector(`input[name=mode][value=${m}]`).checked = true; };
  $("level-choice").addEventListener("change", () => mode("level"));
  for (const name of ["cards_per_treasure", "swim_cost", "actions_per_turn", "gauge"]) {
    form[name].addEventListener("input", () => mode("rules"));
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {players: Number(form.players.value)};
    if (form.seed.value.trim() !== "") body.seed = form.seed.value.trim();  // digits: exact up to 2**63
    const mode = form.querySelector("input[name=mode]:checked").value;
    const level = form.querySelector("input[name=level]:checked");
    if (mode === "level" && level) body.level = level.value;
    else body.rules = {cards_per_treasure: Number(form.cards_per_treasure.value),
                       swim_cost: Number(form.swim_cost.value),
                       actions_per_turn: Number(form.actions_per_turn.value),
                       gauge: form.gauge.value.trim().toUpperCase().split(/[\s,]+/)};
    try {
      const state = await api("POST", "/api/games", body);
      token = state.token;
      show(state);
      $("start").hidden = true;
      $("table").hidden = false;
    } catch (e) { $("start-error").textContent = e.message; }
  });
}

// --- the table ---
async function send(path, body) {
  $("message").textContent = "";
  try { show(await api("POST", `/api/games/${game.id}/${path}`, body)); }
  catch (e) { $("message").textContent = e.message; }
}

function button(text, onClick, cls) {
  const b = document.createElement("button");
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

function describeRules(r) {
  return `${r.players} player(s), ${r.cards_per_treasure} cards a treasure, swim ${r.swim_cost}, ` +
         `${r.actions_per_turn} actions, gauge ${r.gauge.join(" ")}`;
}

function showStatus() {
  const s = $("status");
  const chip = `<span class="chip" style="background:${PAWN_COLOURS[game.pawn]}"></span>`;
  let line;
  if (game.phase === "actions") line = `${chip}Pawn ${game.pawn} to play - <b>${game.actions_left}</b> action(s) left`;
  else if (game.phase === "flood") line = `The flood phase: <b>${game.floods_left}</b> flood(s) to draw`;
  else if (game.phase === "escape") line = `The flood hits ${game.escape.card_label} a second time: it sinks with pawn ${game.escape.pawn} on it`;
  else line = `Game over after ${game.floods} floods.`;
  s.innerHTML = `<h2>Turn ${game.turn}</h2><div>${line}</div>` +
    `<div class="phase">${game.level ? game.level + " - " : ""}${describeRules(game.rules)}; ${seedText()}</div>`;
}

function seedText() {
  // The seed decides every face-down card and flood: the server tells it only at the end.
  const chosen = game.seed_chosen ? " (chosen by hand: whoever knows it knows the island - no surprise)" : "";
  if (game.seed == null) return `seed shown when the game is over${chosen}`;
  return `seed ${game.seed}${chosen}`;
}

function showControls() {
  const c = $("controls");
  c.innerHTML = "";
  if (game.phase === "actions") {
    c.appendChild(Object.assign(document.createElement("h3"), {textContent: "Actions"}));
    const groups = {};
    for (const a of game.actions) (groups[a.kind] = groups[a.kind] || []).push(a);
    for (const [kind, list] of Object.entries(groups)) {
      const g = document.createElement("div");
      g.className = "group";
      g.appendChild(Object.assign(document.createElement("div"), {className: "kind", textContent: KIND_NAMES[kind]}));
      for (const a of list) {
        const b = button(a.label, () => send("action", {pawn: game.pawn, action: a.entry}),
                         a.kind === "takeoff" ? "primary" : "");
        b.dataset.entry = a.entry;
        if (a.place) b.dataset.place = a.place.join(",");
        g.appendChild(b);
      }
      c.appendChild(g);
    }
    const end = button("End the turn", () => send("action", {pawn: game.pawn, action: "end"}), "primary");
    end.id = "end-turn";
    c.appendChild(end);
  } else if (game.phase === "flood") {
    c.appendChild(Object.assign(document.createElement("h3"), {textContent: "The flood"}));
    const b = button(`Draw flood (${game.floods_left} left)`, () => send("flood", {}), "primary");
    b.id = "flood";
    c.appendChild(b);
  } else if (game.phase === "escape") {
    const e = game.escape;
    c.appendChild(Object.assign(document.createElement("h3"),
      {textContent: `${e.card_label} at column ${e.place[0]}, row ${e.place[1]} sinks: where does pawn ${e.pawn} swim?`}));
    for (const o of e.options) {
      const b = button(`Swim to ${o.place[0]},${o.place[1]} (${o.label})`,
                       () => send("escape", {pawn: e.pawn, place: o.place}));
      b.dataset.escape = o.place.join(",");
      c.appendChild(b);
    }
  } else {
    c.appendChild(button("Play another game", () => location.reload(), "primary"));
  }
}

function showEnd() {
  const box = $("end");
  if (!game.end) { box.hidden = true; return; }
  box.hidden = false;
  box.className = `card ${game.end.outcome}`;
  const verdict = game.end.outcome === "win" ? "You escaped!" : `Lost (${game.end.cause})`;
  let html = `<div class="verdict">${verdict}</div><p>${game.end.text}</p>` +
    (game.end.record
      ? `<p>Record saved as <code id="record-path"></code> in the records folder<br>replay it with ` +
        `<code>island-escape replay FILE</code></p>`
      : `<p class="error" id="record-problem"></p><button id="save-record">Save the record again</button>`);
  html += `<h3>The bots on the same island and flood order</h3><table class="bots"><tr><th>player</th><th>result</th><th>turns</th><th>treasures</th></tr>`;
  html += `<tr><td><b>you</b></td><td>${game.end.cause}</td><td>${game.end.turns}</td><td>${game.raised.length}</td></tr>`;
  let pending = false;
  for (const [name, r] of Object.entries(game.bots || {})) {
    if (!r) { pending = true; html += `<tr><td>${name}</td><td colspan="3"><i>still playing...</i></td></tr>`; continue; }
    if (r.error) { html += `<tr><td>${name}</td><td colspan="3">could not play</td></tr>`; continue; }
    html += `<tr data-bot="${name}"><td>${name}</td><td>${r.cause}</td><td>${r.turns}</td><td>${r.treasures_raised}</td></tr>`;
  }
  html += "</table>";
  html += `<p class="phase">The bots play kernel game 0 of seed ${game.seed}: ` +
          `<code>island-escape simulate --seed ${game.seed} --games 1 --policy NAME</code></p>`;
  box.innerHTML = html;
  if (game.end.record) box.querySelector("#record-path").textContent = game.end.record;
  else {
    box.querySelector("#record-problem").textContent = game.end.record_problem || "the record is not saved";
    box.querySelector("#save-record").addEventListener("click", () => send("record", {}));
  }
  if (pending) setTimeout(async () => show(await api("GET", `/api/games/${game.id}`)), 1500);
}

function showStory() {
  const ol = $("story");
  ol.innerHTML = "";
  for (const line of game.story) {
    const li = document.createElement("li");
    li.textContent = line;
    if (line.startsWith("Turn ")) li.className = "turn";
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

async function showBoard(step) {
  const res = await fetch(`/api/games/${game.id}/board.svg?turn=${game.turn}&floods=${game.floods}`,
                          {headers: headers()});
  if (!res.ok || step !== shown) return;  // a newer answer is on its way
  const box = $("board");
  box.innerHTML = await res.text();
  // Tiles the current pawn can act on are clickable: one action is played, several are pointed out.
  const byPlace = {};
  if (game.phase === "actions") for (const a of game.actions) if (a.place) (byPlace[a.place.join(",")] = byPlace[a.place.join(",")] || []).push(a);
  for (const [key, list] of Object.entries(byPlace)) {
    const el = box.querySelector(`#place-${key.replace(",", "-")}`);
    if (!el) continue;
    el.classList.add("target");
    el.addEventListener("click", () => {
      if (list.length === 1) { send("action", {pawn: game.pawn, action: list[0].entry}); return; }
      for (const b of document.querySelectorAll(`#controls button[data-place="${key}"]`)) {
        b.classList.add("flash");
        setTimeout(() => b.classList.remove("flash"), 1200);
      }
    });
  }
  if (game.phase === "escape") {
    for (const o of game.escape.options) {
      const el = box.querySelector(`#place-${o.place[0]}-${o.place[1]}`);
      if (!el) continue;
      el.classList.add("target", "escape");
      el.addEventListener("click", () => send("escape", {pawn: game.escape.pawn, place: o.place}));
    }
  }
  box.dataset.step = step;
}

function show(state) {
  game = state;
  document.body.dataset.phase = game.phase;
  showStatus();
  showControls();
  showEnd();
  showStory();
  shown += 1;
  showBoard(shown);
}

startPage();
