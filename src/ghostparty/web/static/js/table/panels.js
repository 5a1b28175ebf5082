// The side panels of the game and replay pages: seats and scores, the score sheet, the
// log and the result. Plain DOM built with createElement; every name goes in as text.

import { el, fill } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { narrate } from "./narrate.js";
import { actorName, colourHex, colourText, guestTag, inkOn, isGuest, seatLabel, seatLetter, seatShort } from "./seats.js";
import { botTag, seatRecord, wantRecords } from "./records.js";
import { seatInviteForm } from "./bot-invite.js";
import { playerLink } from "../lib/session.js";

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

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
  if (rooms) parts.push(tn("panel.hidden", rooms));
  const cellar = count((l) => l.startsWith("C"));
  if (cellar) parts.push(tn("panel.caught", cellar));
  return parts.join(" · ");
}

/**
 * The seats while playing or in a replay: colour, name, score (spooky trail or total),
 * the round's pending points, whose turn. `board` is GET /api/boards/{rules}; `points`
 * each seat's points pending until the round ends, as the server sends them
 * (docs/PROTOCOL.md `pending`; null: none, the rule set scores during play).
 */
export function renderSeats(container, { table, position, held = new Set(), scores, board, points = null, redraw = null }) {
  if (redraw) wantRecords(table.seats.filter((s) => s.kind === "human").map((s) => s.player), redraw);
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
    const name = el("span", { class: "seat-name" }, playerLink(info, seatShort(table, seat)));
    const tags = el("span", { class: "seat-tags" });
    if (held.has(seat)) tags.append(el("span", { class: "tag tag-you" }, t("seat.you")));
    if (isGuest(info)) tags.append(guestTag());
    const bot = botTag(info.player);
    if (bot) tags.append(bot);
    const record = seatRecord(info);
    if (record) tags.append(record);
    if (info.back) tags.append(el("span", { class: "tag tag-away" }, t("seat.back")));
    if (info.kind === "human" && info.name && !info.online && !info.away) tags.append(el("span", { class: "tag tag-off" }, t("seat.offline")));
    if (table.winners?.includes(seat)) tags.append(el("span", { class: "tag tag-win" }, t("seat.winner")));
    const head = el("div", { class: "seat-head" }, chip(seat), name, tags);
    if (score !== undefined) {
      head.append(el("span", { class: "seat-score", "data-testid": "score", "data-seat": seat, title: t("seat.points") }, String(score)));
      head.append(el("span", { class: "visually-hidden" }, ` ${t("seat.points")}`)); // "10 spooky points" to a screen reader
    }
    row.append(head);
    const pending = points?.[seat] ?? null;
    if (pending !== null) {
      head.append(
        el(
          "span",
          { class: "tag tag-pending", "data-testid": "pending", "data-seat": seat, "data-points": pending, title: t("panel.pending_hint") },
          t("panel.pending", { points: signed(pending) }),
        ),
      );
    }
    if (position) {
      const end = board?.end_score;
      if (end && score !== undefined) {
        const bar = el("div", { class: "trail", title: t("panel.trail", { score, end }) }, el("div", { class: "trail-fill" }));
        bar.firstChild.style.width = `${Math.min(100, (100 * score) / end)}%`;
        row.append(bar);
      }
      const summary = guestSummary(position, seat);
      if (summary) row.append(el("div", { class: "seat-guests" }, el("span", { class: "visually-hidden" }, t("panel.guests_are")), summary));
    }
    return row;
  });
  fill(container, ...rows);
}

/** Mark each of `container`'s fields `data-typed` at its first keystroke (once per container). */
function watchTyping(container) {
  if (container.dataset.typing) return;
  container.dataset.typing = "true";
  container.addEventListener("input", (event) => {
    if (event.target.matches("input[data-testid]")) event.target.dataset.typed = "true";
  });
}

/** What a person has typed in `container`'s fields (those marked `data-typed`, keyed by
 * data-testid) and which of them has the focus, with its caret. */
function typedIn(container) {
  const values = new Map([...container.querySelectorAll("input[data-typed]")].map((input) => [input.dataset.testid, input.value]));
  const active = container.contains(document.activeElement) ? document.activeElement : null;
  const focus = active?.matches("input[data-testid]") ? { id: active.dataset.testid, start: active.selectionStart, end: active.selectionEnd } : null;
  return { values, focus };
}

/** Put back what `typedIn` saw in the fields redrawn with the same data-testid. */
function putBack(container, { values, focus }) {
  for (const input of container.querySelectorAll("input[data-testid]")) {
    if (!values.has(input.dataset.testid) || input.readOnly) continue;
    input.value = values.get(input.dataset.testid);
    input.dataset.typed = "true";
  }
  const again = focus && container.querySelector(`input[data-testid="${focus.id}"]`);
  if (again) {
    again.focus();
    again.setSelectionRange(focus.start, focus.end);
  }
}

/**
 * The seats of an open table with join and leave controls. A redraw (an update, a seat's
 * record arriving) keeps what a person is typing in a name or a bot's name, and the focus.
 * handlers: {join(seat, name), leave(seat)}; defaultName fills the name fields.
 */
export function renderOpenSeats(container, { table, held }, handlers, defaultName, { account = null, redraw = null } = {}) {
  if (redraw) wantRecords(table.seats.filter((s) => s.kind === "human").map((s) => s.player), redraw);
  const rows = table.seats.map((info) => {
    const seat = info.seat;
    const row = el("li", { class: "seat open-seat", "data-testid": "seat", "data-seat": seat });
    row.style.setProperty("--seat", colourHex(seat));
    const head = el("div", { class: "seat-head" }, chip(seat));
    if (info.kind === "bot") {
      head.append(el("span", { class: "seat-name" }, playerLink(info, seatShort(table, seat))));
      row.append(head);
    } else if (info.name) {
      head.append(el("span", { class: "seat-name" }, playerLink(info, info.name)));
      if (isGuest(info)) head.append(guestTag());
      const bot = botTag(info.player);
      if (bot) head.append(bot);
      const record = seatRecord(info);
      if (record) head.append(record);
      if (held.has(seat)) {
        head.append(el("span", { class: "tag tag-you" }, t("seat.you")));
        head.append(
          el("button", { type: "button", class: "small", "data-testid": `leave-${seat}`, onclick: () => handlers.leave(seat) }, t("table.leave")),
        );
      } else if (!info.online) {
        head.append(el("span", { class: "tag tag-off" }, t("seat.offline")));
      }
      row.append(head);
    } else if (table.rated && !account) {
      // a rated table seats registered players only: say so, and lead to the log-in
      head.append(el("span", { class: "seat-name empty" }, t("table.free_seat", { colour: colourText(seat) })));
      const next = encodeURIComponent(`/t/${table.id}`);
      const login = el("a", { class: "button small", href: `/login?next=${next}`, "data-testid": `login-to-sit-${seat}` }, t("table.login_to_sit"));
      row.append(head, el("p", { class: "join-form" }, login));
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
      input.value = account ? account.name : held.size ? "" : defaultName;
      if (account) input.readOnly = true; // one sits under one's account's name
      const form = el("form", { class: "join-form" }, input, el("button", { type: "submit", "data-testid": `join-${seat}` }, t("table.join")));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        handlers.join(seat, input.value.trim());
      });
      row.append(head, form);
      if (account && held.size) row.append(seatInviteForm(table.id, seat)); // a bot account to this seat
    }
    return row;
  });
  watchTyping(container);
  const typed = typedIn(container);
  fill(container, ...rows);
  putBack(container, typed);
}

/**
 * One log entry, {index, seat, events}: who, then what happened in words, told from its
 * events with the players' names (`table` names them; null: by colour). With `jump`
 * the entry is a button that calls jump(index) (the replay).
 */
export function logItem(entry, table, { jump = null } = {}) {
  const item = el("li", { class: "log-entry", "data-testid": "log-entry", "data-index": entry.index });
  const text = el("span", { class: "log-text" });
  narrate(entry.events ?? [], (seat) => actorName(table, seat)).forEach((line, i) => {
    if (i) text.append(el("br"));
    text.append(line);
  });
  const who = entry.seat !== null && entry.seat !== undefined ? chip(entry.seat) : null;
  if (!jump) {
    item.append(...[who, text].filter(Boolean));
    return item;
  }
  item.classList.add("replay-entry");
  const number = el("span", { class: "log-number" }, String(entry.index + 1));
  item.append(el("button", { type: "button", class: "log-jump", onclick: () => jump(entry.index) }, number, who, text));
  return item;
}

export function renderLog(list, entries, table, options = {}) {
  fill(list, ...entries.map((entry) => logItem(entry, table, options)));
  list.scrollTop = list.scrollHeight;
}

export function appendLog(list, entry, table) {
  if (list.querySelector(`[data-index="${entry.index}"]`)) return;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.append(logItem(entry, table));
  if (nearBottom) list.scrollTop = list.scrollHeight;
}

/** The Midnight Party score sheet: one row per scored round, the round under way's
 * pending points (`points`, the server's: see renderSeats), the totals last. */
export function renderSheet(container, { table, position, points = null }) {
  if (!position || position.rules !== "midnight-party") {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const head = el("tr", {}, el("th", {}, t("panel.round")), ...table.seats.map((s) => el("th", {}, chip(s.seat))));
  const rows = position.round_scores.map((scores, i) =>
    el("tr", {}, el("td", {}, String(i + 1)), ...scores.map((v) => el("td", {}, v > 0 ? `+${v}` : String(v)))),
  );
  const pending = table.seats.map((s) => points?.[s.seat] ?? null);
  if (pending.every((v) => v !== null)) {
    rows.push(
      el(
        "tr",
        { class: "pending", "data-testid": "sheet-pending", title: t("panel.pending_hint") },
        el("td", {}, t("panel.round_so_far", { round: position.round })),
        ...pending.map((v) => el("td", {}, signed(v))),
      ),
    );
  }
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
        el("span", { class: "seat-name" }, playerLink(table.seats[seat], seatLabel(table, seat))),
        isGuest(table.seats[seat]) ? guestTag() : null,
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
      el("a", { href: `/r/${id}#review`, class: "button", "data-testid": "review-link" }, t("review.link")),
      el("a", { href: `/api/tables/${id}/record`, class: "button", "data-testid": "download", download: "" }, t("table.download")),
      el("a", { href: "/", class: "button" }, t("table.back_lobby")),
      table.rated ? el("a", { href: `/leaderboard?rules=${encodeURIComponent(table.rules)}`, class: "button", "data-testid": "result-leaderboard" }, t("leaderboard.link")) : null,
    ),
  );
}
