// The lobby's daily puzzle card (GET /api/puzzles/daily): a line about it and a link to
// /puzzles#daily. The card stays hidden where the server has no daily puzzle or cannot
// say.
//
// Hooks (data-testid): daily-card (data-puzzle), daily-text, daily-card-link.

import { api } from "../lib/api.js";
import { t } from "../lib/i18n.js";

/** Fill and show the card once the daily puzzle is known. */
export async function showDailyPuzzle() {
  const card = document.getElementById("daily-card");
  if (!card) return;
  let answer;
  try {
    answer = await api.dailyPuzzle();
  } catch {
    return;
  }
  const puzzle = answer?.puzzle;
  if (!puzzle) return;
  const face = puzzle.roll === "hugo" ? "HUGO" : puzzle.roll;
  const task = puzzle.phase === "place" ? t("puzzles.daily_place") : t("puzzles.daily_move", { face });
  const rules = t(`rules.${puzzle.rules}`);
  document.getElementById("daily-text").textContent = `${task} · ${rules} · ${t("puzzles.players_n", { n: puzzle.players })}`;
  card.dataset.puzzle = puzzle.id;
  card.hidden = false;
}
