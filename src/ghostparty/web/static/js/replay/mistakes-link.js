// "Learn from your mistakes (N)": a link to the puzzles page's mistakes mode, shown on
// one's own profile (every recent reviewed game's) and under a finished game's review
// (that game's), when the logged-in viewer has mistakes or blunders there
// (GET /api/puzzles/mistakes, asked only when the page's session has a player). A guest,
// or none: the slot stays hidden.
//
// Hook (data-testid): learn-mistakes (data-count), in the slot given.

import { account, api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** Fill `slot` with the link to the mistakes (of `table`, or of every recent game), if any. */
export async function showMistakesLink(slot, table = null) {
  if (!slot) return;
  slot.hidden = true;
  let answer;
  try {
    if (!(await account()).player) return;
    answer = await api.mistakes(table);
  } catch {
    return; // no link: the page goes on without it
  }
  const n = (answer.mistakes ?? []).length;
  if (!n) return;
  const href = table ? `/puzzles?mistakes=${encodeURIComponent(table)}` : "/puzzles#mistakes";
  fill(slot, el("a", { class: "button", href, "data-testid": "learn-mistakes", "data-count": n }, t("mistakes.link", { n })));
  slot.hidden = false;
}
