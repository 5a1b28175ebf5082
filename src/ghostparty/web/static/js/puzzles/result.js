// The puzzles page's answer to an attempt (POST /api/puzzles/{id}/attempt): right or
// wrong, the reason in the page's language, the themes, every alternative with its win
// chance (the answer first), the ratings' change and the streak. A mistake's answer
// (js/puzzles/mistakes.js) brings its own verdict and rating line, tags the move played
// in the game and has no streak.
//
// Hooks (data-testid): puzzle-result (data-correct), puzzle-verdict, puzzle-reason,
// puzzle-themes (puzzle-theme per theme, data-theme), puzzle-alternatives (the table;
// puzzle-alternative rows: data-action, data-answer, data-chosen, data-played, data-win),
// puzzle-ratings (data-rated), puzzle-streak (data-streak).

import { el, fill } from "../lib/dom.js";
import { currentLanguage, t } from "../lib/i18n.js";
import { signedChange } from "../table/rating-change.js";
import { deepText, optionText, percentText } from "../analysis/options.js";
import { reasonText, sameAction } from "./logic.js";

const $ = (id) => document.getElementById(id);

/** A theme's name in the page's language. */
export function themeName(theme) {
  return t(`puzzles.theme.${theme}`);
}

/**
 * Show `result` for the action `chosen`. `player`: the logged-in player or null (a
 * guest); `guest`: a guest's streak counted in this browser ({streak, best}) or null;
 * `mistake`: {verdict, ratings}, the texts of an attempt at one's own mistake, or null.
 */
export function renderResult(result, chosen, player, guest, mistake = null) {
  const box = $("result");
  box.hidden = false;
  box.dataset.correct = result.correct ? "true" : "false";
  box.classList.toggle("right", result.correct);
  box.classList.toggle("wrong", !result.correct);
  $("verdict").textContent = mistake
    ? mistake.verdict
    : result.correct
      ? t("puzzles.right", { move: optionText(result.answer) })
      : t("puzzles.wrong", { chosen: optionText(chosen), move: optionText(result.answer) });
  $("reason").textContent = reasonText(result.reason, currentLanguage());
  const themes = (result.themes ?? []).map((theme) => el("span", { class: "tag", "data-testid": "puzzle-theme", "data-theme": theme }, themeName(theme)));
  fill($("themes"), themes.length ? el("span", { class: "visually-hidden" }, t("puzzles.themes_label")) : null, ...themes);
  renderAlternatives($("alternatives"), result, chosen);
  if (mistake) {
    $("ratings").dataset.rated = "false";
    $("ratings").textContent = mistake.ratings;
    $("streak").dataset.streak = "";
    $("streak").textContent = "";
    return;
  }
  renderRatings(result, player);
  renderStreak(result, guest);
}

function renderAlternatives(table, result, chosen) {
  const alternatives = result.alternatives ?? [];
  const deep = alternatives.some((a) => a.deep);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("analysis.col_option")),
    el("th", { scope: "col" }, t("analysis.col_win")),
    deep ? el("th", { scope: "col" }, t("analysis.col_deep")) : null,
  );
  const rows = alternatives.map((alternative) => {
    const answer = sameAction(alternative.action, result.answer);
    const mine = sameAction(alternative.action, chosen);
    const played = sameAction(alternative.action, result.played);
    const tags = [
      answer ? el("span", { class: "tag tag-best" }, t("puzzles.answer_tag")) : null,
      mine ? el("span", { class: "tag" }, t("puzzles.yours_tag")) : null,
      played ? el("span", { class: "tag" }, t("mistakes.played_tag")) : null,
    ];
    return el(
      "tr",
      {
        class: `option${answer ? " best" : ""}${mine ? " chosen" : ""}`,
        "data-testid": "puzzle-alternative",
        "data-action": JSON.stringify(alternative.action),
        "data-answer": answer ? "true" : "false",
        "data-chosen": mine ? "true" : "false",
        "data-played": played ? "true" : "false",
        "data-win": alternative.win,
      },
      el("th", { scope: "row" }, optionText(alternative.action), " ", ...tags),
      el("td", { class: "num", "data-testid": "alternative-win" }, percentText(alternative.win)),
      deep ? el("td", { class: "num" }, alternative.deep ? deepText(alternative.deep) : "–") : null,
    );
  });
  fill(table, el("caption", { class: "visually-hidden" }, t("puzzles.alternatives_caption")), el("thead", {}, head), el("tbody", {}, ...rows));
}

function renderRatings(result, player) {
  const node = $("ratings");
  node.dataset.rated = result.rated ? "true" : "false";
  const parts = [];
  const puzzle = result.puzzle_rating;
  if (puzzle) parts.push(t("puzzles.puzzle_rating", { rating: Math.round(puzzle.after), change: signedChange(Math.round(puzzle.after - puzzle.before)) }));
  if (result.rated && result.rating) {
    const { before, after, rd } = result.rating;
    parts.push(t("puzzles.your_rating", { rating: Math.round(after), change: signedChange(Math.round(after - before)), rd: Math.round(rd) }));
  } else {
    parts.push(t(player ? "puzzles.not_rated" : "puzzles.not_rated_guest"));
  }
  node.textContent = parts.join(" ");
}

function renderStreak(result, guest) {
  const node = $("streak");
  const streak = typeof result.streak === "number" ? result.streak : guest ? guest.streak : null;
  node.dataset.streak = streak === null ? "" : String(streak);
  if (streak === null) {
    node.textContent = "";
    return;
  }
  const text = t("puzzles.streak", { n: streak });
  node.textContent = guest && typeof result.streak !== "number" ? `${text} ${t("puzzles.streak_here", { best: guest.best })}` : text;
}
