// The puzzles page's mistakes mode (/puzzles#mistakes, or /puzzles?mistakes=<table id> for
// one game's): the account's own mistakes and blunders from its recently reviewed games
// (GET /api/puzzles/mistakes), each in the position before it, solved as a puzzle. The
// banner says what was played; an attempt (POST /api/puzzles/mistakes/{table}/{index}/attempt)
// is judged by the review's search (right: the best, or within an inaccuracy of it) and
// never rated. "Next mistake" steps through the list, from the first again after the last.

import { api } from "../lib/api.js";
import { t } from "../lib/i18n.js";
import { optionText } from "../analysis/options.js";
import { colourText } from "../table/seats.js";
import { sameAction } from "./logic.js";

/** The list stepped through: its items, the one shown, the game asked for (null: all). */
export const MISTAKES = { list: [], at: 0, table: null };

/** Ask for the account's mistakes (of `table`, or of every recent game); whether there are any. */
export async function loadMistakes(table) {
  const answer = await api.mistakes(table);
  MISTAKES.list = answer.mistakes ?? [];
  MISTAKES.at = 0;
  MISTAKES.table = table;
  return MISTAKES.list.length > 0;
}

/** The mistake shown, or null. */
export function currentMistake() {
  return MISTAKES.list[MISTAKES.at] ?? null;
}

/** The next mistake (the first again after the last), or null without any. */
export function nextMistake() {
  if (!MISTAKES.list.length) return null;
  MISTAKES.at = (MISTAKES.at + 1) % MISTAKES.list.length;
  return currentMistake();
}

/** The banner: "You played G3 → G7 here (mistake). Find a better move." */
export function mistakeTask(item) {
  return t("mistakes.task", { move: optionText(item.played), mark: t(`review.${item.mark}`) });
}

/** Which one of how many, the seat's colour, the rules and the players. */
export function mistakeMeta(item) {
  return [
    t("mistakes.count", { k: MISTAKES.at + 1, n: MISTAKES.list.length }),
    t("mistakes.you_are", { colour: colourText(item.to_move) }),
    t(`rules.${item.rules}`),
    t("puzzles.players_n", { n: item.players }),
  ].join(" · ");
}

/** Right (the best), good (within an inaccuracy of it) or wrong, for the action chosen. */
export function mistakeVerdict(result, chosen) {
  if (!result.correct) return t("puzzles.wrong", { chosen: optionText(chosen), move: optionText(result.answer) });
  if (sameAction(chosen, result.answer)) return t("puzzles.right", { move: optionText(result.answer) });
  return t("mistakes.good", { chosen: optionText(chosen), move: optionText(result.answer) });
}

/** What an empty list says: none in the recent games, or none in the game asked for. */
export function emptyText(table) {
  return t(table ? "mistakes.none_game" : "mistakes.none");
}

/** The replay of the mistake's game, at its review. */
export function gameUrl(item) {
  return `/r/${encodeURIComponent(item.table)}#review`;
}
