// The 4 × 13 card grid: a hand (counts 0..decks per card) or a row of cards to play; and
// how the page writes cards.  Cards travel as the CLI's codes ("ST" is ♠10); the page shows
// a ten as "10" everywhere (grid, hands, plays, options, command lines), which the CLI reads
// too.  Card text typed or pasted (including the Chinese names 黑桃Q, 猪, 羊, 变压器) is parsed
// by the server, with the CLI's parser.

export const SUITS = ["S", "H", "D", "C"];
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const RED = new Set(["H", "D"]);

const rank = (r) => (r === "T" ? "10" : r);

export function cardLabel(card) {
  return SYMBOL[card[0]] + rank(card[1]);
}

// A play or a list of cards in the CLI's codes ("DTDT", "SQ,DJ") as the page shows it
// ("♦10♦10", "♠Q ♦J").
export function cardsLabel(text) {
  return String(text).split(/[,\s]+/).filter(Boolean)
    .map((p) => p.replace(/([SHDC])(10|[AKQJT2-9])/g, (m, s, r) => SYMBOL[s] + rank(r)))
    .join(" ");
}

// A text of cards only (a hand, plays, exposures) for the command line, tens as "10"
// ("DT" → "D10", "S:AT9" → "S:A109"): the CLI reads both.
export function tens(text) {
  return String(text).replaceAll("T", "10");
}

// A grid in `el`; mode "hand": clicks cycle a card's count 0 → 1 (→ 2 with two decks) → 0;
// mode "pick": a click calls onPick(card).
export class CardGrid {
  // onFull(card): a click that would give the hand more than 13 × decks cards (refused)
  constructor(el, { mode = "hand", onChange = () => {}, onPick = () => {}, onFull = () => {} } = {}) {
    this.el = el; this.mode = mode; this.onChange = onChange; this.onPick = onPick; this.onFull = onFull;
    this.decks = 1; this.counts = new Map(); this.buttons = new Map();
    for (const s of SUITS) {
      const lab = document.createElement("span");
      lab.className = "suit" + (RED.has(s) ? " red" : ""); lab.textContent = SYMBOL[s];
      el.append(lab);
      for (const r of RANKS) {
        const card = s + r, b = document.createElement("button");
        b.type = "button"; b.dataset.card = card; b.textContent = rank(r);
        b.title = cardLabel(card);
        if (RED.has(s)) b.classList.add("red");
        b.addEventListener("click", () => this.click(card));
        el.append(b); this.buttons.set(card, b);
      }
    }
  }
  click(card) {
    if (this.mode === "pick") { this.onPick(card); return; }
    const n = ((this.counts.get(card) || 0) + 1) % (this.decks + 1);
    if (n > 0 && this.cards().length >= 13 * this.decks) { this.onFull(card); return; }
    this.counts.set(card, n); this.paint(); this.onChange();
  }
  setDecks(d) {
    this.decks = d;
    for (const [c, n] of this.counts) if (n > d) this.counts.set(c, d);
    this.paint();
  }
  setCards(cards) {
    this.counts = new Map();
    for (const c of cards) this.counts.set(c, (this.counts.get(c) || 0) + 1);
    this.paint(); this.onChange();
  }
  cards() {
    const out = [];
    for (const s of SUITS) for (const r of RANKS) {
      const n = this.counts.get(s + r) || 0;
      for (let i = 0; i < n; i++) out.push(s + r);
    }
    return out;
  }
  // the hand as the CLI reads it, per suit: "S:543 H:32 D:AKQJ1098 C:2" (a rank twice for
  // both copies; a void suit left out)
  text() {
    const cs = this.cards();
    return SUITS.map((s) => [s, cs.filter((c) => c[0] === s).map((c) => rank(c[1])).join("")])
      .filter(([, r]) => r).map(([s, r]) => `${s}:${r}`).join(" ");
  }
  // the hand as the page shows it: "♠5 4 3 · ♥3 2 · ♦A K Q J 10 9 8 · ♣2"
  label() {
    const cs = this.cards();
    return SUITS.map((s) => [s, cs.filter((c) => c[0] === s).map((c) => rank(c[1]))])
      .filter(([, r]) => r.length).map(([s, r]) => SYMBOL[s] + r.join(" ")).join(" · ");
  }
  mark(cards, cls) {  // e.g. the cards already played
    const set = new Set(cards);
    for (const [c, b] of this.buttons) b.classList.toggle(cls, set.has(c));
  }
  paint() {
    for (const [c, b] of this.buttons) {
      const n = this.counts.get(c) || 0;
      b.classList.toggle("on", n > 0); b.classList.toggle("two", n > 1);
    }
  }
}
