// The board in SVG: gallery, rooms, cellar steps, clock, die, guests and Hugo.
// Drawn once per board; afterwards only tokens, highlights and the centre change.
//
// For screen readers and keyboards: every square, room, cellar step and Hugo's start is
// a button named by what it is and what stands on it ("G12: Ann's guest (Red), Hugo"),
// and disabled unless it may be clicked now; the board has one tab stop, and the arrow
// keys go from one location to the next (from one clickable target to the next while
// there are any; Home and End to the first and the last), Enter or Space clicks. A
// hidden paragraph describes the whole position (the board's aria-describedby).

import { el, svg, clear } from "./dom.js";
import { S, makeLayout, slot, boxOf, hitBox } from "./layout.js";
import { colourHex, colourText, inkOn, seatLetter, useBoard } from "./seats.js";
import { api } from "./api.js";
import { t, tn } from "./i18n.js";
import { place } from "./narrate.js";

const SHIELD_FILL = { neutral: "#c9c2b3", red: "#c8352c", green: "#2f9a52" };


function shieldPath(x, y, size) {
  const w = size * 0.8;
  const h = size;
  return [
    `M${x - w / 2},${y - h / 2}`,
    `H${x + w / 2}`,
    `V${y}`,
    `Q${x + w / 2},${y + h * 0.35} ${x},${y + h / 2}`,
    `Q${x - w / 2},${y + h * 0.35} ${x - w / 2},${y}`,
    "Z",
  ].join(" ");
}

function ghostPath(size) {
  // A friendly ghost centred on 0,0: round head, wavy hem.
  const w = size * 0.42;
  const top = -size * 0.5;
  const hem = size * 0.42;
  const waves = 4;
  let d = `M${-w},${hem} V${top + w} A${w},${w} 0 0 1 ${w},${top + w} V${hem}`;
  const step = (2 * w) / waves;
  for (let i = 0; i < waves; i++) {
    const x0 = w - i * step;
    d += ` Q${x0 - step / 2},${hem + (i % 2 ? -size * 0.12 : size * 0.12)} ${x0 - step},${hem}`;
  }
  return `${d} Z`;
}

function hugoFigure(size) {
  return svg(
    "g",
    { class: "hugo-figure" },
    svg("path", { d: ghostPath(size), class: "hugo-body" }),
    svg("ellipse", { cx: -size * 0.14, cy: -size * 0.16, rx: size * 0.07, ry: size * 0.1, class: "hugo-eye" }),
    svg("ellipse", { cx: size * 0.14, cy: -size * 0.16, rx: size * 0.07, ry: size * 0.1, class: "hugo-eye" }),
    svg("ellipse", { cx: 0, cy: size * 0.08, rx: size * 0.1, ry: size * 0.07, class: "hugo-mouth" }),
  );
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
};

/**
 * A room's name, shrunk to fit `width` when it is long (German has long words) by an
 * estimate; once the board is on the page, fitLabels makes sure by measuring that it
 * stays inside the room (`room`: the room's width).
 */
function roomLabel(x, y, text, width, room) {
  const label = svg("text", { x, y, class: "room-label", "data-fit": room - 4 }, text);
  const estimate = text.length * 6.1; // at 11px
  if (estimate > width) label.style.fontSize = `${Math.max(7, (11 * width) / estimate).toFixed(1)}px`;
  return label;
}

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
    this.defs();
    this.root.append(svg("rect", { x: 0, y: 0, width, height, rx: 24, class: "board-bg" }));
    this.drawInside();
    // The locations' visible words and numbers, kept out of the buttons (whose names say
    // more) and out of the pointer's way.
    this.textLayer = svg("g", { class: "board-text", "aria-hidden": "true" });
    this.drawRooms();
    this.drawGallery();
    this.drawStairs();
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
    this.watchKeys();
    this.setTabStop(this.focusLoc);
    this.description = el("p", { id: "board-description", class: "visually-hidden", "data-testid": "board-description" });
    this.root.setAttribute("aria-describedby", "board-description");
    clear(this.container).append(this.root, this.description);
    this.fitLabels();
    this.describe();
  }

  /** The arrow keys, Home, End, Enter and Space on the board; hints on hover and focus. */
  watchKeys() {
    this.root.addEventListener("keydown", (event) => {
      const node = event.target.closest?.("[data-square],[data-location]");
      if (!node) return;
      const loc = node.dataset.square || node.dataset.location;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.onPick(loc);
        return;
      }
      const targets = this.targetOrder();
      const ring = targets.length ? targets : this.places.map((n) => n.dataset.square || n.dataset.location);
      const at = ring.indexOf(loc);
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      let next = null;
      if (step) next = ring[at < 0 ? (step > 0 ? 0 : ring.length - 1) : (at + step + ring.length) % ring.length];
      else if (event.key === "Home") next = ring[0];
      else if (event.key === "End") next = ring[ring.length - 1];
      if (!next) return;
      event.preventDefault();
      this.focus(next);
    });
    const hint = (event) => {
      const node = event.target.closest?.("[data-square],[data-location]");
      this.onHint(node?.dataset.legalKind === "dest" ? node.dataset.square || node.dataset.location : null);
    };
    this.root.addEventListener("focusin", hint);
    this.root.addEventListener("pointerover", hint);
    this.root.addEventListener("pointerleave", () => this.onHint(null));
    this.root.addEventListener("focusout", (event) => {
      if (!this.root.contains(event.relatedTarget)) this.onHint(null);
    });
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

  /** Shrink the rooms' names that the estimate let stick out of their room (the fonts differ). */
  fitLabels() {
    for (const label of this.root.querySelectorAll(".room-label")) {
      const width = Number(label.dataset.fit);
      let length = 0;
      try {
        length = label.getComputedTextLength(); // 0 while the board is not shown
      } catch {
        length = 0;
      }
      if (!(length > width)) continue;
      const size = parseFloat(getComputedStyle(label).fontSize) || 11;
      label.style.fontSize = `${Math.max(6, (size * width) / length).toFixed(1)}px`;
    }
  }

  defs() {
    const grad = (id, stops, attrs = {}) =>
      svg(
        "linearGradient",
        { id, x1: 0, y1: 0, x2: 0, y2: 1, ...attrs },
        stops.map(([offset, colour]) => svg("stop", { offset, "stop-color": colour })),
      );
    this.root.append(
      svg(
        "defs",
        {},
        grad("gp-stone", [["0", "#5b5563"], ["1", "#3f3a47"]]),
        grad("gp-room", [["0", "#b0703a"], ["1", "#7a4522"]]),
        grad("gp-hall", [["0", "#2b2433"], ["1", "#1d1824"]]),
        grad("gp-arrow", [["0", "#e8c15a"], ["1", "#b98a27"]]),
        svg(
          "radialGradient",
          { id: "gp-candle", cx: "50%", cy: "30%", r: "70%" },
          svg("stop", { offset: "0", "stop-color": "#ffd889", "stop-opacity": "0.55" }),
          svg("stop", { offset: "1", "stop-color": "#ffd889", "stop-opacity": "0" }),
        ),
      ),
    );
  }

  drawInside() {
    const { inside, pieces } = this.layout;
    const g = svg("g", { class: "inside" });
    g.append(svg("rect", { x: inside.x - 6, y: inside.y - 6, width: inside.w + 12, height: inside.h + 12, rx: 10, class: "hall" }));
    // Title and the centre pieces: clock or round, and the die.
    const title = svg("text", { x: pieces.title.x, y: pieces.title.y, class: "board-title" }, t("board.title"));
    const sub = svg("text", { x: pieces.sub.x, y: pieces.sub.y, class: "board-sub" }, t(`board.sub.${this.board.rules}`));
    g.append(title, sub);
    this.centre = svg("g", { class: "centre", transform: `translate(${pieces.centre.x},${pieces.centre.y})` });
    this.dieBox = svg("g", { class: "die", "data-testid": "die", "data-face": "", transform: `translate(${pieces.die.x},${pieces.die.y})` });
    g.append(this.centre, this.dieBox);
    this.root.append(g);
  }

  drawRooms() {
    const g = svg("g", { class: "rooms" });
    for (const box of Object.values(this.layout.rooms)) {
      const door = this.layout.squares[box.doorSquare];
      const room = svg("g", {
        class: `room shield-${box.shield}`,
        role: "button",
        "data-testid": "room",
        "data-location": box.location,
        "data-shield": box.shield,
        "data-door": box.doorSquare,
      });
      // The doorway between the gallery square and the room.
      const vertical = box.side === "top" || box.side === "bottom";
      const dw = 22;
      const doorway = vertical
        ? { x: door.x + S / 2 - dw / 2, y: box.side === "top" ? box.y + box.h - 2 : door.y + S - 2, width: dw, height: 12 }
        : { x: box.side === "left" ? box.x + box.w - 2 : door.x + S - 2, y: door.y + S / 2 - dw / 2, width: 12, height: dw };
      room.append(svg("rect", { ...doorway, class: "doorway" }));
      room.append(svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, class: "room-box" }));
      room.append(svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, class: "room-glow" }));
      const cx = box.x + box.w / 2;
      const name = t(`room.${box.id}`);
      const shallow = box.h < 90; // a phone's portrait board: the shield goes in a corner
      if (vertical) {
        const lines = name.length * 6.1 > box.w - 6 ? name.split(/\s+/).slice(0, shallow ? 2 : 3) : [name];
        lines.forEach((line, i) => this.textLayer.append(roomLabel(cx, box.y + 15 + i * 12, line, box.w - 6, box.w)));
        room.append(svg("path", { d: shallow ? shieldPath(box.x + 11, box.y + box.h - 14, 15) : shieldPath(cx, box.y + 46, 18), class: "shield" }));
      } else {
        this.textLayer.append(roomLabel(cx, box.y + 15, name, box.w - 8, box.w));
        room.append(svg("path", { d: shieldPath(box.x + 15, box.y + 38, 17), class: "shield" }));
      }
      room.querySelector(".shield").setAttribute("fill", SHIELD_FILL[box.shield] ?? SHIELD_FILL.neutral);
      if (box.shield !== "neutral") {
        const mark = box.shield === "red" ? "+1" : "−3";
        const [sx, sy] = vertical ? (shallow ? [box.x + 11, box.y + box.h - 11] : [cx, box.y + 50]) : [box.x + 15, box.y + 42];
        this.textLayer.append(svg("text", { x: sx, y: sy, class: "shield-mark" }, mark));
      }
      room.dataset.name = t("board.room_title", { room: name, shield: t(`shield.${box.shield}`), door: box.doorSquare });
      g.append(room);
    }
    this.root.append(g);
  }

  drawGallery() {
    const g = svg("g", { class: "gallery" });
    const doors = new Map(Object.values(this.layout.rooms).map((r) => [r.doorSquare, r]));
    for (const cell of Object.values(this.layout.squares)) {
      const isArrow = cell.name === this.board.arrow;
      const door = doors.get(cell.name);
      const sq = svg("g", {
        class: `square${isArrow ? " arrow" : ""}${door ? " door" : ""}`,
        role: "button",
        "data-testid": "square",
        "data-square": cell.name,
        "data-name": isArrow
          ? t("board.arrow_square", { square: cell.name })
          : door
            ? t("board.door_square", { square: cell.name, room: t(`room.${door.id}`) })
            : cell.name,
      });
      // The whole cell takes a tap or a click, the gaps between the stones too.
      sq.append(svg("rect", { x: cell.x, y: cell.y, width: S, height: S, class: "square-hit" }));
      sq.append(svg("rect", { x: cell.x + 1, y: cell.y + 1, width: S - 2, height: S - 2, rx: 5, class: "square-box" }));
      this.textLayer.append(svg("text", { x: cell.x + 5, y: cell.y + 13, class: `square-num${isArrow ? " on-arrow" : ""}` }, cell.name.slice(1)));
      if (isArrow) sq.append(this.arrowMark(cell));
      g.append(sq);
    }
    this.root.append(g);
  }

  arrowMark(cell) {
    // An arrow pointing clockwise along the gallery from the arrow square.
    const angle = { left: -90, top: 0, right: 90, bottom: 180 }[cell.side] ?? 0;
    const cx = cell.x + S / 2;
    const cy = cell.y + S / 2 + 4;
    return svg("path", {
      d: "M-14,-5 H4 V-13 L17,0 L4,13 V5 H-14 Z",
      transform: `translate(${cx},${cy}) rotate(${angle})`,
      class: "arrow-mark",
    });
  }

  drawStairs() {
    const g = svg("g", { class: "stairs" });
    const boxes = Object.values(this.layout.steps);
    const total = this.layout.stepCount;
    for (const box of boxes) {
      const shade = 0.12 + (0.5 * box.depth) / Math.max(1, total - 1);
      const step = svg("g", {
        class: "step",
        role: "button",
        "data-testid": "step",
        "data-location": box.location,
        "data-value": box.value,
        "data-name": t("board.step_title", { value: box.value }),
      });
      step.append(svg("rect", { x: box.x + 1, y: box.y + 1, width: box.w - 2, height: box.h - 2, rx: 3, class: "step-box" }));
      step.append(svg("rect", { x: box.x + 1, y: box.y + 1, width: box.w - 2, height: box.h - 2, rx: 3, class: "step-shade", "fill-opacity": shade.toFixed(2) }));
      this.textLayer.append(svg("text", { x: box.x + box.w / 2, y: box.y + 14, class: "step-value" }, String(box.value)));
      g.append(step);
    }
    const start = this.layout.start;
    if (start) {
      const cell = svg("g", {
        class: "step start",
        role: "button",
        "data-testid": "hugo-start",
        "data-location": start.location,
        "data-name": t("board.start_title"),
      });
      cell.append(svg("rect", { x: start.x + 1, y: start.y + 1, width: start.w - 2, height: start.h - 2, rx: 3, class: "start-box" }));
      this.textLayer.append(svg("text", { x: start.x + start.w / 2, y: start.y + 14, class: "step-value" }, t("board.start")));
      g.append(cell);
    }
    const where = this.layout.pieces.stairsLabel;
    if (where) {
      const label = svg("text", { x: where.x, y: where.y, class: "stairs-label" }, t("board.stairs"));
      if (where.anchor !== "start") label.setAttribute("text-anchor", where.anchor);
      g.append(label);
    }
    this.root.append(g);
  }

  /** Name every location by what stands there, and describe the position, soon (once
   * however many changes come in one go). */
  describe() {
    if (this.relabelling) return;
    this.relabelling = true;
    queueMicrotask(() => {
      this.relabelling = false;
      this.relabel();
    });
  }

  /** "Ann (Red)", or "Red" where the seat has no other name. */
  whoFull(seat) {
    const name = this.who(seat);
    const colour = colourText(seat);
    return name === colour ? colour : t("board.who", { who: name, colour });
  }

  relabel() {
    const here = new Map();
    for (const guest of this.shown.guests) {
      if (!here.has(guest.loc)) here.set(guest.loc, new Map());
      const seats = here.get(guest.loc);
      seats.set(guest.seat, (seats.get(guest.seat) ?? 0) + 1);
    }
    const { places = new Set(), sources = new Set(), dests = new Set(), selected = null, notes = new Map() } = this.shown.targets;
    for (const node of this.places) {
      const loc = node.dataset.square || node.dataset.location;
      const parts = [...(here.get(loc) ?? new Map())].map(([seat, n]) => tn("board.guests_of", n, { who: this.whoFull(seat) }));
      if (this.shown.hugo === loc) parts.push(t("board.hugo_here"));
      let label = parts.length ? t("board.holds", { place: node.dataset.name, what: parts.join(", ") }) : node.dataset.name;
      if (loc === selected) label += `. ${t("board.chosen")}`;
      if (places.has(loc)) label += `. ${t("board.can_place")}`;
      else if (dests.has(loc)) label += `. ${t("board.can_move", { notes: notes.get(loc) ?? t("board.no_effect") })}`;
      else if (sources.has(loc) && loc !== selected) label += `. ${t("board.can_choose")}`;
      node.setAttribute("aria-label", label);
      const clickable = places.has(loc) || dests.has(loc) || sources.has(loc);
      node.setAttribute("aria-disabled", clickable ? "false" : "true");
      let title = node.querySelector(":scope > title");
      if (!title) node.append((title = svg("title")));
      title.textContent = label;
    }
    this.description.textContent = this.positionText();
  }

  /** The whole position in words: Hugo, the clock or the round, the die, every seat. */
  positionText() {
    const [position] = this.shown.centre ?? [null];
    const parts = [t("board.aria", { rules: t(`rules.${this.board.rules}`) })];
    if (this.shown.hugo) parts.push(t("board.hugo_on", { place: place(this.shown.hugo) }));
    if (position?.clock) parts.push(t("board.clock_now", { time: position.clock }));
    else if (position?.round) parts.push(t("board.round_now", { round: position.round }));
    if (this.shown.die !== null) parts.push(this.shown.die === "hugo" ? t("board.die_hugo") : t("board.die", { face: this.shown.die }));
    const seats = new Map();
    for (const guest of this.shown.guests) {
      if (!seats.has(guest.seat)) seats.set(guest.seat, []);
      seats.get(guest.seat).push(place(guest.loc));
    }
    const count = Math.max(position?.scores?.length ?? 0, ...[...seats.keys()].map((s) => s + 1));
    for (let seat = 0; seat < count; seat++) {
      const where = seats.get(seat) ?? [];
      const score = position?.scores?.[seat];
      parts.push(
        t("board.seat_summary", {
          who: this.whoFull(seat),
          points: score ?? "–",
          where: where.length ? where.sort().join(", ") : t("board.nowhere"),
        }),
      );
    }
    return `${parts.join(". ")}.`;
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
        token.classList.toggle("follower", i > 0); // one touch target per location: the first token's
        for (const [key, value] of Object.entries(hitBox(this.layout, loc, place, i))) token.firstChild.setAttribute(key, value.toFixed(1));
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

  makeToken(guest, appear = true) {
    const token = svg(
      "g",
      { class: "guest", "data-testid": "guest", "aria-hidden": "true" },
      svg("rect", { class: "guest-hit" }), // its location's whole box (hitBox)
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
      this.centre.append(this.clockFace(position.clock));
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

  clockFace(time) {
    const [h, m] = time.split(":").map(Number);
    const hourAngle = ((h % 12) + m / 60) * 30;
    const minuteAngle = m * 6;
    const face = svg("g", { class: "clock-face" });
    face.append(svg("circle", { r: 46, class: "clock-disc" }));
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6;
      face.append(
        svg("line", {
          x1: 38 * Math.sin(a),
          y1: -38 * Math.cos(a),
          x2: 43 * Math.sin(a),
          y2: -43 * Math.cos(a),
          class: i % 3 ? "tick" : "tick tick-major",
        }),
      );
    }
    face.append(svg("line", { x1: 0, y1: 4, x2: 0, y2: -24, class: "hand hand-hour", transform: `rotate(${hourAngle})` }));
    face.append(svg("line", { x1: 0, y1: 6, x2: 0, y2: -36, class: "hand hand-minute", transform: `rotate(${minuteAngle})` }));
    face.append(svg("circle", { r: 3.5, class: "clock-pin" }));
    return face;
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
    for (const node of this.root.querySelectorAll("[data-square],[data-location]")) {
      const loc = node.dataset.square || node.dataset.location;
      node.classList.toggle("selected", loc === selected);
      mark(node, places.has(loc) ? "place" : dests.has(loc) ? "dest" : null);
    }
    for (const token of this.tokens.values()) {
      const loc = token.dataset.loc;
      const source = sources.has(loc) && !dests.has(loc);
      mark(token, source ? "source" : null);
      token.classList.toggle("selected", loc === selected);
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
      this.root.querySelector(`[data-square="${CSS.escape(loc)}"],[data-location="${CSS.escape(loc)}"]`)?.classList.add("review-best");
    }
  }

  /** A short glow on a location (capture, room entry). */
  flash(loc, kind = "flash") {
    const node = this.root.querySelector(`[data-square="${loc}"],[data-location="${loc}"]`);
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
