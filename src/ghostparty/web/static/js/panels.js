// The side panels of the game page: seats and scores, the score sheet, the log and
// the result. Plain DOM built with createElement; every name goes in as text.

import { el, fill } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { describeAction, narrate } from "./narrate.js";
import { colourHex, colourText, inkOn, seatLabel, seatLetter, seatShort } from "./seats.js";

const TRAIL_END = 46; // RULES.md §7: a score of 46 ends a hugo game

export function chip(seat) {
  const node = el("span", { class: "chip", "aria-hidden": "true" }, seatLetter(seat));
  node.style.background = colourHex(seat);
  node.style.color = inkOn(seat);
  return node;
}

function guestSummary(position, seat) {
  const locs = position.guests[seat] ?? [];
  const count = (test) => locs.filter(test).length;
  const parts = [];
  const waiting = position.place_queue.filter((s) => s === seat).length;
  if (waiting) parts.push(t("panel.to_place", { n: waiting }));
  const gallery = count((l) => l.startsWith("G"));
  if (gallery) parts.push(t("panel.on_gallery", { n: gallery }));
  const rooms = count((l) => l.startsWith("R:"));
  if (rooms) parts.push(t("panel.hidden", { n: rooms }));
  const cellar = count((l) => l.startsWith("C"));
  if (cellar) parts.push(t("panel.caught", { n: cellar }));
  return parts.join(" · ");
}

/** The seats while playing: colour, name, score (spooky trail or total), whose turn. */
export function renderSeats(container, { table, position, held, scores }) {
  const rows = table.seats.map((info) => {
    const seat = info.seat;
    const toMove = table.status === "playing" && table.to_move === seat;
    const score = scores?.[seat] ?? position?.scores?.[seat];
    const row = el("li", {
      class: `seat${toMove ? " to-move" : ""}${held.has(seat) ? " held" : ""}${info.away ? " away" : ""}`,
      "data-testid": "seat",
      "data-seat": seat,
      "data-to-move": toMove ? "true" : "false",
      "data-away": info.away ? "true" : "false",
    });
    row.style.setProperty("--seat", colourHex(seat));
    const name = el("span", { class: "seat-name" }, seatShort(table, seat));
    const tags = el("span", { class: "seat-tags" });
    if (held.has(seat)) tags.append(el("span", { class: "tag tag-you" }, t("seat.you")));
    if (info.back) tags.append(el("span", { class: "tag tag-away" }, t("seat.back")));
    if (info.kind === "human" && info.name && !info.online && !info.away) tags.append(el("span", { class: "tag tag-off" }, t("seat.offline")));
    if (table.winners?.includes(seat)) tags.append(el("span", { class: "tag tag-win" }, t("seat.winner")));
    const head = el("div", { class: "seat-head" }, chip(seat), name, tags);
    if (score !== undefined) {
      head.append(el("span", { class: "seat-score", "data-testid": "score", "data-seat": seat, title: t("seat.points") }, String(score)));
    }
    row.append(head);
    if (position) {
      if (position.rules === "hugo" && score !== undefined) {
        const bar = el("div", { class: "trail", title: t("panel.trail", { score, end: TRAIL_END }) }, el("div", { class: "trail-fill" }));
        bar.firstChild.style.width = `${Math.min(100, (100 * score) / TRAIL_END)}%`;
        row.append(bar);
      }
      const summary = guestSummary(position, seat);
      if (summary) row.append(el("div", { class: "seat-guests" }, summary));
    }
    return row;
  });
  fill(container, ...rows);
}

/**
 * The seats of an open table with join and leave controls.
 * handlers: {join(seat, name), leave(seat)}; defaultName fills the name fields.
 */
export function renderOpenSeats(container, { table, held }, handlers, defaultName) {
  const rows = table.seats.map((info) => {
    const seat = info.seat;
    const row = el("li", { class: "seat open-seat", "data-testid": "seat", "data-seat": seat });
    row.style.setProperty("--seat", colourHex(seat));
    const head = el("div", { class: "seat-head" }, chip(seat));
    if (info.kind === "bot") {
      head.append(el("span", { class: "seat-name" }, seatShort(table, seat)));
      row.append(head);
    } else if (info.name) {
      head.append(el("span", { class: "seat-name" }, info.name));
      if (held.has(seat)) {
        head.append(el("span", { class: "tag tag-you" }, t("seat.you")));
        head.append(
          el("button", { type: "button", class: "small", "data-testid": `leave-${seat}`, onclick: () => handlers.leave(seat) }, t("table.leave")),
        );
      } else if (!info.online) {
        head.append(el("span", { class: "tag tag-off" }, t("seat.offline")));
      }
      row.append(head);
    } else {
      head.append(el("span", { class: "seat-name empty" }, t("table.free_seat", { colour: colourText(seat) })));
      const input = el("input", {
        type: "text",
        maxlength: 24,
        placeholder: t("table.name_placeholder"),
        "aria-label": t("table.name_for", { colour: colourText(seat) }),
        "data-testid": `name-${seat}`,
        autocomplete: "nickname",
      });
      input.value = held.size ? "" : defaultName;
      const form = el("form", { class: "join-form" }, input, el("button", { type: "submit", "data-testid": `join-${seat}` }, t("table.join")));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        handlers.join(seat, input.value.trim());
      });
      row.append(head, form);
    }
    return row;
  });
  fill(container, ...rows);
}

/**
 * An entry's sentences in the page's language: in English the server's lines; in
 * another language told from its events when it has them (live updates), else the
 * action alone in words (the log of a state message carries no events).
 */
function entryLines(entry) {
  if (currentLanguage() === "en" && entry.lines?.length) return entry.lines;
  if (Array.isArray(entry.events)) return narrate(entry.events);
  if (entry.action && entry.seat !== null && entry.seat !== undefined) return [describeAction(entry.seat, entry.action)];
  return entry.lines ?? [];
}

/** One log entry: who, then what happened in words. */
export function logItem(entry) {
  const item = el("li", { class: "log-entry", "data-testid": "log-entry", "data-index": entry.index });
  if (entry.seat !== null && entry.seat !== undefined) item.append(chip(entry.seat));
  const text = el("span", { class: "log-text" });
  entryLines(entry).forEach((line, i) => {
    if (i) text.append(el("br"));
    text.append(line);
  });
  item.append(text);
  return item;
}

export function renderLog(list, entries) {
  fill(list, ...entries.map(logItem));
  list.scrollTop = list.scrollHeight;
}

export function appendLog(list, entry) {
  if (list.querySelector(`[data-index="${entry.index}"]`)) return;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.append(logItem(entry));
  if (nearBottom) list.scrollTop = list.scrollHeight;
}

/** The Midnight Party score sheet: one row per scored round, the totals last. */
export function renderSheet(container, { table, position }) {
  if (!position || position.rules !== "midnight-party") {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const head = el("tr", {}, el("th", {}, t("panel.round")), ...table.seats.map((s) => el("th", {}, chip(s.seat))));
  const rows = position.round_scores.map((scores, i) =>
    el("tr", {}, el("td", {}, String(i + 1)), ...scores.map((v) => el("td", {}, v > 0 ? `+${v}` : String(v)))),
  );
  const total = el("tr", { class: "total" }, el("td", {}, t("panel.total")), ...position.scores.map((v) => el("td", {}, String(v))));
  fill(container, el("h3", {}, t("panel.sheet")), el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, ...rows, total)));
}

/** The result at the end: the winners and every seat's points, fewest first. */
export function renderResult(container, { table, position }) {
  const over = table.status === "over" || position?.phase === "over";
  container.hidden = !over;
  if (!over) return;
  const winners = table.winners?.length ? table.winners : (position?.winners ?? []);
  const names = winners.map((s) => seatLabel(table, s));
  const scores = position?.scores ?? [];
  const order = table.seats.map((s) => s.seat).sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0) || a - b);
  const title = winners.length > 1 ? t("panel.shared_win", { who: names.join(t("panel.and")) }) : t("panel.wins", { who: names[0] ?? t("panel.nobody") });
  const list = el(
    "ol",
    { class: "ranking" },
    ...order.map((seat) =>
      el(
        "li",
        { class: winners.includes(seat) ? "winner" : "", "data-testid": "result-row", "data-seat": seat, "data-score": scores[seat] ?? "" },
        chip(seat),
        el("span", { class: "seat-name" }, seatLabel(table, seat)),
        el("span", { class: "seat-score" }, t("panel.points", { n: scores[seat] ?? "?" })),
      ),
    ),
  );
  const id = encodeURIComponent(table.id);
  fill(
    container,
    el("h2", {}, t("panel.over")),
    el("p", { class: "result-title", "data-testid": "result-winners", "data-winners": winners.join(",") }, title),
    list,
    el(
      "p",
      { class: "result-links" },
      el("a", { href: `/r/${id}`, class: "button", "data-testid": "replay-link" }, t("table.replay")),
      el("a", { href: `/api/tables/${id}/record`, class: "button", "data-testid": "download", download: "" }, t("table.download")),
      el("a", { href: "/", class: "button" }, t("table.back_lobby")),
    ),
  );
}
