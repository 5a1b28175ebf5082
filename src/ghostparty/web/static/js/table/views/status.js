// The game page's status line from the state (js/table/state.js): whose turn, what to do.

import { t, tn } from "../../lib/i18n.js";
import { seatLabel } from "../seats.js";
import { chosen } from "../state.js";

export function statusText(state) {
  const { table, position } = state;
  if (!table) return t("table.connecting");
  if (table.status === "open") {
    const free = table.seats.filter((s) => s.kind === "human" && !s.name).length;
    if (free) return tn("status.waiting", free);
    return state.held.length ? t("status.ready_start") : t("status.ready_wait");
  }
  if (table.status === "over" || position?.phase === "over") {
    const winners = (table.winners ?? []).map((s) => seatLabel(table, s));
    if (!winners.length) return t("status.over_one", { who: t("status.nobody") });
    return winners.length > 1 ? t("status.over_shared", { who: winners.join(t("panel.and")) }) : t("status.over_one", { who: winners[0] });
  }
  const seat = table.to_move;
  const who = seatLabel(table, seat);
  if (!state.legal.length) {
    if (state.waiting || state.animating) return t("status.to_play", { who });
    if (table.seats[seat]?.away) return t("status.bot_for", { who });
    return table.seats[seat]?.kind === "bot" ? t("status.thinking", { who }) : t("status.waiting_for", { who });
  }
  const you = state.held.length > 1 ? t("status.seat_you", { who }) : t("status.you");
  if (position.phase === "place") {
    const left = position.place_queue.filter((s) => s === seat).length;
    return t("status.place", { you, n: left });
  }
  if (position.phase === "roll") return t("status.roll", { you });
  if (position.phase === "move") {
    const pass = state.legal.some((a) => a.pass) ? t("status.or_pass") : "";
    return t(chosen(state) ? "status.move_where" : "status.move_pick", { you, roll: position.roll, pass });
  }
  return "";
}
