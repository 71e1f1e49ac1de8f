// gongzhu-sim serve: the page (docs/serve.md).  Every number comes from the server, which
// runs the CLI's own analysis; this file only builds the options and draws the answers.
import { ApiError, get, Job, post } from "./api.js";
import { CardGrid, cardLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);
let META = null;

// ------------------------------------------------------------------ formatting

function num(x, nd = 2, signed = false) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "n/a";
  const s = (Math.round(x * 10 ** nd) / 10 ** nd + 0).toFixed(nd);
  return signed && x >= 0 ? "+" + s : s;
}
const ci = (lo, hi, nd = 2, signed = false) =>
  (lo === null || hi === null ? "n/a" : `[${num(lo, nd, signed)}, ${num(hi, nd, signed)}]`);
const pct = (x) => (x === null || x === undefined ? "n/a" : `${(100 * x).toFixed(1)}%`);
function dur(s) {
  if (!Number.isFinite(s)) return "?";
  return s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`;
}
function esc(t) {
  return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
function showError(id, err) {
  const el = $(id);
  if (!err) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  el.textContent = err instanceof ApiError ? err.message : `Error: ${err.message || err}`;
}
function shq(s) { return /^[\w.,:=+-]+$/.test(s) ? s : `'${String(s).replace(/'/g, "'\\''")}'`; }

// ------------------------------------------------------------------ rules panel

function decks() { return Number($("decks").value); }

function rules() {  // the rule options that differ from their defaults (CLI names)
  const out = {};
  if (decks() !== 1) out.decks = decks();
  for (const r of META.rules) {
    if (r.name === "decks") continue;
    const el = document.querySelector(`[data-rule="${r.name}"]`);
    if (!el) continue;
    let v = el.type === "checkbox" ? el.checked : el.value;
    if (r.type === "int") v = Number(v);
    if (r.type === "float") v = Number(v);
    if (v !== r.default && el.value !== "") out[r.name] = v;
  }
  return out;
}

function ruleFlags(opts) {  // the rule options as CLI flags
  const parts = [];
  for (const r of META.rules) {
    if (!(r.name in opts)) continue;
    const flag = "--" + r.name.replaceAll("_", "-"), v = opts[r.name];
    if (typeof v === "boolean") parts.push(v ? flag : "--no-" + flag.slice(2));
    else parts.push(flag, shq(String(v)));
  }
  return parts;
}

function buildRules() {
  const box = $("rule-fields");
  for (const r of META.rules) {
    if (r.name === "decks") continue;
    let el;
    if (r.choices) {
      el = document.createElement("select");
      for (const c of r.choices) el.append(new Option(c, c, false, c === r.default));
    } else if (r.type === "bool") {
      el = document.createElement("input"); el.type = "checkbox"; el.checked = r.default;
    } else {
      el = document.createElement("input"); el.type = "number"; el.value = r.default;
      el.step = r.type === "int" ? "1" : "any";
    }
    el.dataset.rule = r.name; el.title = r.help;
    if (r.name === "variant") { el.id = "variant"; $("variant").replaceWith(el); continue; }
    const lab = document.createElement("label");
    if (r.type === "bool") lab.className = "check";
    lab.append(r.type === "bool" ? el : r.name.replaceAll("_", " "), r.type === "bool" ? " " + r.name.replaceAll("_", " ") : el);
    box.append(lab);
  }
}

function fillPlayers() {
  const d = decks();
  for (const sel of document.querySelectorAll(".player-select")) {
    const old = sel.value || META.table_player;
    sel.replaceChildren();
    for (const p of META.players) {
      if (p.decks.includes(d)) sel.append(new Option(p.name, p.name, false, p.name === old));
    }
  }
  const box = $("expose-tables"), ticked = new Set(pickedTables());
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const p of META.players) {
    if (!p.decks.includes(d)) continue;
    const cb = Object.assign(document.createElement("input"), { type: "checkbox", value: p.name, checked: ticked.has(p.name) });
    cb.className = "table-check";
    cb.addEventListener("change", tablesChanged);
    const lab = document.createElement("label");
    lab.title = p.help || "";
    lab.append(cb, " " + p.name);
    box.append(lab);
  }
  tablesChanged();
  const ex = $("expose-opp-exposure"), old = ex.value || "rule";
  ex.replaceChildren();
  for (const e of META.exposures) {
    if (e.decks.includes(d) && !e.name.includes(":") && e.name !== "fixed") ex.append(new Option(e.name, e.name, false, e.name === old));
  }
}

// ------------------------------------------------------------------ Should I expose?

let exposeGrid, exposeJob = null;

function pickedTables() {  // the ticked "compare tables" boxes, in the registry's order
  return [...document.querySelectorAll("#expose-tables input.table-check:checked")].map((c) => c.value);
}

function tablesChanged() {  // two or more tables replace the single table of the other seats
  $("expose-opponents").disabled = pickedTables().length > 1;
  if (exposeGrid) exposeCli();
}

function exposeOptions() {
  const o = { hand: exposeGrid.text(), seat: Number($("expose-seat").value) };
  const tables = pickedTables();
  if (tables.length > 1) {
    // your play stays what the form says under every table (the CLI's --player with --tables)
    o.player = $("expose-player").value;
    o.tables = tables.join(",");
  } else {
    if ($("expose-player").value !== META.table_player) o.player = $("expose-player").value;
    if ($("expose-opponents").value !== META.table_player) o.opponents = $("expose-opponents").value;
  }
  if ($("expose-opp-exposure").value !== "rule") o.opponents_exposure = $("expose-opp-exposure").value;
  if ($("expose-options").value.trim()) o.options = $("expose-options").value.trim();
  if ($("expose-measure").value !== "zero-sum") o.measure = $("expose-measure").value;
  o.precision = Number($("expose-precision").value);
  o.max_deals = Number($("expose-max-deals").value);
  o.seed = Number($("expose-seed").value);
  // batch: the table refreshes after every batch; empty = 1,000, or the CLI's own default
  // when a seat plays search (250 deals; 10 with two decks)
  const slow = new Set(META.players.filter((p) => p.slow).map((p) => p.name));
  const searching = [o.player, o.opponents, ...tables].some((p) => p && slow.has(p.split(":")[0]));
  if ($("expose-batch").value !== "") o.batch = Number($("expose-batch").value);
  else if (!searching) o.batch = 1000;
  return { ...o, ...rules() };
}

function exposeCli() {
  const o = exposeOptions(), parts = ["gongzhu-sim", "expose", shq(o.hand || "HAND")];
  for (const [k, v] of Object.entries(o)) {
    if (k === "hand" || META.rules.some((r) => r.name === k)) continue;
    parts.push("--" + k.replaceAll("_", "-"), shq(String(v)));
  }
  $("expose-cli").textContent = [...parts, ...ruleFlags(o)].join(" ");
}

function exposeHandChanged() {
  const n = exposeGrid.cards().length, need = 13 * decks();
  $("expose-hand").textContent = `${n} of ${need} cards${n ? ": " + exposeGrid.text() : ""}`;
  exposeCli();
}

function renderExpose(view) {
  const out = $("expose-out"), res = view.result;
  out.dataset.state = view.state;
  if (!res) {
    $("expose-status").textContent = view.state === "running"
      ? (view.compiling ? `compiling (first run only) · ${dur(view.elapsed)}` : `starting… ${dur(view.elapsed)}`)
      : view.state === "cancelled" ? "cancelled before the first batch: no estimate" : "";
    return;
  }
  const asked = exposeJob ? exposeJob.options.tables : null;
  if (res.settings.tables || asked) return renderTables(view, asked ? asked.split(",") : res.settings.tables);
  const run = res.runs[0], cap = res.settings.max_deals, n = run.n;
  if (view.state === "running") {
    const played = view.elapsed - (view.compiled || 0);  // the compile is not a rate, nor counted by the limit
    const left = Math.min(n ? (played / n) * (cap - n) : NaN, view.time_limit - played);
    $("expose-status").textContent = `n = ${n.toLocaleString("en")} deals of at most ${cap.toLocaleString("en")} · ${dur(view.elapsed)} · at most ${dur(left)} left · largest Δ half-width ${num(run.max_half_width)} (target ${res.settings.precision})`;
  } else {
    $("expose-status").textContent = `${run.stop_text}${view.stopped_by ? ` (${view.stopped_by})` : ""}`;
  }
  const unit = res.settings.unit;
  let h = `<p id="expose-recommendation" class="recommendation" data-option="${esc(run.recommended)}">` +
    `${view.state === "running" ? "So far: " : "Recommendation: "}<b>${run.recommended === "none" ? "expose nothing" : "expose " + esc(run.recommended)}</b>` +
    ` <span class="status">(n = ${n.toLocaleString("en")}; ${esc(unit)} per deal, 95% CIs)</span></p>`;
  h += `<table class="result" id="expose-table"><tr><th>option</th><th>EV</th><th>95% CI</th><th>Δ vs none</th><th>95% CI</th>` +
    `<th>P(Δ>0)</th><th>ties</th><th>status</th><th>♠Q pig</th><th>♦J sheep</th><th>♣10</th><th>hearts</th></tr>`;
  for (const r of res.rows) {
    const rec = r.option === run.recommended;
    h += `<tr class="${rec ? "recommended" : ""}" data-option="${esc(r.option)}"><td>${esc(r.option)}</td>` +
      `<td>${num(r.ev)}</td><td>${ci(r.ev_lo, r.ev_hi)}</td>` +
      `<td>${r.option === "none" ? "0" : num(r.delta, 2, true)}</td><td>${r.option === "none" ? "" : ci(r.delta_lo, r.delta_hi, 2, true)}</td>` +
      `<td>${r.option === "none" ? "" : pct(r.p_gain)}</td><td>${r.option === "none" ? "" : pct(r.p_tie)}</td>` +
      `<td>${esc(r.status)}</td><td>${num(r.pig, 3)}</td><td>${num(r.sheep, 3)}</td><td>${num(r.transformer, 3)}</td><td>${num(r.hearts)}</td></tr>`;
  }
  h += "</table>";
  for (const w of run.warnings || []) h += `<p class="status">${esc(w)}</p>`;
  out.innerHTML = h;
}

// Several tables: while running, the estimate so far is the table being played (progress
// only); at the end, per option its Δ with 95% CI under each table and the verdict.
function renderTables(view, tables) {
  const out = $("expose-out"), res = view.result, run = res.runs[0];
  if (!res.settings.tables) {  // the snapshot of one table's run
    const t = res.settings.opponents[0], k = tables.indexOf(t);
    const cap = res.settings.max_deals, n = run.n;
    $("expose-status").textContent = `table ${t}${k >= 0 ? ` (${k + 1} of ${tables.length})` : ""}: n = ${n.toLocaleString("en")} deals of at most ` +
      `${cap.toLocaleString("en")} · ${dur(view.elapsed)} · largest Δ half-width ${num(run.max_half_width)} (target ${res.settings.precision})`;
    out.innerHTML = `<p class="status">The comparison shows when every table is played.</p>`;
    return;
  }
  tables = res.settings.tables;
  const by = run.by_table || {};
  $("expose-status").textContent = `${tables.map((t) => `${t}: n = ${(by[t] ? by[t].n : 0).toLocaleString("en")}`).join(" · ")}` +
    ` · ${dur(view.elapsed)}${view.stopped_by ? ` (stopped: ${view.stopped_by})` : view.state === "cancelled" ? " (cancelled)" : ""}`;
  let h = `<p id="expose-recommendation" class="recommendation" data-option="${esc(run.recommended)}">` +
    `Recommendation: <b>${esc(run.recommendation || run.recommended)}</b>` +
    ` <span class="status">(${esc(res.settings.unit)} per deal; Δ vs exposing nothing with its 95% CI under each table)</span></p>`;
  h += `<table class="result" id="expose-tables-table"><tr><th>option</th>` +
    tables.map((t) => `<th colspan="2">${esc(t)}</th>`).join("") + `<th>verdict</th></tr>` +
    `<tr class="tables-head"><th></th>${tables.map(() => "<th>Δ</th><th>95% CI</th>").join("")}<th></th></tr>`;
  for (const r of res.rows) {
    const rec = r.option === run.recommended, none = r.option === "none";
    h += `<tr class="${rec ? "recommended" : ""}" data-option="${esc(r.option)}"><td>${esc(r.option)}</td>`;
    for (const t of tables) {
      const b = (r.by_table || {})[t];
      h += !b ? "<td></td><td></td>" : none ? "<td>0</td><td></td>"
        : `<td>${num(b.delta, 2, true)}</td><td>${ci(b.delta_lo, b.delta_hi, 2, true)}</td>`;
    }
    h += `<td class="verdict-${esc(r.verdict || "")}">${none ? "" : esc(r.verdict || "")}</td></tr>`;
  }
  h += "</table>";
  for (const w of run.warnings || []) h += `<p class="status">${esc(w)}</p>`;
  out.innerHTML = h;
}

async function runExpose() {
  showError("expose-error", null);
  $("expose-out").innerHTML = "";
  $("expose-run").disabled = true; $("expose-cancel").disabled = false;
  exposeJob = new Job("expose", exposeOptions(), renderExpose);
  try {
    renderExpose(await exposeJob.run());
  } catch (e) {
    showError("expose-error", e); $("expose-status").textContent = "";
    $("expose-out").dataset.state = "error";
  } finally {
    $("expose-run").disabled = false; $("expose-cancel").disabled = true; exposeJob = null;
  }
}

// ------------------------------------------------------------------ What should I play?

let adviseGrid, playGrid, adviseJob = null, plays = [], position = null;

function positionBody(ps) {
  const exposed = {};
  for (const el of document.querySelectorAll("input.exposed")) {
    if (el.value.trim()) exposed[el.dataset.seat] = el.value.trim();
  }
  const b = { hand: adviseGrid.text(), seat: Number($("advise-seat").value), plays: ps.join(" "), ...rules() };
  if ($("advise-leader").value !== "") b.first_leader = Number($("advise-leader").value);
  if ($("advise-later").checked) b.later_deal = true;
  if (Object.keys(exposed).length) b.exposed = exposed;
  return b;
}

async function checkPosition(candidate) {  // true when the position with `candidate` plays is legal
  const n = adviseGrid.cards().length;
  $("advise-hand").textContent = `${n} of ${13 * decks()} cards${n ? ": " + adviseGrid.text() : ""}`;
  if (n !== 13 * decks()) {
    position = null; $("advise-run").disabled = true;
    $("turn").textContent = "enter your hand as dealt first";
    plays = candidate; drawPlays(null);
    return false;
  }
  try {
    const r = await post("/api/position", positionBody(candidate));
    showError("advise-error", null);
    plays = r.tricks.flat().map((p) => p.play); position = r; drawPlays(r);
    return true;
  } catch (e) {
    showError("advise-error", e);
    return false;
  }
}

function drawPlays(r) {
  const box = $("plays");
  box.replaceChildren();
  box.dataset.count = plays.length;
  if (r) {
    r.tricks.forEach((t, i) => {
      const d = document.createElement("div"); d.className = "trick";
      d.innerHTML = `<b>trick ${i + 1}:</b> ` + t.map((p) => `<b>${p.seat}:</b>${esc(p.play.match(/../g).map(cardLabel).join(""))}`).join(" ");
      box.append(d);
    });
    const you = r.your_turn;
    $("turn").textContent = `trick ${r.trick} · seat ${r.to_play} to play${you ? " (you)" : ""}`;
    $("turn").dataset.seat = r.to_play;
    $("advise-run").disabled = !you || adviseJob !== null;
    $("advise-cli").textContent = r.command || "";
  } else {
    $("advise-run").disabled = true;
  }
  const seen = {};  // a card is gone when every copy of it was played
  for (const c of plays.flatMap((p) => p.match(/../g) || [])) seen[c] = (seen[c] || 0) + 1;
  playGrid.mark(Object.keys(seen).filter((c) => seen[c] >= decks()), "gone");
}

// The checks run one after another, each on the plays as they are when it runs (a click
// while an earlier check is on its way is not lost or undone).
let chain = Promise.resolve();
function check(make) {
  const p = chain.then(() => checkPosition(make()));
  chain = p.catch(() => {});
  return p;
}

async function addPlay(text) {
  const t = text.trim().toUpperCase();
  if (!t) return;
  if (await check(() => [...plays, t])) $("play-text").value = "";
}

function renderAdvise(view) {
  const out = $("advise-out"), res = view.result;
  out.dataset.state = view.state;
  const maxw = Number($("advise-max-worlds").value);
  if (!res) {
    $("advise-status").textContent = view.state === "running"
      ? (view.compiling ? `compiling (first run only) · ${dur(view.elapsed)}` : `starting… ${dur(view.elapsed)}`)
      : view.state === "cancelled" ? "cancelled before two worlds: no estimate" : "";
    return;
  }
  if (view.state === "running") {
    const w = res.worlds;
    const played = view.elapsed - (view.compiled || 0);
    const left = Math.min(w ? (played / w) * (maxw - w) : NaN, view.time_limit - played);
    $("advise-status").textContent = `${w} worlds of at most ${maxw} · ${dur(view.elapsed)} · at most ${dur(left)} left`;
  } else {
    const how = { precision: "precision reached", "max-worlds": "the worlds cap", interrupted: "stopped", "one legal play": "one legal play" }[res.stopped] || res.stopped;
    $("advise-status").textContent = `${res.worlds} sampled worlds (${how})${view.stopped_by ? ` (${view.stopped_by})` : ""}`;
  }
  let h = `<p id="advise-recommendation" class="recommendation" data-card="${esc(res.recommended)}">` +
    `${view.state === "running" ? "So far: " : "Recommended: "}<b>${esc(res.recommended)}</b>` +
    (res.simulated ? ` <span class="status">(P(best) ${num(res.p_best)}; ${res.measure === "zero-sum" ? "zero-sum" : "team share"} points per deal)</span>` : " (the only legal card)") + "</p>";
  if (res.simulated) {
    h += `<table class="result" id="advise-table"><tr><th>card</th><th>EV</th><th>95% CI</th><th>Δ best</th><th>95% CI</th><th>n</th></tr>`;
    for (const c of res.cards) {
      h += `<tr class="${c.card === res.recommended ? "recommended" : ""}" data-card="${esc(c.card)}"><td>${esc(c.card)}</td><td>${num(c.ev, 1, true)}</td>` +
        `<td>${ci(c.ci_low, c.ci_high, 1, true)}</td><td>${num(c.delta, 1, true)}</td><td>${c.card === res.recommended ? "—" : ci(c.delta_ci_low, c.delta_ci_high, 1, true)}</td><td>${c.n}</td></tr>`;
    }
    h += "</table>";
  }
  out.innerHTML = h;
}

async function runAdvise() {
  if (!position || !position.your_turn) return;
  showError("advise-error", null);
  $("advise-out").innerHTML = "";
  $("advise-run").disabled = true; $("advise-cancel").disabled = false;
  const o = { ...position.options, precision: Number($("advise-precision").value),
    max_worlds: Number($("advise-max-worlds").value), seed: Number($("advise-seed").value) };
  if ($("advise-players").value !== META.table_player) o.players = $("advise-players").value;
  adviseJob = new Job("advise", o, renderAdvise);
  try {
    renderAdvise(await adviseJob.run());
  } catch (e) {
    showError("advise-error", e); $("advise-out").dataset.state = "error";
  } finally {
    adviseJob = null; $("advise-cancel").disabled = true; $("advise-run").disabled = !(position && position.your_turn);
  }
}

// ------------------------------------------------------------------ Reports

async function loadReports() {
  const r = await get("/api/reports");
  if (!r.results) {
    $("reports-root").textContent = "No results folder: start the server with gongzhu-sim serve --results DIR to list its run, study and tune reports.";
    $("reports-out").replaceChildren();
    return;
  }
  $("reports-root").textContent = `Results folders under ${r.results}:`;
  if (!r.folders.length) { $("reports-out").textContent = "none yet."; return; }
  let h = `<table class="result" id="reports-table"><tr><th>folder</th><th>kind</th><th>status</th><th>started</th><th>report</th></tr>`;
  for (const f of r.folders) {
    h += `<tr><td>${esc(f.path)}</td><td>${esc(f.kind)}</td><td>${esc(f.status || "")}</td><td>${esc(f.started || "")}</td>` +
      `<td>${f.report ? `<a href="/reports/${f.report.split("/").map(encodeURIComponent).join("/")}" target="_blank" rel="noopener">open report</a>` : "no report yet"}</td></tr>`;
  }
  $("reports-out").innerHTML = h + "</table>";
}

// ------------------------------------------------------------------ start

function showPage() {
  const page = (location.hash || "#expose").slice(1);
  for (const p of ["expose", "advise", "reports"]) {
    $(`page-${p}`).hidden = p !== page;
    $(`tab-${p}`).classList.toggle("active", p === page);
  }
  $("rules-panel").hidden = page === "reports";
  if (page === "reports") loadReports().catch((e) => { $("reports-out").textContent = e.message; });
}

async function main() {
  META = await get("/api/meta");
  buildRules();
  for (const m of META.measures) $("expose-measure").append(new Option(m, m, false, m === "zero-sum"));
  fillPlayers();
  $("expose-max-deals").max = META.caps.max_deals;
  $("advise-max-worlds").max = META.caps.max_worlds;

  exposeGrid = new CardGrid($("expose-grid"), { onChange: exposeHandChanged });
  adviseGrid = new CardGrid($("advise-grid"), { onChange: () => check(() => plays) });
  playGrid = new CardGrid($("play-grid"), { mode: "pick", onPick: (c) => addPlay(c) });
  $("decks").addEventListener("change", () => {
    for (const g of [exposeGrid, adviseGrid]) g.setDecks(decks());
    fillPlayers(); exposeHandChanged(); check(() => plays);
  });
  for (const id of ["expose-seat", "expose-player", "expose-opponents", "expose-opp-exposure", "expose-options",
    "expose-measure", "expose-precision", "expose-max-deals", "expose-seed", "expose-batch"]) {
    $(id).addEventListener("change", exposeCli);
  }
  $("rules-panel").addEventListener("change", () => { exposeCli(); check(() => plays); });
  const paste = (grid, input, err) => async () => {
    try {
      const r = await post("/api/hand", { hand: $(input).value, decks: decks() });
      showError(err, null); grid.setCards(r.cards);
    } catch (e) { showError(err, e); }
  };
  $("expose-paste-use").addEventListener("click", paste(exposeGrid, "expose-paste", "expose-error"));
  $("advise-paste-use").addEventListener("click", paste(adviseGrid, "advise-paste", "advise-error"));
  $("expose-clear").addEventListener("click", () => exposeGrid.setCards([]));
  $("advise-clear").addEventListener("click", () => adviseGrid.setCards([]));
  $("expose-run").addEventListener("click", runExpose);
  $("expose-cancel").addEventListener("click", () => exposeJob && exposeJob.cancel());
  for (const id of ["advise-seat", "advise-leader", "advise-later"]) $(id).addEventListener("change", () => check(() => plays));
  for (const el of document.querySelectorAll("input.exposed")) el.addEventListener("change", () => check(() => plays));
  $("play-add").addEventListener("click", () => addPlay($("play-text").value));
  $("play-text").addEventListener("keydown", (e) => { if (e.key === "Enter") addPlay($("play-text").value); });
  $("play-undo").addEventListener("click", () => check(() => plays.slice(0, -1)));
  $("play-clear").addEventListener("click", () => check(() => []));
  $("advise-run").addEventListener("click", runAdvise);
  $("advise-cancel").addEventListener("click", () => adviseJob && adviseJob.cancel());
  addEventListener("hashchange", showPage);
  showPage(); exposeHandChanged(); check(() => []);
  document.body.dataset.ready = "1";
}

main().catch((e) => { document.body.prepend(Object.assign(document.createElement("pre"), { className: "error", textContent: String(e.message || e) })); });
