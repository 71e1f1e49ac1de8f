// gongzhu-sim serve: the page (docs/serve.md).  Every number comes from the server, which
// runs the CLI's own analysis; this file only builds the options and draws the answers.
import { ApiError, get, Job, PAGE, post } from "./api.js";
import { CardGrid, cardLabel, cardsLabel, tens } from "./cards.js";
import { STRINGS, getLang, initialLang, message, setLang, t, tOr } from "./i18n.js";

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
  return s < 90 ? t("dur.s", { n: Math.round(s) }) : t("dur.min", { n: Math.round(s / 60) });
}
const int = (n) => Number(n).toLocaleString("en");
function esc(t) {
  return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
// An error line under a form: the server's `Error:` text, in Chinese with its translation
// first (i18n.js message()); or the page's own message, `own` (a function giving the text in
// the page's language).  Shown again in the new language when the language changes.
const shownErrors = new Map();
function showError(id, err, own = null) {
  const el = $(id);
  if (!err && !own) { el.hidden = true; el.textContent = ""; shownErrors.delete(id); return; }
  const text = own ? null : err instanceof ApiError ? err.message : `Error: ${err.message || err}`;
  shownErrors.set(id, [text, own]);
  el.hidden = false;
  el.textContent = own ? own() : message(text, true);
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
      for (const c of r.choices) {
        const o = new Option(c, c, false, c === r.default);
        o.dataset.i18n = `choice.${c}`; o.textContent = tOr(`choice.${c}`, c);
        el.append(o);
      }
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
    const name = Object.assign(document.createElement("span"), { textContent: tOr(`rule.${r.name}`, r.name.replaceAll("_", " ")) });
    name.dataset.i18n = `rule.${r.name}`;
    if (r.type === "bool") lab.append(el, " ", name); else lab.append(name, " ", el);
    box.append(lab);
  }
}

function fillPlayers() {
  const d = decks();
  for (const sel of document.querySelectorAll(".player-select")) {
    const old = sel.value || META.table_player;
    sel.replaceChildren();
    for (const p of META.players) {
      if (p.decks.includes(d)) sel.append(nameOption("player", p.name, p.name === old));
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
    const name = Object.assign(document.createElement("span"), { textContent: tOr(`player.${p.name}`, p.name) });
    if (`player.${p.name}` in STRINGS.en) name.dataset.i18n = `player.${p.name}`;
    lab.append(cb, " ", name);
    box.append(lab);
  }
  tablesChanged();
  const ex = $("expose-opp-exposure"), old = ex.value || "rule";
  ex.replaceChildren();
  for (const e of META.exposures) {
    if (e.decks.includes(d) && !e.name.includes(":") && e.name !== "fixed") ex.append(nameOption("exposure", e.name, e.name === old));
  }
}

// An <option> for a player or exposure policy: the value is its name as the CLI takes it, the
// text the page's language (i18n.js `player.*` / `exposure.*`; a name without one as it is).
function nameOption(kind, name, selected) {
  const o = new Option(tOr(`${kind}.${name}`, name), name, false, selected);
  if (`${kind}.${name}` in STRINGS.en) o.dataset.i18n = `${kind}.${name}`;
  return o;
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
  // empty: the command's default, which depends on the number of decks
  if ($("expose-precision").value !== "") o.precision = Number($("expose-precision").value);
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

// "12 of 13 cards — Run needs 13: ♠5 4 3 · …" under a grid; true when the hand is complete.
function handCount(grid, el) {
  const n = grid.cards().length, need = 13 * decks();
  el.textContent = t("hand.count", { n, need }) + (n !== need ? t("hand.short", { need }) : "") +
    (n ? t("hand.sep") + grid.label() : "");
  el.dataset.count = n;
  return n === need;
}

function exposeHandChanged() {
  $("expose-run").disabled = !handCount(exposeGrid, $("expose-hand")) || exposeJob !== null;
  exposeCli();
}

// What stopped a finished run, from the JSON (the CLI's stop_text, in the page's language).
function stopText(run, settings) {
  const what = t(run.single ? "stop.ev" : "stop.delta");
  const v = { n: int(run.n), cap: int(settings.max_deals), hw: num(run.max_half_width),
    p: settings.precision, what };
  if (run.stop === "precision") return t("stop.precision", v);
  if (run.stop === "interrupted") return t("stop.interrupted", v);
  return t(settings.precision > 0 ? "stop.cap" : "stop.cap0", v);
}

const stoppedBy = (why) => (why ? ` (${message(why)})` : "");
const optionLabel = (o) => (o === "none" ? t("option.none") : cardsLabel(o));

// "expose ♦J (sheep)": an option as advice, the pig, sheep and transformer named.
function exposeWhat(o) {
  if (o === "none") return t("expose.nothing");
  const cards = String(o).split(",").map((c) => {
    const c2 = c.trim(), nick = ["SQ", "DJ", "CT"].includes(c2) ? t(`nick.${c2}`) : "";
    return cardsLabel(c2) + (nick ? (getLang() === "zh" ? `（${nick}）` : ` (${nick})`) : "");
  });
  return t("expose.these", { cards: cards.join(" ") });
}

let lastExpose = null;  // [view, tables asked] of the last drawing (redrawn in another language)

function renderExpose(view, asked = exposeJob ? exposeJob.options.tables : null) {
  lastExpose = [view, asked];
  const out = $("expose-out"), res = view.result;
  out.dataset.state = view.state;
  if (!res) {
    $("expose-status").textContent = view.state === "running"
      ? (view.compiling ? t("compiling", { t: dur(view.elapsed) }) : t("expose.starting", { t: dur(view.elapsed) }))
      : view.state === "cancelled" ? t("expose.cancelled0") : "";
    return;
  }
  if (res.settings.tables || asked) return renderTables(view, asked ? asked.split(",") : res.settings.tables);
  const run = res.runs[0], cap = res.settings.max_deals, n = run.n;
  run.single = res.rows.length === 1;
  if (view.state === "running") {
    const played = view.elapsed - (view.compiled || 0);  // the compile is not a rate, nor counted by the limit
    const left = Math.min(n ? (played / n) * (cap - n) : NaN, view.time_limit - played);
    $("expose-status").textContent = t("expose.running", { n: int(n), cap: int(cap), t: dur(view.elapsed),
      left: dur(left), hw: num(run.max_half_width), p: res.settings.precision });
  } else {
    $("expose-status").textContent = stopText(run, res.settings) + stoppedBy(view.stopped_by);
  }
  const unit = tOr(`unit.${res.settings.unit}`, res.settings.unit);
  const two = (res.settings.rules && res.settings.rules.decks === 2) || decks() === 2;
  let h = `<p id="expose-recommendation" class="recommendation" data-option="${esc(run.recommended)}">` +
    `${t(view.state === "running" ? "sofar" : "recommendation")}<b>${esc(exposeWhat(run.recommended))}</b>` +
    ` <span class="status">${esc(t("expose.unit", { n: int(n), unit }))}</span></p>`;
  const copies = two ? " " + t("col.copies") : "";
  h += `<table class="result" id="expose-table"><tr>` + ["col.option", "col.ev", "col.ci", "col.delta", "col.ci",
    "col.pgain", "col.ties", "col.status"].map((k) => `<th>${esc(t(k))}</th>`).join("") +
    ["col.pig", "col.sheep", "col.transformer"].map((k) => `<th class="component">${esc(t(k) + copies)}</th>`).join("") +
    ["col.full_hearts", "col.grand_slam", "col.hearts"].map((k) => `<th class="component">${esc(t(k))}</th>`).join("") + "</tr>";
  const nd = two ? 2 : 3;
  for (const r of res.rows) {
    const rec = r.option === run.recommended, none = r.option === "none";
    h += `<tr class="${rec ? "recommended" : ""}" data-option="${esc(r.option)}"><td>${esc(optionLabel(r.option))}</td>` +
      `<td>${num(r.ev)}</td><td>${ci(r.ev_lo, r.ev_hi)}</td>` +
      `<td>${none ? "0" : num(r.delta, 2, true)}</td><td>${none ? "" : ci(r.delta_lo, r.delta_hi, 2, true)}</td>` +
      `<td>${none ? "" : pct(r.p_gain)}</td><td>${none ? "" : pct(r.p_tie)}</td>` +
      `<td>${esc(tOr(`status.${r.status}`, r.status))}</td><td>${num(r.pig, nd)}</td><td>${num(r.sheep, nd)}</td>` +
      `<td>${num(r.transformer, nd)}</td><td>${num(r.full_hearts, 3)}</td><td>${num(r.grand_slam, 3)}</td><td>${num(r.hearts)}</td></tr>`;
  }
  h += "</table>";
  h += `<p id="expose-legend" class="legend" data-decks="${two ? 2 : 1}">${esc(t(two ? "legend.two" : "legend.one"))}</p>`;
  for (const w of run.warnings || []) h += `<p class="status warning">${esc(message(w))}</p>`;
  out.innerHTML = h;
}

// Several tables: while running, the estimate so far is the table being played (progress
// only); at the end, per option its Δ with 95% CI under each table and the verdict.
function renderTables(view, tables) {
  const out = $("expose-out"), res = view.result, run = res.runs[0];
  if (!res.settings.tables) {  // the snapshot of one table's run
    const tb = res.settings.opponents[0], k = tables.indexOf(tb);
    $("expose-status").textContent = t("tables.running", { t: tb, k: k >= 0 ? t("tables.k", { k: k + 1, of: tables.length }) : "",
      n: int(run.n), cap: int(res.settings.max_deals), el: dur(view.elapsed), hw: num(run.max_half_width),
      p: res.settings.precision });
    out.innerHTML = `<p class="status">${esc(t("tables.wait"))}</p>`;
    return;
  }
  tables = res.settings.tables;
  const by = run.by_table || {};
  $("expose-status").textContent = `${tables.map((tb) => `${tb}: n = ${int(by[tb] ? by[tb].n : 0)}`).join(" · ")}` +
    ` · ${dur(view.elapsed)}${view.stopped_by ? t("tables.stopped", { why: message(view.stopped_by) }) : view.state === "cancelled" ? t("tables.cancelled") : ""}`;
  // the recommendation per table played, grouped (the CLI's recommendation_text)
  const groups = new Map();
  for (const tb of tables) if (by[tb]) groups.set(by[tb].recommended, [...(groups.get(by[tb].recommended) || []), tb]);
  let rec;
  if (groups.size === 1) {
    const [[o, ts]] = groups;
    rec = t(ts.length === tables.length ? "tables.every" : "tables.every_played", { what: exposeWhat(o), ts: ts.join(", ") });
  } else {
    rec = [...groups].map(([o, ts]) => t("tables.under", { what: exposeWhat(o), ts: ts.join(", ") })).join("; ");
  }
  let h = `<p id="expose-recommendation" class="recommendation" data-option="${esc(run.recommended)}">` +
    `${t("recommendation")}<b>${esc(groups.size ? rec : run.recommendation || run.recommended)}</b>` +
    ` <span class="status">${esc(t("tables.unit", { unit: tOr(`unit.${res.settings.unit}`, res.settings.unit) }))}</span></p>`;
  h += `<table class="result" id="expose-tables-table"><tr><th>${esc(t("col.option"))}</th>` +
    tables.map((tb) => `<th colspan="2">${esc(tb)}</th>`).join("") + `<th>${esc(t("col.verdict"))}</th></tr>` +
    `<tr class="tables-head"><th></th>${tables.map(() => `<th>Δ</th><th>${esc(t("col.ci"))}</th>`).join("")}<th></th></tr>`;
  for (const r of res.rows) {
    const recd = r.option === run.recommended, none = r.option === "none";
    h += `<tr class="${recd ? "recommended" : ""}" data-option="${esc(r.option)}"><td>${esc(optionLabel(r.option))}</td>`;
    for (const tb of tables) {
      const b = (r.by_table || {})[tb];
      h += !b ? "<td></td><td></td>" : none ? "<td>0</td><td></td>"
        : `<td>${num(b.delta, 2, true)}</td><td>${ci(b.delta_lo, b.delta_hi, 2, true)}</td>`;
    }
    h += `<td class="verdict-${esc(r.verdict || "")}" data-verdict="${esc(r.verdict || "")}">${none || !r.verdict ? "" : esc(tOr(`verdict.${r.verdict}`, r.verdict))}</td></tr>`;
  }
  h += "</table>";
  for (const w of run.warnings || []) h += `<p class="status warning">${esc(message(w))}</p>`;
  out.innerHTML = h;
}

async function runExpose() {
  if (exposeGrid.cards().length !== 13 * decks()) return;
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
    exposeJob = null; $("expose-cancel").disabled = true; exposeHandChanged();
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
  if (!handCount(adviseGrid, $("advise-hand"))) {
    position = null; $("advise-run").disabled = true;
    $("turn").textContent = t("advise.first");
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
    r.tricks.forEach((tr, i) => {
      const d = document.createElement("div"); d.className = "trick";
      d.innerHTML = `<b>${esc(t("advise.trick", { i: i + 1 }))}</b> ` + tr.map((p) => `<b>${p.seat}:</b>${esc(p.play.match(/../g).map(cardLabel).join(""))}`).join(" ");
      box.append(d);
    });
    const you = r.your_turn;
    $("turn").textContent = t("advise.turn", { t: r.trick, s: r.to_play }) + (you ? t("advise.you") : "");
    $("turn").dataset.seat = r.to_play;
    $("advise-run").disabled = !you || adviseJob !== null;
  } else {
    $("advise-run").disabled = true;
  }
  adviseCli();
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

// The advise options of the position with the table, precision, most worlds and seed chosen
// now (read again whenever one of them changes).
function adviseOptions() {
  const o = { ...position.options,
    max_worlds: Number($("advise-max-worlds").value), seed: Number($("advise-seed").value) };
  if ($("advise-precision").value !== "") o.precision = Number($("advise-precision").value);
  if ($("advise-players").value !== META.table_player) o.players = $("advise-players").value;
  return o;
}

// The command line giving the page's numbers: the position and the current settings.
function adviseCli() {
  if (!position || !position.options) { $("advise-cli").textContent = ""; return; }
  const o = adviseOptions(), parts = ["gongzhu-sim", "advise", shq(tens(o.hand)), "--seat", String(o.seat)];
  for (const e of o.exposed || []) parts.push("--exposed", shq(tens(e)));
  if (o.plays) parts.push("--plays", shq(tens(o.plays)));
  if (o.later_deal) parts.push("--later-deal");
  if (o.players) parts.push("--players", shq(o.players));
  if (o.precision !== undefined) parts.push("--precision", String(o.precision));
  parts.push("--max-worlds", String(o.max_worlds), "--seed", String(o.seed));
  $("advise-cli").textContent = [...parts, ...ruleFlags(o)].join(" ");
}

let lastAdvise = null;

function renderAdvise(view) {
  lastAdvise = view;
  const out = $("advise-out"), res = view.result;
  out.dataset.state = view.state;
  const maxw = Number($("advise-max-worlds").value);
  if (!res) {
    $("advise-status").textContent = view.state === "running"
      ? (view.compiling ? t("compiling", { t: dur(view.elapsed) }) : t("advise.starting", { t: dur(view.elapsed) }))
      : view.state === "cancelled" ? t("advise.cancelled0") : "";
    return;
  }
  if (view.state === "running") {
    const w = res.worlds;
    const played = view.elapsed - (view.compiled || 0);
    const left = Math.min(w ? (played / w) * (maxw - w) : NaN, view.time_limit - played);
    $("advise-status").textContent = t("advise.running", { w: int(w), max: int(maxw), t: dur(view.elapsed), left: dur(left) });
  } else {
    $("advise-status").textContent = t("advise.done", { w: int(res.worlds), how: tOr(`how.${res.stopped}`, res.stopped) }) +
      stoppedBy(view.stopped_by);
  }
  // exact ties: cards whose difference to the best is 0 in every sampled world (Δ 0 with a
  // CI of [0, 0]: the values are sums of whole points, so equal means exactly equal)
  const tied = res.simulated && res.worlds >= 2 ? res.cards.filter((c) => c.card !== res.recommended &&
    c.delta === 0 && c.delta_ci_low === 0 && c.delta_ci_high === 0).map((c) => c.card) : [];
  const allTied = tied.length > 0 && tied.length === res.cards.length - 1;
  const unit = t(res.measure === "zero-sum" ? "advise.unit.zero-sum" : "advise.unit.team");
  let h = `<p id="advise-recommendation" class="recommendation" data-card="${esc(res.recommended)}" data-tie="${allTied ? "all" : tied.length ? "some" : ""}">`;
  if (allTied) {
    h += `<b>${esc(t("advise.tie_all"))}</b>`;
  } else {
    h += `${t(view.state === "running" ? "sofar" : "recommended")}<b>${esc(cardsLabel(res.recommended))}</b> `;
    if (!res.simulated) h += esc(t("advise.only"));
    else if (tied.length) h += `<span class="status">${esc(t("advise.tie_some", { cards: tied.map(cardsLabel).join(" ") }))}</span>`;
    else h += `<span class="status">${esc(t("advise.pbest", { p: num(res.p_best), unit }))}</span>`;
  }
  h += "</p>";
  if (res.simulated) {
    h += `<table class="result" id="advise-table"><tr>` + ["col.card", "col.ev", "col.ci", "col.dbest", "col.ci"]
      .map((k) => `<th>${esc(t(k))}</th>`).join("") + "<th>n</th></tr>";
    for (const c of res.cards) {
      const rec = c.card === res.recommended && !allTied;
      h += `<tr class="${rec ? "recommended" : ""}" data-card="${esc(c.card)}"><td>${esc(cardsLabel(c.card))}</td><td>${num(c.ev, 1, true)}</td>` +
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
  adviseJob = new Job("advise", adviseOptions(), renderAdvise);
  try {
    renderAdvise(await adviseJob.run());
  } catch (e) {
    showError("advise-error", e); $("advise-out").dataset.state = "error";
  } finally {
    adviseJob = null; $("advise-cancel").disabled = true; $("advise-run").disabled = !(position && position.your_turn);
  }
}


// ------------------------------------------------------------------ Play a deal

let game = null, hintJob = null, lastHint = null, reviewRun = null, lastReview = null;

const seatName = (s) => t(game && s === game.seat ? "play.you" : "play.seat.n", { s });
const red = (c) => (c[0] === "H" || c[0] === "D" ? " red" : "");

async function playNew() {
  showError("play-error", null);
  const seat = Number($("play-seat").value), body = { page: PAGE, seat, table: $("play-table").value,
    seed: Number($("play-seed").value), deal: Number($("play-deal").value), ...rules() };
  const hand = $("play-hand-text").value.trim();
  if (hand) { body.hands = ["", "", "", ""]; body.hands[seat] = hand; }
  $("play-new").disabled = true;
  $("play-status").textContent = t("play.dealing");
  try {
    lastHint = null; lastReview = null; reviewRun = null;
    $("play-hint-out").innerHTML = ""; $("play-review-out").innerHTML = "";
    delete $("play-hint-out").dataset.state; delete $("play-review-out").dataset.state;
    drawGame(await post("/api/play/new", body));
  } catch (e) {
    showError("play-error", e); $("play-status").textContent = "";
  } finally { $("play-new").disabled = false; }
}

// The view of the page's deal (sim/web/play.py PlayManager.view).
function drawGame(v) {
  game = v;
  $("play-board").hidden = false;
  $("play-board").dataset.phase = v.phase;
  $("play-board").dataset.plays = v.tricks.length * 4 + v.trick.length;
  $("play-board").dataset.trick = v.trick_no;
  const you = v.phase === "play" && v.to_play === v.seat;
  $("play-status").textContent = v.phase === "expose" ? t("play.status.expose")
    : v.phase === "over" ? t("play.status.over") : t("play.status.turn", { t: v.trick_no });
  // exposure
  $("play-expose").hidden = v.phase !== "expose";
  if (v.phase === "expose") {
    const box = $("play-exposable");
    box.replaceChildren();
    v.exposable.forEach((c, i) => {
      const lab = document.createElement("label"); lab.className = "card" + red(c);
      const cb = Object.assign(document.createElement("input"), { type: "checkbox", value: c, id: `play-x-${i}` });
      cb.dataset.card = c;
      lab.append(cb, " " + cardLabel(c));
      box.append(lab);
    });
    const ann = Object.entries(v.announced || {});
    $("play-announced").textContent = ann.length ? t("play.announced", { what: ann.map(([s, cs]) => `${seatName(Number(s))}: ${cs.map(cardLabel).join(" ")}`).join("; ") })
      : t("play.expose.which");
  }
  const exp = (v.exposed || []).map((cs, s) => [s, cs]).filter(([, cs]) => cs.length);
  $("play-exposed").textContent = v.exposed ? t("play.exposed", { what: exp.length ? exp.map(([s, cs]) => `${seatName(s)} ${cs.map(cardLabel).join(" ")}`).join("; ") : t("play.exposed.none") }) : "";
  // the trick on the table (the last finished one until the next is led)
  const shown = v.trick.length || !v.tricks.length ? { plays: v.trick, winner: null } : v.tricks[v.tricks.length - 1];
  const box = $("play-trick");
  box.replaceChildren();
  for (let s = 0; s < 4; s++) {
    const p = shown.plays.find((x) => x.seat === s), d = document.createElement("div");
    d.className = "seat" + (s === v.seat ? " you" : "") + (shown.winner === s ? " won" : "");
    d.dataset.seat = s;
    d.innerHTML = `<span class="who">${esc(seatName(s))}</span>${p ? esc(cardsLabel(p.play)) : "·"}`;
    box.append(d);
  }
  $("play-trick-no").textContent = v.phase === "over" ? "" : String(v.trick.length || !v.tricks.length ? v.trick_no : v.tricks.length);
  $("play-turn").textContent = you ? t("play.yourturn") : "";
  // your hand: every card a button (an illegal one is refused by the server with the rule)
  const legal = new Set(v.legal || []), hand = $("play-hand");
  hand.replaceChildren();
  for (const c of v.hand) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "card" + red(c) + (legal.has(c) ? " legal" : "");
    b.dataset.card = c; b.textContent = cardLabel(c); b.disabled = !you;
    b.addEventListener("click", () => playCard(c));
    hand.append(b);
  }
  const pairs = $("play-pairs");  // two decks: the legal two-card plays
  pairs.replaceChildren();
  for (const pl of legal) {
    if (pl.length !== 4) continue;
    const b = document.createElement("button");
    b.type = "button"; b.className = "card legal" + red(pl); b.dataset.card = pl; b.textContent = cardsLabel(pl);
    b.addEventListener("click", () => playCard(pl));
    pairs.append(b);
  }
  $("play-hint").disabled = !you || hintJob !== null;
  const hist = $("play-tricks");
  hist.replaceChildren();
  v.tricks.forEach((tr, i) => {
    const d = document.createElement("div"); d.className = "trick";
    d.innerHTML = `<b>${esc(t("advise.trick", { i: i + 1 }))}</b> ` + tr.plays.map((p) => `<b>${p.seat}:</b>${esc(cardsLabel(p.play))}`).join(" ") +
      ` → ${esc(seatName(tr.winner))}`;
    hist.append(d);
  });
  $("play-end").hidden = v.phase !== "over";
  $("play-mine").hidden = v.phase === "over";
  if (v.phase === "over") drawScores(v);
}

function drawScores(v) {
  const one = v.decks === 1;
  let h = `<table class="result" id="play-scores-table"><tr><th>${esc(t("play.col.seat"))}</th><th>${esc(t("play.col.raw"))}</th>` +
    `<th>${esc(t("play.col.zero"))}</th><th>${esc(t(one ? "play.col.points12" : "play.col.points"))}</th></tr>`;
  for (let s = 0; s < 4; s++) {
    h += `<tr class="${s === v.seat ? "you" : ""}" data-seat="${s}"><td>${esc(seatName(s))}</td><td>${v.scores.raw[s]}</td>` +
      `<td>${num(v.scores.zero_sum[s], 2)}</td><td>${v.scores.points[s]}</td></tr>`;
  }
  $("play-scores").innerHTML = h + "</table>";
  const name = `gongzhu-deal-${v.deal === null ? "hands" : v.seed}-${v.deal === null ? "x" : v.deal}.json`;
  const a = $("play-download");
  a.href = `/api/play/record?page=${encodeURIComponent(PAGE)}&game=${encodeURIComponent(v.game)}`;
  a.setAttribute("download", name);
  $("play-review-cli").textContent = ["gongzhu-sim", "review", name, "--seat", String(v.seat), "--players", v.table,
    "--precision", "10", "--max-worlds", $("play-review-worlds").value, "--max-deals", "4000", "--seed", String(v.seed)].join(" ");
}

async function playExpose() {
  const cards = [...document.querySelectorAll("#play-exposable input:checked")].map((c) => c.value);
  await playStep("/api/play/expose", { cards });
}

async function playCard(card) { await playStep("/api/play/card", { card }); }

async function playStep(path, extra) {
  if (!game) return;
  showError("play-error", null);
  for (const b of document.querySelectorAll("#play-hand button, #play-pairs button")) b.disabled = true;
  $("play-board").dataset.busy = "1";
  try {
    const v = await post(path, { page: PAGE, game: game.game, ...extra });
    if (hintJob) { hintJob.cancel(); hintJob = null; }
    lastHint = null; $("play-hint-out").innerHTML = ""; $("play-hint-status").textContent = "";
    delete $("play-hint-out").dataset.state;
    drawGame(v);
    if (v.phase === "over") runReview();
  } catch (e) {
    showError("play-error", e);
    drawGame(game);
    if (lastHint) drawHint(lastHint);  // the hint stays marked in the hand
  } finally { $("play-board").dataset.busy = "0"; }
}

async function runHint() {
  if (!game || !game.advise) return;
  const opts = { ...game.advise, precision: 10, max_worlds: Number($("play-hint-worlds").value), seed: game.seed };
  $("play-hint").disabled = true;
  $("play-hint-out").innerHTML = ""; $("play-hint-out").dataset.state = "running";
  const job = new Job("advise", opts, (v) => drawHint(v, job));
  hintJob = job;
  try {
    drawHint(await job.run(), job);
  } catch (e) {
    if (hintJob === job) showError("play-error", e);
  } finally {
    if (hintJob === job) hintJob = null;
    $("play-hint").disabled = !(game && game.phase === "play" && game.to_play === game.seat);
  }
}

// `job`: the hint job the view is of (a view of an older hint, dropped after a play, is not
// drawn); left out: redraw the last hint (another language).
function drawHint(view, job) {
  if (job !== undefined && job !== hintJob) return;
  lastHint = view;
  const out = $("play-hint-out"), res = view.result;
  out.dataset.state = view.state;
  if (!res) { $("play-hint-status").textContent = view.state === "running" ? t("advise.starting", { t: dur(view.elapsed) }) : ""; return; }
  $("play-hint-status").textContent = view.state === "running" ? t("play.hint.running", { w: int(res.worlds) })
    : t("advise.done", { w: int(res.worlds), how: tOr(`how.${res.stopped}`, res.stopped) }) + stoppedBy(view.stopped_by);
  const unit = t(res.measure === "zero-sum" ? "advise.unit.zero-sum" : "advise.unit.team");
  let h = `<p id="play-hint-card" class="recommendation" data-card="${esc(res.recommended)}">${t(view.state === "running" ? "sofar" : "play.hint.says")}` +
    `<b>${esc(cardsLabel(res.recommended))}</b> `;
  h += res.simulated ? `<span class="status">${esc(t("advise.pbest", { p: num(res.p_best), unit }))}</span>` : esc(t("advise.only"));
  h += "</p>";
  if (res.simulated) {
    h += `<table class="result" id="play-hint-table"><tr>` + ["col.card", "col.ev", "col.ci", "col.dbest", "col.ci"]
      .map((k) => `<th>${esc(t(k))}</th>`).join("") + "<th>n</th></tr>";
    for (const c of res.cards) {
      h += `<tr class="${c.card === res.recommended ? "recommended" : ""}" data-card="${esc(c.card)}"><td>${esc(cardsLabel(c.card))}</td><td>${num(c.ev, 1, true)}</td>` +
        `<td>${ci(c.ci_low, c.ci_high, 1, true)}</td><td>${num(c.delta, 1, true)}</td><td>${c.card === res.recommended ? "—" : ci(c.delta_ci_low, c.delta_ci_high, 1, true)}</td><td>${c.n}</td></tr>`;
    }
    h += "</table>";
  }
  out.innerHTML = h;
  for (const b of document.querySelectorAll("#play-hand button, #play-pairs button")) b.classList.toggle("hinted", b.dataset.card === res.recommended);
}

async function runReview() {
  if (!game || game.phase !== "over") return;
  const mine = {};
  reviewRun = mine;
  $("play-review").disabled = true;
  $("play-review-out").innerHTML = ""; $("play-review-out").dataset.state = "running";
  $("play-review-status").textContent = t("play.review.starting");
  try {
    let v = await post("/api/play/review", { page: PAGE, game: game.game, max_worlds: Number($("play-review-worlds").value) });
    while (v.state === "running") {
      await new Promise((r) => setTimeout(r, 400));
      if (reviewRun !== mine) return;
      v = await get(`/api/jobs/${v.job}?page=${PAGE}`);
      drawReview(v);
    }
    drawReview(v);
  } catch (e) {
    showError("play-error", e); $("play-review-out").dataset.state = "error"; $("play-review-status").textContent = "";
  } finally {
    if (reviewRun === mine) $("play-review").disabled = false;
  }
}

function drawReview(view) {
  lastReview = view;
  const out = $("play-review-out"), res = view.result;
  if (view.state === "running") {
    $("play-review-status").textContent = res ? t("play.review.running", { k: res.done + 1, n: res.total, el: dur(view.elapsed) })
      : t("play.review.starting");
    return;
  }
  out.dataset.state = view.state;
  if (!res || !res.decisions) { $("play-review-status").textContent = view.state === "cancelled" ? t("expose.cancelled0") : ""; return; }
  $("play-review-status").textContent = t(res.stopped === "interrupted" ? "play.review.partial" : "play.review.done",
    { el: dur(res.elapsed) }) + stoppedBy(view.stopped_by);
  const seat = String(res.settings.seats[0]), tot = res.totals[seat] || { lost: 0, mistakes: 0, decisions: 0 };
  const unit = t(res.measure === "zero-sum" ? "advise.unit.zero-sum" : "advise.unit.team");
  let h = `<p id="play-review-totals" class="recommendation" data-mistakes="${tot.mistakes}" data-decisions="${tot.decisions}">` +
    `<b>${esc(t("play.review.totals", { m: tot.mistakes, d: tot.decisions, lost: num(tot.lost, 1), unit }))}</b> ` +
    `<span class="status">${esc(t("play.review.unit", { unit, th: res.settings.threshold, w: int(res.settings.max_worlds) }))}</span></p>`;
  const rows = [...res.exposure.map((e) => ({ ...e, trick: null, played: e.chosen, p_best: null, hindsight_loss: null })), ...res.decisions];
  const most = Math.max(1, ...rows.map((r) => r.loss || 0));
  h += `<table class="result" id="play-review-table"><tr>` + ["play.col.decision", "play.col.played", "play.col.best", "play.col.loss",
    "col.ci", "play.col.pbest", "play.col.hindsight", "play.col.n", "play.col.mistake"].map((k) => `<th>${esc(t(k))}</th>`).join("") + "</tr>";
  const opt = (o) => (o === "none" ? t("option.none") : cardsLabel(o));
  for (const r of rows) {
    const w = Math.round(80 * Math.max(0, r.loss || 0) / most), ex = r.trick === null;
    h += `<tr class="${r.mistake ? "mistake" : ""}" data-trick="${ex ? "exposure" : r.trick}" data-best="${esc(r.best)}" data-loss="${r.loss}" data-mistake="${r.mistake ? 1 : 0}">` +
      `<td>${esc(ex ? t("play.exposure") : t("play.trick.n", { i: r.trick }))}</td><td>${esc(ex ? opt(r.played) : cardsLabel(r.played))}</td>` +
      `<td>${esc(ex ? opt(r.best) : cardsLabel(r.best))}</td><td>${num(r.loss, 1)} <span class="lossbar" style="width:${w}px"></span></td>` +
      `<td>${ci(r.loss_lo, r.loss_hi, 1)}</td><td>${r.p_best === null ? "" : num(r.p_best)}</td>` +
      `<td>${r.hindsight_loss === null ? "" : num(r.hindsight_loss, 1)}</td><td>${r.n}</td><td>${r.mistake ? esc(t("play.mistake")) : ""}</td></tr>`;
  }
  out.innerHTML = h + "</table>";
}

// ------------------------------------------------------------------ Reports

let lastReports = null;

async function loadReports() {
  drawReports(await get("/api/reports"));
}

function drawReports(r) {
  lastReports = r;
  if (!r.results) {
    $("reports-root").textContent = t("reports.none");
    $("reports-out").replaceChildren();
    return;
  }
  $("reports-root").textContent = t("reports.under", { dir: r.results });
  if (!r.folders.length) { $("reports-out").textContent = t("reports.empty"); return; }
  let h = `<table class="result" id="reports-table"><tr>` + ["col.folder", "col.kind", "col.status", "col.started", "col.report"]
    .map((k) => `<th>${esc(t(k))}</th>`).join("") + "</tr>";
  for (const f of r.folders) {
    h += `<tr><td>${esc(f.path)}</td><td>${esc(tOr(`kind.${f.kind}`, f.kind))}</td><td>${esc(f.status ? tOr(`rstatus.${f.status}`, f.status) : "")}</td><td>${esc(f.started || "")}</td>` +
      `<td>${f.report ? `<a href="/reports/${f.report.split("/").map(encodeURIComponent).join("/")}" target="_blank" rel="noopener">${esc(t("reports.open"))}</a>` : esc(t("reports.noreport"))}</td></tr>`;
  }
  $("reports-out").innerHTML = h + "</table>";
}

// ------------------------------------------------------------------ start

function showPage() {
  const page = (location.hash || "#expose").slice(1);
  for (const p of ["expose", "advise", "play", "reports"]) {
    $(`page-${p}`).hidden = p !== page;
    $(`tab-${p}`).classList.toggle("active", p === page);
  }
  $("rules-panel").hidden = page === "reports";
  if (page === "reports") loadReports().catch((e) => { $("reports-out").textContent = message(e.message, true); });
}

// Another language: the static texts (i18n.js apply) and everything drawn so far, again.
function languageChanged() {
  setLang($("lang").value);
  handCount(exposeGrid, $("expose-hand"));
  if (lastExpose) renderExpose(...lastExpose);
  if (lastAdvise) renderAdvise(lastAdvise);
  if (lastReports) drawReports(lastReports);
  if (game) drawGame(game);
  if (lastHint) drawHint(lastHint);
  if (lastReview) drawReview(lastReview);
  drawPlays(position);
  if (!position && adviseGrid.cards().length !== 13 * decks()) $("turn").textContent = t("advise.first");
  handCount(adviseGrid, $("advise-hand"));
  for (const [id, [text, own]] of shownErrors) showError(id, own ? null : new ApiError(text), own);
}

async function main() {
  setLang(initialLang(), false);
  $("lang").value = getLang();
  $("lang").addEventListener("change", languageChanged);
  META = await get("/api/meta");
  buildRules();
  for (const m of META.measures) {
    const o = new Option(tOr(`measure.${m}`, m), m, false, m === "zero-sum");
    o.dataset.i18n = `measure.${m}`;
    $("expose-measure").append(o);
  }
  fillPlayers();
  $("expose-max-deals").max = META.caps.max_deals;
  $("advise-max-worlds").max = META.caps.max_worlds;

  const full = (err) => (card) => showError(err, null, () => t("hand.full", { need: 13 * decks(), card: cardLabel(card) }));
  exposeGrid = new CardGrid($("expose-grid"), { onChange: () => { showError("expose-error", null); exposeHandChanged(); },
    onFull: full("expose-error") });
  adviseGrid = new CardGrid($("advise-grid"), { onChange: () => check(() => plays), onFull: full("advise-error") });
  playGrid = new CardGrid($("play-grid"), { mode: "pick", onPick: (c) => addPlay(c) });
  $("decks").addEventListener("change", () => {
    for (const g of [exposeGrid, adviseGrid]) g.setDecks(decks());
    fillPlayers(); exposeHandChanged(); check(() => plays);
  });
  for (const id of ["expose-seat", "expose-player", "expose-opponents", "expose-opp-exposure", "expose-options",
    "expose-measure", "expose-precision", "expose-max-deals", "expose-seed", "expose-batch"]) {
    $(id).addEventListener("change", exposeCli); $(id).addEventListener("input", exposeCli);
  }
  $("rules-panel").addEventListener("change", () => { exposeCli(); check(() => plays); });
  const paste = (grid, input, err) => async () => {
    try {
      const r = await post("/api/hand", { hand: $(input).value, decks: decks() });
      const n = r.cards.length, need = 13 * decks();
      if (n > need) {  // refused at once: a seat is never dealt more
        showError(err, null, () => t("hand.too_many", { n, need, k: n - need }));
        return;
      }
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
  for (const id of ["advise-players", "advise-precision", "advise-max-worlds", "advise-seed"]) {
    $(id).addEventListener("change", adviseCli); $(id).addEventListener("input", adviseCli);
  }
  $("advise-cancel").addEventListener("click", () => adviseJob && adviseJob.cancel());
  $("play-new").addEventListener("click", playNew);
  $("play-expose-go").addEventListener("click", playExpose);
  $("play-hint").addEventListener("click", runHint);
  $("play-review").addEventListener("click", runReview);
  $("play-hint-worlds").max = META.caps.max_worlds;
  $("play-review-worlds").max = META.caps.max_worlds;
  addEventListener("hashchange", showPage);
  showPage(); exposeHandChanged(); check(() => []);
  document.body.dataset.ready = "1";
}

main().catch((e) => { document.body.prepend(Object.assign(document.createElement("pre"), { className: "error", textContent: String(e.message || e) })); });
