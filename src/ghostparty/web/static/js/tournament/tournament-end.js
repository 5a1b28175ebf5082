// The end of a tournament's game on the table page (docs/PROTOCOL.md: GET
// /api/tables/{id}/tournament): "Back to the tournament" in place of "Play again" (a
// rematch would be a game outside the event), and who forfeited and why, as the
// standings count it: a person away when the game ended (a bot finished it for them)
// scores 0 tournament points for it, whatever their place on the board.
//
// Hooks for tests (data-testid): tournament-end (data-tournament, data-recorded), in it
// back-to-tournament, forfeit (data-seat) for each seat that forfeited, and once the
// tournament counted the game tournament-points with tournament-seat-points (data-seat,
// data-points) per seat.

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { seatName } from "../table/seats.js";

// Times the page asks again for a game the tournament has not counted yet (every ASK_EVERY ms).
const ASKS = 20;
const ASK_EVERY = 1500;

const answers = new Map(); // table id → the server's answer
const asked = new Map(); // table id → how many times asked

/** The seat's person forfeits: away when the game ended, not back (as the tournament's runner counts them). */
export function forfeits(table) {
  return table.seats.filter((s) => s.kind === "human" && s.away && !s.back).map((s) => s.seat);
}

function ask(tableId, redraw) {
  const times = asked.get(tableId) ?? 0;
  if (times >= ASKS) return;
  asked.set(tableId, times + 1);
  api.tableTournament(tableId).then(
    (answer) => {
      answers.set(tableId, answer);
      if (answer.tournament && !answer.game?.finished) setTimeout(() => ask(tableId, redraw), ASK_EVERY);
      redraw();
    },
    (error) => {
      const later = !error?.status || error.status >= 500 || error.status === 429; // not now: ask again
      if (later) setTimeout(() => ask(tableId, redraw), ASK_EVERY);
      else answers.set(tableId, { tournament: null, game: null }); // a server without tournaments
    },
  );
}

function name(table, seat) {
  return seatName(table, seat) ?? t("panel.nobody");
}

/**
 * On a finished table's result panel: the tournament's part, if the game is a
 * tournament's (its page's hint, kept when it sent the player here, is taken until the
 * server answers). True when it is: the page then offers no rematch.
 */
export function tournamentEnd(result, table, redraw) {
  if (!answers.has(table.id) && !asked.has(table.id)) ask(table.id, redraw);
  const answer = answers.get(table.id);
  const id = answer ? answer.tournament?.id : sessionStorage.getItem(`ghostparty:tournament-of:${table.id}`);
  if (!id) return false;
  const game = answer?.game?.finished ? answer.game : null; // as the tournament counted it
  const out = game ? game.forfeits : forfeits(table);
  const title = result.querySelector("[data-testid=result-winners]");
  const winners = (title?.dataset.winners ?? "").split(",").filter(Boolean).map(Number);
  if (title && winners.some((seat) => out.includes(seat))) {
    title.textContent = t("tournament.end_forfeit_title", { who: winners.map((seat) => name(table, seat)).join(t("panel.and")) });
  }
  const box = el(
    "div",
    { class: "tournament-end", "data-testid": "tournament-end", "data-tournament": id, "data-recorded": game ? "true" : "false" },
    el("h3", {}, t("tournament.end_title")),
    ...out.map((seat) => el("p", { "data-testid": "forfeit", "data-seat": seat }, t("tournament.forfeit", { who: name(table, seat) }))),
    game
      ? el(
          "p",
          { "data-testid": "tournament-points" },
          t("tournament.end_points"),
          " ",
          ...game.points.flatMap((points, seat) => [
            seat ? " · " : "",
            el("span", { "data-testid": "tournament-seat-points", "data-seat": seat, "data-points": points }, `${name(table, seat)} ${points}`),
          ]),
        )
      : null,
    el("p", {}, el("a", { class: "button primary", href: `/tournaments/${encodeURIComponent(id)}`, "data-testid": "back-to-tournament" }, t("tournament.back"))),
  );
  result.append(box);
  return true;
}
