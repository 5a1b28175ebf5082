// The game page's controls and board targets, drawn from the state (js/table/state.js): the
// roll, pass and move buttons, the placement list, the away note, the hint under the
// moves and what may be clicked on the board. Clicks go to `on` (table.js).

import { el, fill } from "../../lib/dom.js";
import { t } from "../../lib/i18n.js";
import { followTurn, rollButton } from "../keys.js";
import { effectNotes, place } from "../narrate.js";
import { actorName, seatLabel } from "../seats.js";
import { awaySeat, chosen, destinations, interactive, placements, sources } from "../state.js";

/** "G3 → C8" in the page's language. */
export function describeMove(action) {
  return t("table.move", { from: place(action.from), to: place(action.to) });
}

/** What moving from `from` to `to` would do, in words ("" for nothing notable). */
export function effectText(state, from, to) {
  const i = state.legal.findIndex((a) => a.from === from && a.to === to);
  return effectNotes(state.effects[i] ?? [], (seat) => actorName(state.table, seat)).join(", ");
}

/** What may be clicked on the board now (board.js setTargets). */
export function renderTargets(boardView, state, boardData) {
  if (!boardView) return;
  const phase = state.position?.phase;
  if (!interactive(state)) boardView.setTargets();
  else if (phase === "place") boardView.setTargets({ places: new Set(placements(state, boardData)) });
  else if (phase === "move") {
    const selected = chosen(state);
    const dests = selected ? destinations(state, selected) : new Set();
    const notes = new Map([...dests].map((to) => [to, effectText(state, selected, to)]).filter(([, text]) => text));
    boardView.setTargets({ sources: sources(state), dests, selected, notes });
  } else boardView.setTargets();
}

/**
 * The controls under the status line. `on`: {act(action), select(location), hello()};
 * `boardView` follows the turn for the keyboard (js/table/keys.js).
 */
export function renderControls(box, state, { boardData, boardView, on }) {
  const enabled = interactive(state);
  const legal = state.legal;
  const selected = chosen(state);
  const parts = [];
  const away = awaySeat(state);
  if (away !== undefined) {
    // Back from an absent seat: saying hello again takes it back (from the next turn if
    // the bot is halfway through this one).
    const back = state.table.seats[away].back;
    parts.push(el("p", { class: "hint", "data-testid": "away-note" }, t(back ? "table.back_next_turn" : "table.away_note", { who: seatLabel(state.table, away) })));
    if (!back) parts.push(el("button", { type: "button", class: "big", "data-testid": "im-back", onclick: () => on.hello() }, t("table.im_back")));
  }
  if (legal.some((a) => a.roll === true)) parts.push(rollButton(enabled, () => on.act({ roll: true })));
  const moves = legal.filter((a) => "from" in a);
  if (moves.length) {
    const shown = selected ? moves.filter((a) => a.from === selected) : moves;
    const list = el("div", { class: "moves", "data-testid": "moves", role: "group", "aria-label": t("table.moves") });
    for (const move of shown) {
      const effect = effectText(state, move.from, move.to);
      list.append(
        el(
          "button",
          { type: "button", class: "move", "data-testid": "move", "data-from": move.from, "data-to": move.to, disabled: !enabled, onclick: () => on.act(move) },
          describeMove(move),
          effect ? el("span", { class: "effect", "data-testid": "move-effect" }, ` · ${effect}`) : null,
        ),
      );
    }
    if (selected && shown.length < moves.length) {
      list.append(el("button", { type: "button", class: "move other", disabled: !enabled, onclick: () => on.select(null) }, t("table.another")));
    }
    parts.push(list, el("p", { class: "move-hint", id: "move-hint", "data-testid": "move-hint", hidden: true }));
  }
  if (legal.some((a) => a.pass === true)) {
    parts.push(el("button", { type: "button", "data-testid": "pass", disabled: !enabled, onclick: () => on.act({ pass: true }) }, t("table.pass")));
  }
  const places = placements(state, boardData);
  if (places.length) {
    const entry = boardData?.arrow;
    const options = places.map((p) => el("option", { value: p }, p === entry ? t("table.place_entry", { square: p }) : p));
    const select = el("select", { "data-testid": "place-select", "aria-label": t("table.place_select"), disabled: !enabled }, ...options);
    parts.push(
      el(
        "div",
        { class: "place-row" },
        el("span", { class: "hint" }, t("table.place_hint")),
        select,
        el("button", { type: "button", "data-testid": "place-button", disabled: !enabled, onclick: () => on.act({ place: select.value }) }, t("table.place")),
      ),
    );
  }
  fill(box, ...parts);
  box.hidden = parts.length === 0;
  renderHint(box.querySelector("#move-hint"), state);
  followTurn(boardView, { mine: enabled, acted: state.acted }); // js/table/keys.js
}

/** What moving to the hovered or focused destination would do, under the moves. */
export function renderHint(node, state) {
  if (!node) return;
  const to = state.hint;
  const selected = chosen(state);
  node.hidden = !to || !selected;
  node.textContent = node.hidden ? "" : `${describeMove({ from: selected, to })}: ${effectText(state, selected, to) || t("board.no_effect")}`;
}
