// The board in SVG: gallery, rooms, cellar steps, clock, die, guests and Hugo.
// Drawn once per board; afterwards only tokens, highlights and the centre change.
//
// For screen readers and keyboards: every square, room, cellar step and Hugo's start is
// a button named by what it is and what stands on it ("G12: Ann's guest (Red), Hugo"),
// and disabled unless it may be clicked now; the board has one tab stop, and the arrow
// keys go from one location to the next (from one clickable target to the next while
// there are any; Home and End to the first and the last), Enter or Space clicks. A
// hidden paragraph describes the whole position (the board's aria-describedby).
//
// This module keeps the BoardView and what changes on it; board-draw.js draws the board
// once per layout, board-words.js puts it into words and keys.

import { el, svg, clear } from "../lib/dom.js";
import { S, makeLayout, slot, boxOf } from "./layout.js";
import { colourHex, colourText, inkOn, seatLetter, useBoard } from "./seats.js";
import { api } from "../lib/api.js";
import { t } from "../lib/i18n.js";
import { clockFace, defs, drawGallery, drawInside, drawRooms, drawStairs, fitLabels, hugoFigure } from "./board-draw.js";
import { relabel, watchKeys } from "./board-words.js";

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
};

/**
 * The board of `rules` (GET /api/boards/{rules}) drawn in `container`: the seats'
 * colours are taken from it too (seats.js useBoard). Returns {data, view}.
 */
export async function openBoard(container, rules, onPick, options = {}) {
  const data = await api.board(rules);
  useBoard(data);
  return { data, view: new BoardView(container, data, onPick, options) };
}

/** When the board takes its portrait layout: a phone held upright. */
export const PORTRAIT_QUERY = "(max-width: 640px) and (orientation: portrait)";

/**
 * Whether the portrait layout suits the window now; `onChange(portrait)` is called
 * whenever that changes (the phone is turned). Without matchMedia: never portrait.
 */
export function watchPortrait(onChange) {
  const query = typeof window.matchMedia === "function" ? window.matchMedia(PORTRAIT_QUERY) : null;
  query?.addEventListener("change", (event) => onChange(event.matches));
  return Boolean(query?.matches);
}

export class BoardView {
  /**
   * @param {HTMLElement} container where the SVG goes
   * @param {object} board GET /api/boards/{rules}
   * @param {(location: string) => void} onPick called with a location when clicked
   * @param {{portrait?: boolean}} options the tall layout for a phone held upright
   */
  constructor(container, board, onPick, { portrait = false, who = colourText, onHint = () => {} } = {}) {
    this.board = board;
    this.container = container;
    this.onPick = onPick;
    this.onHint = onHint; // a destination is hovered or focused (its location), or left (null)
    this.who = who; // how a seat is named: "Ann", "Blue"
    this.portrait = Boolean(portrait);
    this.focusLoc = null; // the board's tab stop
    // What is shown, to draw it again after a change of layout.
    this.shown = { guests: [], hugo: null, centre: null, die: null, targets: {}, hop: null };
    this.build();
  }

  /** Name the seats (who(seat) -> "Ann") in the board's labels and description. */
  setNames(who) {
    this.who = who;
    this.describe();
  }

  /**
   * Switch between the portrait and the landscape layout: the SVG is drawn anew and
   * the guests, Hugo, the centre, the die and the highlights are put back. Anything
   * else drawn on the old SVG (the odds' labels) is the page's to draw again.
   * Returns whether the layout changed.
   */
  setPortrait(portrait) {
    if (Boolean(portrait) === this.portrait) return false;
    this.portrait = Boolean(portrait);
    const classes = [...this.root.classList].filter((name) => name !== "board" && name !== "picking");
    const { guests, hugo, centre, die, targets, hop } = this.shown;
    this.build();
    this.root.classList.add(...classes);
    if (hop !== null) this.setHop(hop);
    this.setGuests(guests, { appear: false });
    this.setHugo(hugo);
    if (centre) this.setCentre(...centre);
    this.showDie(die);
    this.setTargets(targets);
    return true;
  }

  build() {
    const board = this.board;
    this.layout = makeLayout(board, { portrait: this.portrait });
    this.tokens = new Map(); // guest id -> <g>
    const { width, height } = this.layout;
    this.root = svg("svg", {
      class: "board",
      viewBox: `0 0 ${width} ${height}`,
      role: "group",
      tabindex: "-1", // not a tab stop itself: its locations are (one at a time)
      "aria-label": t("board.aria", { rules: t(`rules.${board.rules}`) }),
      "data-testid": "board",
      "data-rules": board.rules,
      "data-layout": this.portrait ? "portrait" : "landscape",
    });
    defs(this);
    this.root.append(svg("rect", { x: 0, y: 0, width, height, rx: 24, class: "board-bg" }));
    drawInside(this);
    // The locations' visible words and numbers, kept out of the buttons (whose names say
    // more) and out of the pointer's way.
    this.textLayer = svg("g", { class: "board-text", "aria-hidden": "true" });
    drawRooms(this);
    drawGallery(this);
    drawStairs(this);
    this.root.append(this.textLayer);
    this.tokenLayer = svg("g", { class: "tokens" });
    this.hugo = svg("g", { class: "hugo", "data-testid": "hugo", "data-loc": "", "aria-hidden": "true" }, hugoFigure(S * 0.9));
    this.root.append(this.tokenLayer, this.hugo);
    this.root.addEventListener("click", (event) => {
      const target = event.target.closest("[data-square],[data-location],[data-guest]");
      if (!target) return;
      const loc = target.dataset.square || target.dataset.location || target.dataset.loc;
      if (loc) this.onPick(loc);
    });
    this.places = [...this.root.querySelectorAll("[data-square],[data-location]")];
    this.byLoc = new Map(this.places.map((node) => [node.dataset.square || node.dataset.location, node]));
    watchKeys(this);
    this.setTabStop(this.focusLoc);
    this.description = el("p", { id: "board-description", class: "visually-hidden", "data-testid": "board-description" });
    this.root.setAttribute("aria-describedby", "board-description");
    clear(this.container).append(this.root, this.description);
    fitLabels(this);
    this.describe();
  }

  /** The clickable targets in the order the keys visit them (as setTargets was given them). */
  targetOrder() {
    const { places = new Set(), sources = new Set(), dests = new Set() } = this.shown.targets;
    return [...places, ...dests, ...[...sources].filter((loc) => !dests.has(loc))];
  }

  /** Make `loc` the board's tab stop, and focus it. */
  focus(loc) {
    this.setTabStop(loc);
    this.byLoc.get(loc)?.focus();
  }

  /** Whether the keyboard's focus is on the board. */
  hasFocus() {
    return this.root.contains(document.activeElement);
  }

  setTabStop(loc) {
    const node = this.byLoc.get(loc) ?? this.places[0];
    this.focusLoc = node.dataset.square || node.dataset.location;
    for (const other of this.places) other.setAttribute("tabindex", other === node ? "0" : "-1");
  }

  /** Name every location by what stands there, and describe the position, soon (once
   * however many changes come in one go). */
  describe() {
    if (this.relabelling) return;
    this.relabelling = true;
    queueMicrotask(() => {
      this.relabelling = false;
      relabel(this);
    });
  }

  /** Draw the guests: [{id, seat, loc}] (ids keep each token's element across moves). */
  setGuests(guests, { appear = true } = {}) {
    this.shown.guests = guests.map(({ id, seat, loc }) => ({ id, seat, loc }));
    this.describe();
    const byLoc = new Map();
    for (const guest of guests) {
      if (!byLoc.has(guest.loc)) byLoc.set(guest.loc, []);
      byLoc.get(guest.loc).push(guest);
    }
    const seen = new Set();
    for (const [loc, list] of byLoc) {
      list.sort((a, b) => a.seat - b.seat || a.id - b.id);
      list.forEach((guest, i) => {
        const place = slot(this.layout, loc, i, list.length);
        let token = this.tokens.get(guest.id);
        if (!token) {
          token = this.makeToken(guest, appear);
          this.tokens.set(guest.id, token);
          this.tokenLayer.append(token);
        }
        token.dataset.seat = String(guest.seat);
        token.dataset.loc = loc;
        token.dataset.guest = `${guest.seat}:${loc}`;
        token.style.transform = `translate(${place.x}px, ${place.y}px) scale(${(place.r / 17).toFixed(3)})`;
        seen.add(guest.id);
      });
    }
    for (const [id, token] of this.tokens) {
      if (!seen.has(id)) {
        token.remove();
        this.tokens.delete(id);
      }
    }
  }

  /**
   * A guest's token. One that may move takes a click or tap on its disc; round it, its
   * location (drawn below every token) takes them for it, so that the whole square,
   * room or step is its touch target and no token's target lies over another's.
   */
  makeToken(guest, appear = true) {
    const token = svg(
      "g",
      { class: "guest", "data-testid": "guest", "aria-hidden": "true" },
      svg("circle", { r: 17, class: "guest-disc", fill: colourHex(guest.seat) }),
      svg("circle", { r: 13, class: "guest-ring" }),
      svg("text", { y: 5.5, class: "guest-letter", fill: inkOn(guest.seat) }, seatLetter(guest.seat)),
    );
    if (appear) {
      token.classList.add("appear");
      setTimeout(() => token.classList.remove("appear"), 400);
    }
    return token;
  }

  setHugo(loc) {
    this.shown.hugo = loc ?? null;
    this.describe();
    const box = loc ? boxOf(this.layout, loc) : null;
    if (!this.hugo.dataset.loc && box) {
      // His first appearance: no glide in from the corner.
      this.hugo.classList.add("instant");
      requestAnimationFrame(() => requestAnimationFrame(() => this.hugo.classList.remove("instant")));
    }
    this.hugo.dataset.loc = loc || "";
    if (!box) {
      this.hugo.style.display = "none";
      return;
    }
    this.hugo.style.display = "";
    const onStep = !loc.startsWith("G");
    // On the stairs he is smaller and lower, under the step's value.
    const x = box.x + box.w / 2;
    const y = box.y + box.h / 2 + (onStep ? 7 : -4);
    const scale = onStep ? Math.min(1, box.w / S) * 0.72 : 1;
    this.hugo.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
  }

  /** The centre: the clock (hugo) or the round (midnight-party). */
  setCentre(position, players) {
    this.shown.centre = [position, players];
    this.describe();
    clear(this.centre);
    if (!position) return;
    if (position.clock) {
      this.centre.append(clockFace(position.clock));
      // Hugo's speed from this clock time on (RULES.md §5.3), from /api/boards.
      const speed = (this.board.clock ?? []).find((c) => c.time === position.clock)?.speed;
      const caption = speed ? t("board.clock_caption", { time: position.clock, speed }) : t("board.clock_over", { time: position.clock });
      this.centre.append(svg("text", { y: 66, class: "centre-caption", "data-testid": "clock", "data-time": position.clock }, caption));
    } else {
      const speed = this.board.speed_by_players[String(players)]; // §5.1, from /api/boards
      this.centre.append(svg("circle", { r: 46, class: "round-disc" }));
      this.centre.append(svg("text", { y: -8, class: "round-label" }, t("board.round")));
      this.centre.append(svg("text", { y: 24, class: "round-number", "data-testid": "round", "data-round": position.round }, `${position.round}/3`));
      this.centre.append(svg("text", { y: 66, class: "centre-caption" }, t("board.hugo_moves", { speed })));
    }
  }

  /** Show the die: 1, 2, 4, 5, "hugo", or null to hide. */
  showDie(face, { rolling = false } = {}) {
    this.shown.die = face ?? null;
    this.describe();
    clear(this.dieBox);
    this.dieBox.dataset.face = face === null || face === undefined ? "" : String(face);
    if (face === null || face === undefined) return;
    const body = svg("g", { class: rolling ? "die-body rolling" : "die-body" });
    body.append(svg("rect", { x: -30, y: -30, width: 60, height: 60, rx: 11, class: "die-face" }));
    if (face === "hugo") {
      const ghost = hugoFigure(40);
      body.append(ghost);
    } else {
      for (const [px, py] of PIPS[face] ?? []) body.append(svg("circle", { cx: px * 14, cy: py * 14, r: 5.5, class: "pip" }));
    }
    body.append(svg("title", {}, face === "hugo" ? t("board.die_hugo") : t("board.die", { face })));
    this.dieBox.append(body);
  }

  /**
   * Mark what may be clicked: {places, sources, dests: Set of locations, selected,
   * notes: Map of a destination to what moving there does}. Clickable targets get
   * data-legal="true"; the keys visit them in the Sets' order, and the first becomes
   * the board's tab stop (focused, if the focus was on the board).
   */
  setTargets({ places = new Set(), sources = new Set(), dests = new Set(), selected = null, notes = new Map() } = {}) {
    this.shown.targets = { places, sources, dests, selected, notes };
    const mark = (node, kind) => {
      if (kind) {
        node.dataset.legal = "true";
        node.dataset.legalKind = kind;
      } else {
        delete node.dataset.legal;
        delete node.dataset.legalKind;
      }
    };
    const holders = new Set(); // locations with a guest that may move: they take the clicks round it
    for (const token of this.tokens.values()) {
      const loc = token.dataset.loc;
      const source = sources.has(loc) && !dests.has(loc);
      mark(token, source ? "source" : null);
      token.classList.toggle("selected", loc === selected);
      if (source) holders.add(loc);
    }
    // The board's own locations only: what is drawn over them (the odds' labels) names a
    // location too, but is no target.
    for (const [loc, node] of this.byLoc) {
      node.classList.toggle("selected", loc === selected);
      node.classList.toggle("holds-source", holders.has(loc));
      mark(node, places.has(loc) ? "place" : dests.has(loc) ? "dest" : null);
      // In the same step as data-legal, not only when the words follow (board-words.js):
      // a location glows and takes a press at once.
      node.setAttribute("aria-disabled", places.has(loc) || dests.has(loc) || sources.has(loc) ? "false" : "true");
    }
    this.root.classList.toggle("picking", places.size + sources.size + dests.size > 0);
    // The tab stop moves to the first place or destination (once a guest is chosen, to
    // where it may go), else to the first guest that may move.
    const order = this.targetOrder();
    const primary = [...places, ...dests].filter((loc) => this.byLoc.has(loc));
    const within = primary.length ? primary : order.filter((loc) => this.byLoc.has(loc));
    const first = within[0];
    if (first && !within.includes(this.focusLoc)) {
      if (this.hasFocus()) this.focus(first);
      else this.setTabStop(first);
    } else if (!this.focusLoc) {
      this.setTabStop(null);
    }
    this.describe();
  }

  /** The game review's best move: outline these locations (none: clear). */
  markBest(locs = []) {
    for (const node of this.root.querySelectorAll(".review-best")) node.classList.remove("review-best");
    for (const loc of locs) {
      this.byLoc.get(loc)?.classList.add("review-best");
    }
  }

  /** A short glow on a location (capture, room entry). */
  flash(loc, kind = "flash") {
    const node = this.byLoc.get(loc);
    if (!node) return;
    node.classList.remove(kind);
    void node.getBoundingClientRect();
    node.classList.add(kind);
    setTimeout(() => node.classList.remove(kind), 900);
  }

  /** How long one hop of a token takes, set from the animation speed. */
  setHop(ms) {
    this.shown.hop = ms;
    this.root.style.setProperty("--hop", `${Math.max(0, Math.round(ms))}ms`);
  }
}
