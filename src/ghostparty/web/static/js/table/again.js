// "Play again" on the result panel, and the series of games so played (docs/PROTOCOL.md:
// POST /api/tables/{id}/again, GET /api/tables/{id}/series; the table's `rematch`,
// `series_index` and `seats[].again`).
//
// Hooks for tests (data-testid): again (the box; data-rematch once the next table is
// made), play-again (data-seat-count), again-now ("Start without the others"),
// again-seat (data-seat, data-again), again-note, rematch-link (spectators, or whoever
// didn't play again); series (data-series, data-games), series-game (data-table,
// data-index, data-current), series-total (data-seat, data-total).

import { api } from "../lib/api.js";
import { el, fill, toast } from "../lib/dom.js";
import { errorText, t, tn } from "../lib/i18n.js";
import { chip } from "./panels.js";
import { seatLabel } from "./seats.js";
import { loadTokens, saveToken } from "../lib/store.js";

/**
 * What the finished table's pages do once its `rematch` is made: the seats this page
 * holds whose person said yes keep their tokens at the next table (the same tokens hold
 * them there). True when the page should go there.
 */
export function takeSeatsAgain(table, held) {
  if (!table.rematch) return false;
  const tokens = loadTokens(table.id);
  let moved = false;
  for (const seat of held) {
    const token = tokens[String(seat)];
    if (token && table.seats[seat]?.again) {
      saveToken(table.rematch, seat, token);
      moved = true;
    }
  }
  return moved;
}

/** Say "Play again" for every seat this page holds (hotseat: all of them); `now`: don't wait. */
export async function playAgain(table, held, now = false) {
  const tokens = loadTokens(table.id);
  try {
    for (const seat of held) {
      if (table.seats[seat]?.again && !now) continue;
      await api.again(table.id, seat, tokens[String(seat)], now);
      if (now) break; // one "now" makes the table
    }
  } catch (error) {
    toast(errorText(error));
  }
}

/** The play-again box: who said yes, the buttons, or the next table's link. */
export function renderAgain(container, { table, held }, onAgain) {
  const people = table.seats.filter((s) => s.kind === "human" && s.name);
  const said = (seat) => Boolean(table.seats[seat]?.again);
  const mineAll = held.size > 0 && [...held].every(said);
  const parts = [el("h3", {}, t("again.title"))];
  parts.push(
    el(
      "ul",
      { class: "again-seats" },
      ...people.map((s) =>
        el(
          "li",
          { "data-testid": "again-seat", "data-seat": s.seat, "data-again": s.again ? "true" : "false" },
          chip(s.seat),
          " ",
          seatLabel(table, s.seat),
          " ",
          el("span", { class: `tag ${s.again ? "tag-win" : ""}` }, t(s.again ? "again.yes" : "again.not_yet")),
        ),
      ),
    ),
  );
  if (table.rematch) {
    const href = `/t/${encodeURIComponent(table.rematch)}`;
    parts.push(el("p", {}, el("a", { href, class: "button", "data-testid": "rematch-link" }, t(mineAll ? "again.go" : "again.watch_next"))));
  } else if (held.size) {
    if (!mineAll) {
      parts.push(
        el("button", { type: "button", class: "big", "data-testid": "play-again", "data-seat-count": held.size, onclick: (e) => click(e, () => onAgain(false)) }, t("again.play")),
      );
    } else {
      const waiting = people.some((s) => !s.again);
      parts.push(el("p", { class: "hint", "data-testid": "again-note" }, t(waiting ? "again.waiting" : "again.making")));
      if (waiting) {
        parts.push(el("button", { type: "button", "data-testid": "again-now", onclick: (e) => click(e, () => onAgain(true)) }, t("again.now")));
      }
    }
  } else {
    parts.push(el("p", { class: "hint", "data-testid": "again-note" }, t("again.spectator")));
  }
  fill(container, ...parts);
  container.dataset.rematch = table.rematch ?? "";
}

function click(event, action) {
  event.currentTarget.disabled = true; // one click is one answer
  action();
}

/**
 * The series: each game (1, 2, …) with a link, and the running totals per seat.
 * `series` is GET /api/tables/{id}/series, or null while it loads.
 */
export function renderSeries(container, { table, series }) {
  if (!series || series.games.length < 2) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  container.dataset.series = series.series;
  container.dataset.games = String(series.games.length);
  const games = series.games.map((game) => {
    const current = game.table === table.id;
    const href = game.status === "over" ? `/r/${encodeURIComponent(game.table)}` : `/t/${encodeURIComponent(game.table)}`;
    const scores = game.scores ? game.scores.join(" · ") : t("again.under_way");
    return el(
      "li",
      { "data-testid": "series-game", "data-table": game.table, "data-index": game.index, "data-current": current ? "true" : "false", class: current ? "current" : "" },
      el("a", { href }, t("again.game", { n: game.index })),
      " ",
      el("span", { class: "hint" }, scores),
    );
  });
  const totals = series.totals.map((total, seat) =>
    el("li", { "data-testid": "series-total", "data-seat": seat, "data-total": total }, chip(seat), " ", seatLabel(table, seat), ": ", el("strong", {}, t("panel.points", { n: total }))),
  );
  fill(
    container,
    el("h3", {}, tn("again.series", series.games.length)),
    el("ol", { class: "series-games" }, ...games),
    el("p", { class: "hint" }, t("again.totals")),
    el("ul", { class: "series-totals" }, ...totals),
  );
}
