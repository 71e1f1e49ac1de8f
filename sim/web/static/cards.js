// The 4 × 13 card grid: a hand (counts 0..decks per card) or a row of cards to play.

export const SUITS = ["S", "H", "D", "C"];
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const RED = new Set(["H", "D"]);

export function cardLabel(card) {
  return SYMBOL[card[0]] + (card[1] === "T" ? "10" : card[1]);
}

// A grid in `el`; mode "hand": clicks cycle a card's count 0 → 1 (→ 2 with two decks) → 0;
// mode "pick": a click calls onPick(card).
export class CardGrid {
  constructor(el, { mode = "hand", onChange = () => {}, onPick = () => {} } = {}) {
    this.el = el; this.mode = mode; this.onChange = onChange; this.onPick = onPick;
    this.decks = 1; this.counts = new Map(); this.buttons = new Map();
    for (const s of SUITS) {
      const lab = document.createElement("span");
      lab.className = "suit" + (RED.has(s) ? " red" : ""); lab.textContent = SYMBOL[s];
      el.append(lab);
      for (const r of RANKS) {
        const card = s + r, b = document.createElement("button");
        b.type = "button"; b.dataset.card = card; b.textContent = r === "T" ? "10" : r;
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
  // the hand as text, per suit: "S:543 H:32 D:AKQJT98 C:2" (a rank twice for both copies;
  // a void suit left out)
  text() {
    const cs = this.cards();
    return SUITS.map((s) => [s, cs.filter((c) => c[0] === s).map((c) => c[1]).join("")])
      .filter(([, r]) => r).map(([s, r]) => `${s}:${r}`).join(" ");
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
