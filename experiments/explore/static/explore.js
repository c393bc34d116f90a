// The balance explorer: the designer's setting goes to the server, which plays it (server.py);
// the page only draws the answers. Each change is an update with a number of its own; a newer
// one aborts the request of the older (AbortController) and the server stops the older's games,
// so what is shown is always the latest setting's.
"use strict";
const $ = (id) => document.getElementById(id);
let setup = null;
let page = null;  // {id, token}: how the server knows this page (the token proves it is this browser)
let state = null;  // the setting being explored (see fresh())
const past = [];
const future = [];
let requestNo = 0;  // the latest update sent
let controller = null;  // aborts the latest update's request
let pollTimer = null;
let figuresShown = {job: -1, at: 0};
let answerShown = null;

const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const interval = (ci) => `${(100 * ci[0]).toFixed(1)}-${(100 * ci[1]).toFixed(1)}%`;
const points = (x) => `${x >= 0 ? "+" : "\u2212"}${Math.abs(100 * x).toFixed(2)}`;
const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

async function api(method, path, body, signal) {
  const headers = {"Content-Type": "application/json"};
  if (page) headers["X-Game-Token"] = page.token;
  const res = await fetch(path, {method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body)});
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const error = new Error((data && data.error) || res.statusText);
    error.status = res.status;
    throw error;
  }
  return data;
}

function gameInfo(name) { return setup.games.find((g) => g.name === (name || state.game)); }

function fresh(gameName) {
  // the rulebook's rules of a game, with the page's defaults (island-escape explore's options)
  const g = gameInfo(gameName);
  const d = setup.defaults || {};
  const rules = {};
  for (const c of g.controls) if (c.kind !== "variants") rules[c.name] = Array.isArray(c.default) ? [...c.default] : c.default;
  let counts = g.players.filter((n) => !(n === 1 && g.players.includes(2)));
  if (d.players && (!d.game || d.game === g.name)) counts = d.players.filter((n) => g.players.includes(n));
  if (!counts.length) counts = [g.players[0]];
  return {game: g.name, rules, counts, policy: g.default_policy, skill: 0.5, reference: null,
          curvePlayers: counts[0], seed: d.seed || 0, games: d.games || setup.limits.target_games};
}

// --- the controls ---------------------------------------------------------------------------------

function variantOn(v) {
  return Object.entries(v.sets).every(([key, value]) => {
    if (key === "gauge") {
      const control = gameInfo().controls.find((c) => c.name === "gauge");
      return control.default.filter((c) => !value.includes(c)).every((c) => !state.rules.gauge.includes(c));
    }
    return state.rules[key] === value;
  });
}

function setVariant(v, on) {
  const controls = gameInfo().controls;
  for (const [key, value] of Object.entries(v.sets)) {
    const control = controls.find((c) => c.name === key);
    if (key === "gauge") {
      const off = control.default.filter((c) => !value.includes(c));
      const order = control.cards.map((c) => c.code);
      const cards = on ? state.rules.gauge.filter((c) => !off.includes(c))
                       : [...new Set([...state.rules.gauge, ...off])];
      state.rules.gauge = order.filter((c) => cards.includes(c));
    } else {
      state.rules[key] = on ? value : control.default;
    }
  }
}

function buildControls() {
  const g = gameInfo();
  const box = $("rule-controls");
  box.innerHTML = "";
  for (const c of g.controls) {
    if (c.kind === "cards") {
      const group = document.createElement("div");
      group.className = "gauge";
      group.setAttribute("role", "group");
      group.setAttribute("aria-labelledby", "gauge-label");
      const label = document.createElement("p");
      label.id = "gauge-label";
      label.className = "label";
      label.textContent = `${c.label}: click a card to take it off or put it back`;
      box.appendChild(label);
      for (const card of c.cards) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "gcard" + (card.red ? " red" : "");
        b.dataset.card = card.code;
        b.textContent = card.label;
        b.addEventListener("click", () => {
          const on = state.rules.gauge.includes(card.code);
          if (on && state.rules.gauge.length === 1) { showError("the gauge needs at least one card"); return; }
          change(() => {
            const cards = on ? state.rules.gauge.filter((x) => x !== card.code) : [...state.rules.gauge, card.code];
            state.rules.gauge = c.cards.map((x) => x.code).filter((x) => cards.includes(x));
          });
        });
        group.appendChild(b);
      }
      box.appendChild(group);
    } else if (c.kind === "number") {
      const label = document.createElement("label");
      label.textContent = `${c.label} `;
      const input = document.createElement("input");
      Object.assign(input, {type: "number", min: c.low, max: c.high, step: 1, id: `rule-${c.name}`});
      input.dataset.rule = c.name;
      input.addEventListener("change", () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || v < c.low || v > c.high) { showError(`${c.label}: a whole number from ${c.low} to ${c.high}`); draw(); return; }
        change(() => { state.rules[c.name] = v; });
      });
      label.appendChild(input);
      box.appendChild(label);
    } else if (c.kind === "choice") {
      const label = document.createElement("label");
      label.textContent = `${c.label} `;
      const select = document.createElement("select");
      select.id = `rule-${c.name}`;
      select.dataset.rule = c.name;
      for (const choice of c.choices) select.add(new Option(choice.label, choice.value));
      select.addEventListener("change", () => change(() => { state.rules[c.name] = select.value; }));
      label.appendChild(select);
      box.appendChild(label);
    } else if (c.kind === "variants") {
      const group = document.createElement("div");
      group.className = "variants";
      for (const v of c.variants) {
        const label = document.createElement("label");
        const box2 = document.createElement("input");
        box2.type = "checkbox";
        box2.dataset.variant = v.name;
        box2.addEventListener("change", () => change(() => setVariant(v, box2.checked)));
        label.append(box2, ` ${v.label}`);
        group.appendChild(label);
      }
      box.appendChild(group);
    }
  }
  const counts = $("player-counts");
  counts.innerHTML = "";
  for (const n of g.players) {
    const label = document.createElement("label");
    const box3 = document.createElement("input");
    box3.type = "checkbox";
    box3.dataset.players = n;
    box3.addEventListener("change", () => {
      const chosen = state.counts.includes(n) ? state.counts.filter((x) => x !== n) : [...state.counts, n].sort();
      if (!chosen.length) { showError("choose at least one player count"); draw(); return; }
      change(() => {
        state.counts = chosen;
        if (!chosen.includes(state.curvePlayers)) state.curvePlayers = chosen[0];
      });
    });
    label.append(box3, ` ${n}`);
    counts.appendChild(label);
  }
  const policy = $("policy");
  policy.innerHTML = "";
  for (const p of g.policies) {
    const tag = p.fair ? (p.search ? " (a search: a twentieth of the games)" : "") : " (a cheat: reads hidden cards)";
    const option = new Option(`${p.name}${tag}`, p.name);
    option.title = p.description;
    policy.add(option);
  }
}

function draw() {
  // the controls show `state`
  const g = gameInfo();
  $("game").value = state.game;
  for (const b of document.querySelectorAll("#rule-controls button.gcard")) {
    const on = state.rules.gauge.includes(b.dataset.card);
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.setAttribute("aria-label", `${b.textContent}: ${on ? "in the gauge" : "off the gauge"}`);
  }
  for (const input of document.querySelectorAll("[data-rule]")) input.value = state.rules[input.dataset.rule];
  const variants = (g.controls.find((c) => c.kind === "variants") || {variants: []}).variants;
  for (const box of document.querySelectorAll("[data-variant]")) {
    box.checked = variantOn(variants.find((v) => v.name === box.dataset.variant));
  }
  for (const box of document.querySelectorAll("[data-players]")) box.checked = state.counts.includes(Number(box.dataset.players));
  const curve = $("curve-players");
  curve.innerHTML = "";
  for (const n of state.counts) curve.add(new Option(String(n), String(n)));
  curve.value = String(state.curvePlayers);
  $("policy").value = state.policy;
  const takesSkill = state.policy === g.skill_policy;
  $("skill-label").hidden = !takesSkill;
  $("skill").value = state.skill;
  $("skill-value").textContent = state.skill;
  const p = g.policies.find((x) => x.name === state.policy);
  $("policy-hint").textContent = p ? p.description : "";
  $("seed").value = state.seed;
  $("games").value = String(state.games);
  $("reference-line").textContent = state.reference ? `the pinned setting: ${state.reference.line}`
    : `the rulebook: ${g.rulebook}`;
  $("unpin").disabled = !state.reference;
  $("undo").disabled = !past.length;
  $("redo").disabled = !future.length;
  $("curve-title").textContent = g.skill_policy ? "Win rate across skill" : "Win rate across the levels";
  // a competitive game's seats each win their own share: no win rate to draw across skill or turns
  const seats = g.measure === "seat shares";
  $("rates-title").textContent = seats ? "Share of the win by seat" : "Win rate by player count";
  for (const id of ["curve-part", "hazard-part", "curve-players-label"]) $(id).hidden = seats;
}

function clone(x) { return JSON.parse(JSON.stringify(x)); }

function change(edit) {
  // one change of the designer's: remembered for undo, drawn, and played
  past.push(clone(state));
  future.length = 0;
  edit();
  draw();
  update();
}

function side() {
  const g = gameInfo();
  const rules = {};
  for (const [k, v] of Object.entries(state.rules)) rules[k] = Array.isArray(v) ? v.join(" ") : v;
  const out = {rules, policy: state.policy};
  if (state.policy === g.skill_policy) out.skill = Number(state.skill);
  return out;
}

function body(number) {
  return {request: number, game: state.game, players: state.counts, setting: side(),
          reference: state.reference ? state.reference.side : null, curve_players: state.curvePlayers,
          seed: Number(state.seed), games: Number(state.games)};
}

// --- talking to the server --------------------------------------------------------------------------

async function openPage() {
  page = null;
  page = await api("POST", "/api/pages", {});
}

async function update() {
  clearTimeout(pollTimer);
  if (controller) controller.abort();
  controller = new AbortController();
  const mine = ++requestNo;
  document.body.dataset.state = "asking";
  document.body.dataset.request = String(mine);
  $("status-text").textContent = "playing the first games…";
  showError("");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const answer = await api("POST", `/api/pages/${page.id}/explore`, body(mine), controller.signal);
      if (mine === requestNo) show(answer);
      return;
    } catch (e) {
      if (e.name === "AbortError" || mine !== requestNo) return;
      if (e.status === 404 && attempt === 0) { await openPage(); continue; }  // the server restarted
      document.body.dataset.state = "error";
      showError(e.message);
      return;
    }
  }
}

async function poll() {
  const mine = requestNo;
  try {
    const answer = await api("GET", `/api/pages/${page.id}/explore`);
    if (mine === requestNo && answer.request === mine) show(answer);
  } catch (e) {
    if (mine === requestNo) showError(e.message);
  }
}

function over(answer) { return ["done", "superseded", "failed"].includes(answer.state); }

function show(answer) {
  answerShown = answer;
  document.body.dataset.state = answer.state;
  document.body.dataset.job = String(answer.job);
  const p = answer.progress;
  $("progress").value = p.fraction;
  const perSetting = answer.counts.length ? answer.counts[0].setting.games : 0;
  const text = {
    first: "playing the first games…",
    refining: `refining: ${p.games.toLocaleString("en")} of ${p.planned.toLocaleString("en")} games (${Math.round(100 * p.fraction)}%)`,
    done: `done: ${perSetting.toLocaleString("en")} games a setting, seed ${answer.seed}, in ${answer.seconds.toFixed(1)} s`,
    superseded: "replaced by a newer setting",
    failed: `the games failed: ${answer.error}`,
  }[answer.state] || answer.state;
  $("status-text").textContent = text;
  if (answer.state === "failed") showError(answer.error);
  numbers(answer);
  const now = Date.now();
  if (answer.job !== figuresShown.job || over(answer) || now - figuresShown.at > 2500) {
    figuresShown = {job: answer.job, at: now};
    figures(answer);
  }
  card(answer);
  if (!over(answer)) pollTimer = setTimeout(poll, 300);
}

async function figures(answer) {
  const mine = requestNo;
  for (const name of ["rates", "curve", "causes", "hazard"]) {
    if (!answer.figures.includes(name)) $(`figure-${name}`).innerHTML = "";
  }
  await Promise.all(answer.figures.map(async (name) => {
    try {
      const svg = await api("GET", `/api/pages/${page.id}/figures/${name}.svg?job=${answer.job}`);
      if (mine === requestNo) $(`figure-${name}`).innerHTML = svg;
    } catch (e) { /* a newer update replaced the job; its own figures follow */ }
  }));
}

// --- the numbers -----------------------------------------------------------------------------------

function cell(row, text, attrs = {}) {
  const td = document.createElement(attrs.th ? "th" : "td");
  if (attrs.th) td.scope = "row";
  td.textContent = text;
  for (const [k, v] of Object.entries(attrs)) if (k !== "th") td.dataset[k] = v;
  row.appendChild(td);
  return td;
}

function tableHead(table, names) {
  table.tHead.innerHTML = "";
  const tr = document.createElement("tr");
  for (const h of names) {
    const th = document.createElement("th"); th.scope = "col"; th.textContent = h; tr.appendChild(th);
  }
  table.tHead.appendChild(tr);
}

function jsonLink(td, r) {
  const link = document.createElement("a");
  link.href = r.estimate_url;
  link.textContent = "estimate";
  link.target = "_blank";
  link.setAttribute("aria-label", `the estimate for ${r.players} players as JSON`);
  td.appendChild(link);
}

function seatNumbers(a) {
  // a competitive game: a row a seat, its share of the win beside the reference's, paired
  $("rates-caption").textContent = `${a.title}, played by ${a.setting.player}; reference: ${a.reference.label}` +
    (a.reference.player !== a.setting.player ? ` played by ${a.reference.player}` : "") +
    "; a fair share is the wins given out split evenly over the seats";
  const rates = $("rates");
  tableHead(rates, ["players", "seat", "share of the win (95% interval)", "fair", "reference",
               "difference (paired 95% interval)", "games", "as JSON"]);
  rates.tBodies[0].innerHTML = "";
  for (const r of a.counts) {
    const seats = r.setting.seats;
    seats.forEach((s, k) => {
      const tr = document.createElement("tr");
      tr.dataset.players = r.players;
      tr.dataset.seat = s.seat;
      cell(tr, k ? "" : String(r.players), {th: true});
      cell(tr, String(s.seat));
      cell(tr, `${pct(s.win_share, 1)} (${interval(s.win_share_ci95)})`, {share: s.win_share, role: "setting"});
      cell(tr, pct(r.fair_share.setting), {fair: r.fair_share.setting});
      const ref = r.reference.seats[k];
      cell(tr, ref ? `${pct(ref.win_share, 1)} (${interval(ref.win_share_ci95)})` : "-", {role: "reference"});
      const d = r.differences[k];
      cell(tr, d ? `${points(d.a_minus_b)} points (${points(d.ci95[0])} to ${points(d.ci95[1])})` : "",
           {difference: d ? d.a_minus_b : ""});
      cell(tr, k ? "" : r.setting.games.toLocaleString("en"));
      const td = cell(tr, "");
      if (!k) jsonLink(td, r);
      rates.tBodies[0].appendChild(tr);
    });
    const tr = document.createElement("tr");
    tr.className = "furthest";
    tr.dataset.players = r.players;
    cell(tr, "", {th: true});
    cell(tr, "furthest from fair");
    cell(tr, `${(100 * r.furthest_from_fair.setting).toFixed(1)} points`, {furthest: r.furthest_from_fair.setting});
    cell(tr, "");
    cell(tr, `${(100 * r.furthest_from_fair.reference).toFixed(1)} points`);
    for (let k = 0; k < 3; k++) cell(tr, "");
    rates.tBodies[0].appendChild(tr);
  }
  const causes = $("causes");
  tableHead(causes, ["players", "", ...a.endings.map((e) => `ended: ${e}`), "mean turns", "mean winning margin"]);
  causes.tBodies[0].innerHTML = "";
  for (const r of a.counts) {
    for (const which of ["setting", "reference"]) {
      const s = r[which];
      const tr = document.createElement("tr");
      cell(tr, String(r.players), {th: true});
      cell(tr, which === "setting" ? "this setting" : a.reference.label);
      for (const e of a.endings) cell(tr, pct(s.endings[e] || 0));
      cell(tr, s.mean_turns.toFixed(1));
      cell(tr, s.mean_margin.toFixed(2));
      causes.tBodies[0].appendChild(tr);
    }
  }
}

function numbers(a) {
  if (a.measure === "seat shares") { seatNumbers(a); return; }
  tableHead($("rates"), ["players", "win rate (95% interval)", "band", "reference", "difference (paired 95% interval)",
                    "games", "as JSON"]);
  $("rates-caption").textContent = `${a.title}, judged by ${a.setting.player}; reference: ${a.reference.label}` +
    (a.reference.player !== a.setting.player ? ` played by ${a.reference.player}` : "");
  const rates = $("rates").tBodies[0];
  rates.innerHTML = "";
  for (const r of a.counts) {
    const tr = document.createElement("tr");
    tr.dataset.players = r.players;
    cell(tr, String(r.players), {th: true});
    cell(tr, `${pct(r.setting.win_rate, 2)} (${interval(r.setting.ci95)})`,
         {winRate: r.setting.win_rate, games: r.setting.games, role: "setting"});
    const band = r.band ? `${r.band.verdict}${r.band.level ? (r.band.inside ? "; its interval too" : "; its interval crosses the edge") : ""}` : "";
    cell(tr, band, {level: r.band && r.band.level ? r.band.level : ""});
    cell(tr, `${pct(r.reference.win_rate, 2)} (${interval(r.reference.ci95)})`, {winRate: r.reference.win_rate, role: "reference"});
    const d = r.difference;
    cell(tr, d ? `${points(d.a_minus_b)} points (${points(d.ci95[0])} to ${points(d.ci95[1])})` : "", {difference: d ? d.a_minus_b : ""});
    cell(tr, r.setting.games.toLocaleString("en"));
    jsonLink(cell(tr, ""), r);
    rates.appendChild(tr);
  }
  const curve = $("curve");
  curve.tHead.innerHTML = "";
  curve.tBodies[0].innerHTML = "";
  if (a.curve) {
    const head = document.createElement("tr");
    for (const h of [a.curve.axis, "this setting", a.reference.label, "games"]) {
      const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.appendChild(th);
    }
    curve.tHead.appendChild(head);
    const rows = a.curve.points.map((p) => [p.label, p.setting, p.reference]);
    if (a.curve.search) rows.push([`${a.curve.search.player} (search)`, a.curve.search.setting, a.curve.search.reference]);
    for (const [label, s, r] of rows) {
      const tr = document.createElement("tr");
      cell(tr, label, {th: true});
      cell(tr, s.games ? `${pct(s.win_rate)} (${interval(s.ci95)})` : "waiting", {winRate: s.win_rate});
      cell(tr, r.games ? `${pct(r.win_rate)} (${interval(r.ci95)})` : "waiting");
      cell(tr, s.games.toLocaleString("en"));
      curve.tBodies[0].appendChild(tr);
    }
    $("curve").caption && $("curve").caption.remove();
    const caption = curve.createCaption();
    caption.textContent = `${a.curve.players} players; ${a.curve.axis === "skill" ? "skill 1 is the expert, game for game" : "each level of the printed game"}`;
  }
  const causes = $("causes");
  causes.tHead.innerHTML = "";
  causes.tBodies[0].innerHTML = "";
  const head = document.createElement("tr");
  for (const h of ["players", "", "win", ...a.causes, "mean turns", "losses: all four raised", "three raised"]) {
    const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.appendChild(th);
  }
  causes.tHead.appendChild(head);
  for (const r of a.counts) {
    for (const which of ["setting", "reference"]) {
      const s = r[which];
      const nm = r.near_misses[which];
      const tr = document.createElement("tr");
      cell(tr, String(r.players), {th: true});
      cell(tr, which === "setting" ? "this setting" : a.reference.label);
      cell(tr, pct(s.win_rate));
      for (const c of a.causes) cell(tr, pct(s.loss_rates[c] || 0));
      cell(tr, s.mean_turns.toFixed(1));
      cell(tr, nm.losses ? pct(nm.four) : "-", {four: nm.four});
      cell(tr, nm.losses ? pct(nm.three) : "-");
      causes.tBodies[0].appendChild(tr);
    }
  }
}

function card(a) {
  // the printable card: the setting, its gauge as cards, the win rates and where they fall
  const g = gameInfo(a.game);
  const box = $("card");
  box.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = `${a.title}: an explored setting`;
  const line = document.createElement("p");
  line.textContent = `${a.setting.line.replace(/^\d+ players?, /, "")}; judged by ${a.setting.player}`;
  box.append(h, line);
  const gauge = g.controls.find((c) => c.kind === "cards");
  if (gauge) {
    const row = document.createElement("div");
    row.className = "card-gauge";
    for (const c of gauge.cards) {
      const span = document.createElement("span");
      const on = state.rules.gauge.includes(c.code);
      span.className = "gcard" + (c.red ? " red" : "") + (on ? "" : " off");
      span.textContent = c.label;
      row.appendChild(span);
    }
    box.appendChild(row);
  }
  const list = document.createElement("ul");
  for (const r of a.counts) {
    const li = document.createElement("li");
    if (a.measure === "seat shares") {
      li.textContent = `${plural(r.players, "player")}: seats ${r.setting.seats.map((s) => pct(s.win_share, 0)).join(" / ")} ` +
        `of the wins (fair ${pct(r.fair_share.setting, 0)}); the furthest seat ` +
        `${(100 * r.furthest_from_fair.setting).toFixed(1)} points from fair ` +
        `(${(100 * r.furthest_from_fair.reference).toFixed(1)} with ${a.reference.label})`;
      list.appendChild(li);
      continue;
    }
    const d = r.difference;
    li.textContent = `${plural(r.players, "player")}: ${pct(r.setting.win_rate)} of games won (${interval(r.setting.ci95)}), ` +
      `${r.band ? r.band.verdict : ""}` + (d ? `; ${points(d.a_minus_b)} points against ${a.reference.label}` : "");
    list.appendChild(li);
  }
  const foot = document.createElement("p");
  foot.className = "hint";
  foot.textContent = `${(a.counts[0] ? a.counts[0].setting.games : 0).toLocaleString("en")} games a player count, seed ${a.seed}; ` +
    `${a.commands.simulate.split("\n")[0]}`;
  box.append(list, foot);
}

function showError(text) { $("error").textContent = text; }

function copy(kind) {
  if (!answerShown) return;
  const text = answerShown.commands[kind];
  const area = $("copied");
  area.value = text;
  area.select();
  const done = () => { $("status-text").textContent = `copied: ${kind.replace("_", " ")}`; };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => {});
}

// --- start ------------------------------------------------------------------------------------------

async function start() {
  setup = await api("GET", "/api/setup");
  for (const g of setup.games) $("game").add(new Option(g.title, g.name));
  const games = $("games");
  const asked = (setup.defaults || {}).games;
  if (asked && ![...games.options].some((o) => Number(o.value) === asked)) {
    games.add(new Option(`${asked.toLocaleString("en")} games a setting`, String(asked)));
  }
  await openPage();
  const d = setup.defaults || {};
  state = fresh(d.game || setup.games[0].name);
  buildControls();
  draw();
  $("game").addEventListener("change", () => change(() => {
    state = fresh($("game").value);
    buildControls();
  }));
  $("curve-players").addEventListener("change", () => change(() => { state.curvePlayers = Number($("curve-players").value); }));
  $("policy").addEventListener("change", () => change(() => { state.policy = $("policy").value; }));
  $("skill").addEventListener("input", () => { $("skill-value").textContent = $("skill").value; });
  $("skill").addEventListener("change", () => change(() => { state.skill = Number($("skill").value); }));
  $("seed").addEventListener("change", () => {
    const v = $("seed").value.trim();
    if (!/^[0-9]{1,15}$/.test(v)) { showError("the seed is a whole number (up to 15 digits here)"); draw(); return; }
    change(() => { state.seed = Number(v); });
  });
  $("games").addEventListener("change", () => change(() => { state.games = Number($("games").value); }));
  $("pin").addEventListener("click", () => {
    if (!answerShown) return;
    change(() => { state.reference = {side: side(), line: `${answerShown.setting.line}; ${state.policy}`}; });
  });
  $("unpin").addEventListener("click", () => change(() => { state.reference = null; }));
  $("reset").addEventListener("click", () => change(() => {
    const keep = {counts: state.counts, curvePlayers: state.curvePlayers, policy: state.policy, skill: state.skill,
                  reference: state.reference, seed: state.seed, games: state.games};
    state = {...fresh(state.game), ...keep};
  }));
  const travel = (from, to) => {
    if (!from.length) return;
    to.push(clone(state));
    const wasGame = state.game;
    state = from.pop();
    if (state.game !== wasGame) buildControls();
    draw();
    update();
  };
  $("undo").addEventListener("click", () => travel(past, future));
  $("redo").addEventListener("click", () => travel(future, past));
  document.addEventListener("keydown", (ev) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (!(ev.ctrlKey || ev.metaKey) || typing) return;
    if (ev.key === "z") { ev.preventDefault(); travel(past, future); }
    if (ev.key === "y") { ev.preventDefault(); travel(future, past); }
  });
  for (const b of document.querySelectorAll("[data-copy]")) b.addEventListener("click", () => copy(b.dataset.copy));
  $("print").addEventListener("click", () => window.print());
  update();
}

start().catch((e) => { document.body.dataset.state = "error"; showError(`the page could not start: ${e.message}`); });
