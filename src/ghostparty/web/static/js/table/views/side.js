// The game page's side panels from the state (js/table/state.js): an open table's seats and
// start button, the seats and scores while playing, the score sheet, the result, the
// odds and the status line. The panels themselves are panels.js's (shared with the replay).

import { t } from "../../lib/i18n.js";
import { renderOdds } from "../odds.js";
import { renderOpenSeats, renderResult, renderSeats, renderSheet } from "../panels.js";
import { showsOdds } from "../state.js";
import { statusText } from "./status.js";

const $ = (id) => document.getElementById(id);

/**
 * Draw the side panels. `page`: {boardData, boardView, defaultName, join(seat, name),
 * leave(seat), redraw()} — redraw draws them again (a player's record came in).
 */
export function renderSide(state, page) {
  const { table, position } = state;
  const held = new Set(state.held);
  const open = table.status === "open";
  $("open-panel").hidden = !open;
  $("seats").hidden = open;
  if (open) {
    renderOpenSeats($("open-seats"), { table, held }, page, state.account?.name ?? page.defaultName, { account: state.account, redraw: page.redraw });
    const ready = table.seats.every((s) => s.kind === "bot" || s.name);
    const button = $("start");
    button.disabled = !ready || held.size === 0;
    button.title = held.size === 0 ? t("table.start_join") : ready ? "" : t("table.start_all");
  } else {
    renderSeats($("seats"), { table, position, held, scores: state.scores, board: page.boardData, points: state.points, redraw: page.redraw });
  }
  renderSheet($("sheet"), { table, position, points: state.points });
  renderResult($("result"), { table, position });
  renderOdds($("odds"), page.boardView, state.odds, showsOdds(state));
  $("status").textContent = statusText(state);
}
