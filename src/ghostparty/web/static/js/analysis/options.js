// The analysis board's list of what the player to move may do (POST /api/analysis
// `options`): a table, one row per option, best first (the die's faces in order in phase
// roll), each with a button that plays it, its win chance for the player to move and,
// after a deep analysis, the rollouts' win chance ± two standard errors.
//
// Hooks (data-testid): options (the table; data-phase, data-count), option (a row:
// data-action = the action's JSON, data-win, data-best, data-deep-win), option-play (its
// button), option-win, option-probability, option-deep, seat-win (data-seat, data-win).

import { el, fill } from "../lib/dom.js";
import { currentLanguage, t } from "../lib/i18n.js";
import { actionText } from "../replay/review.js";
import { colourHex, colourText } from "../table/seats.js";

/** A chance (0..1) as a percentage with one decimal in the page's language: "31.5%", "31,5 %". */
export function percentText(chance) {
  try {
    return new Intl.NumberFormat(currentLanguage(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(chance);
  } catch {
    return `${(100 * chance).toFixed(1)}%`;
  }
}

/** Points of a percentage, one decimal, in the page's language: 0.04 -> "4.0" / "4,0". */
function pointsText(chance) {
  try {
    return new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(100 * chance);
  } catch {
    return (100 * chance).toFixed(1);
  }
}

/** A deep result ({win, se}) as "30.0% ± 4.0" (two standard errors, in points). */
export function deepText(deep) {
  return t("analysis.deep_value", { win: percentText(deep.win), margin: pointsText(2 * deep.se) });
}

/** What an option does, in the page's language ("G8 → Chapel", "roll 4"). */
export function optionText(action) {
  if (action && "roll" in action) return action.roll === "hugo" ? t("analysis.face_hugo") : t("analysis.face", { face: action.roll });
  return actionText(action);
}

/** The locations an action touches, to outline on the board. */
export function actionPlaces(action) {
  if (!action) return [];
  if (action.from !== undefined) return [action.from, action.to];
  if (action.place !== undefined) return [action.place];
  return [];
}

/**
 * Fill `table` with the analysis's options. handlers: play(option), hover(option | null).
 * `deep`: whether the deep column is shown (the answer was asked with deep: true).
 */
export function renderOptions(table, analysis, { play, hover }, deep = false) {
  const options = analysis?.options ?? [];
  const phase = analysis?.phase ?? "";
  table.dataset.phase = phase;
  table.dataset.count = String(options.length);
  const roll = phase === "roll";
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t(roll ? "analysis.col_face" : "analysis.col_option")),
    roll ? el("th", { scope: "col" }, t("analysis.col_probability")) : null,
    el("th", { scope: "col" }, t("analysis.col_win")),
    deep ? el("th", { scope: "col" }, t("analysis.col_deep")) : null,
  );
  const rows = options.map((option) => {
    const text = optionText(option.action);
    const button = el(
      "button",
      {
        type: "button",
        class: "option-play small",
        "data-testid": "option-play",
        "aria-label": option.best ? t("analysis.play_best", { option: text }) : t("analysis.play", { option: text }),
        onclick: () => play(option),
        onmouseenter: () => hover(option),
        onmouseleave: () => hover(null),
        onfocus: () => hover(option),
        onblur: () => hover(null),
      },
      text,
    );
    const row = el(
      "tr",
      {
        class: option.best ? "option best" : "option",
        "data-testid": "option",
        "data-action": JSON.stringify(option.action),
        "data-win": option.win,
        "data-best": option.best ? "true" : "false",
        "data-deep-win": option.deep ? option.deep.win : null,
      },
      el("th", { scope: "row" }, button, option.best ? el("span", { class: "tag tag-best", "data-testid": "option-best" }, t("analysis.best")) : null),
      roll ? el("td", { class: "num", "data-testid": "option-probability" }, option.probability === null ? "" : percentText(option.probability)) : null,
      el("td", { class: "num", "data-testid": "option-win" }, percentText(option.win)),
      deep ? el("td", { class: "num", "data-testid": "option-deep" }, option.deep ? deepText(option.deep) : "–") : null,
    );
    return row;
  });
  fill(table, el("caption", { class: "visually-hidden" }, t("analysis.options_caption")), el("thead", {}, head), el("tbody", {}, ...rows));
}

/** Every seat's win chance in the position, as a list of bars. */
export function renderSeatWins(list, win) {
  const items = (win ?? []).map((chance, seat) => {
    const bar = el("span", { class: "seat-win-bar", "aria-hidden": "true" }, el("span", { class: "seat-win-fill" }));
    bar.firstChild.style.width = `${Math.max(0, Math.min(100, 100 * chance))}%`;
    bar.firstChild.style.background = colourHex(seat);
    return el(
      "li",
      { class: "seat-win", "data-testid": "seat-win", "data-seat": seat, "data-win": chance },
      el("span", { class: "seat-win-name" }, t("analysis.seat", { n: seat + 1, colour: colourText(seat) })),
      bar,
      el("span", { class: "num" }, percentText(chance)),
    );
  });
  fill(list, ...items);
}

/** The table as the seats panel (table/panels.js renderSeats) reads it: seats without
 * names, the seat to move, the winners. */
export function seatsTable(position) {
  const over = position.phase === "over";
  const seats = Array.from({ length: position.players }, (_, seat) => ({ seat, kind: "human", name: null, away: false, back: false, online: true }));
  return { seats, status: over ? "over" : "playing", to_move: over ? null : position.to_move, winners: over ? position.winners : [] };
}
