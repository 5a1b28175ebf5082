// The board in words and keys, for screen readers and keyboards (board.js BoardView):
// every location named by what stands there and whether it may be clicked now, the
// whole position in a hidden paragraph (the board's aria-describedby), and the keys
// that go from one location (or clickable target) to the next.

import { svg } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { place } from "./narrate.js";
import { colourText } from "./seats.js";

/** "Ann (Red)", or "Red" where the seat has no other name. */
export function whoFull(view, seat) {
  const name = view.who(seat);
  const colour = colourText(seat);
  return name === colour ? colour : t("board.who", { who: name, colour });
}

export function relabel(view) {
  const here = new Map();
  for (const guest of view.shown.guests) {
    if (!here.has(guest.loc)) here.set(guest.loc, new Map());
    const seats = here.get(guest.loc);
    seats.set(guest.seat, (seats.get(guest.seat) ?? 0) + 1);
  }
  const { places = new Set(), sources = new Set(), dests = new Set(), selected = null, notes = new Map() } = view.shown.targets;
  for (const node of view.places) {
    const loc = node.dataset.square || node.dataset.location;
    const parts = [...(here.get(loc) ?? new Map())].map(([seat, n]) => tn("board.guests_of", n, { who: whoFull(view, seat) }));
    if (view.shown.hugo === loc) parts.push(t("board.hugo_here"));
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
  view.description.textContent = positionText(view);
}

/** The whole position in words: Hugo, the clock or the round, the die, every seat. */
export function positionText(view) {
  const [position] = view.shown.centre ?? [null];
  const parts = [t("board.aria", { rules: t(`rules.${view.board.rules}`) })];
  if (view.shown.hugo) parts.push(t("board.hugo_on", { place: place(view.shown.hugo) }));
  if (position?.clock) parts.push(t("board.clock_now", { time: position.clock }));
  else if (position?.round) parts.push(t("board.round_now", { round: position.round }));
  if (view.shown.die !== null) parts.push(view.shown.die === "hugo" ? t("board.die_hugo") : t("board.die", { face: view.shown.die }));
  const seats = new Map();
  for (const guest of view.shown.guests) {
    if (!seats.has(guest.seat)) seats.set(guest.seat, []);
    seats.get(guest.seat).push(place(guest.loc));
  }
  const count = Math.max(position?.scores?.length ?? 0, ...[...seats.keys()].map((s) => s + 1));
  for (let seat = 0; seat < count; seat++) {
    const where = seats.get(seat) ?? [];
    const score = position?.scores?.[seat];
    parts.push(
      t("board.seat_summary", {
        who: whoFull(view, seat),
        points: score ?? "–",
        where: where.length ? where.sort().join(", ") : t("board.nowhere"),
      }),
    );
  }
  return `${parts.join(". ")}.`;
}

/** The arrow keys, Home, End, Enter and Space on the board; hints on hover and focus. */
export function watchKeys(view) {
  view.root.addEventListener("keydown", (event) => {
    const node = event.target.closest?.("[data-square],[data-location]");
    if (!node) return;
    const loc = node.dataset.square || node.dataset.location;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      view.onPick(loc);
      return;
    }
    const targets = view.targetOrder();
    const ring = targets.length ? targets : view.places.map((n) => n.dataset.square || n.dataset.location);
    const at = ring.indexOf(loc);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = null;
    if (step) next = ring[at < 0 ? (step > 0 ? 0 : ring.length - 1) : (at + step + ring.length) % ring.length];
    else if (event.key === "Home") next = ring[0];
    else if (event.key === "End") next = ring[ring.length - 1];
    if (!next) return;
    event.preventDefault();
    view.focus(next);
  });
  const hint = (event) => {
    const node = event.target.closest?.("[data-square],[data-location]");
    view.onHint(node?.dataset.legalKind === "dest" ? node.dataset.square || node.dataset.location : null);
  };
  view.root.addEventListener("focusin", hint);
  view.root.addEventListener("pointerover", hint);
  view.root.addEventListener("pointerleave", () => view.onHint(null));
  view.root.addEventListener("focusout", (event) => {
    if (!view.root.contains(event.relatedTarget)) view.onHint(null);
  });
}
