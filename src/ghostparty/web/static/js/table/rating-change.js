// The result panel of a rated game: how each registered player's rating moved. The
// change is the one the server kept with the game's end (GET /api/players/{name}: the
// game's `rating_change`, and the rating now), asked once per table.
//
// Hooks for tests (data-testid): rating-change on a result-row (data-change, data-rating).

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** table id -> Map(seat -> {change, rating}), or null while asked. */
const known = new Map();

/** "+12", "−8" (a real minus sign), "±0". */
export function signedChange(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

async function ask(table) {
  const found = new Map();
  const people = table.seats.filter((s) => s.kind === "human" && s.player);
  for (let attempt = 0; attempt < 3 && found.size < people.length; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 1000));
    await Promise.all(
      people
        .filter((s) => !found.has(s.seat))
        .map(async (s) => {
          const profile = await api.player(s.player).catch(() => null);
          const game = profile?.games?.find((g) => g.table === table.id && g.seat === s.seat);
          if (game && typeof game.rating_change === "number") {
            found.set(s.seat, { change: game.rating_change, rating: profile.ratings?.[table.rules]?.rating ?? null });
          }
        }),
    );
  }
  return found;
}

function mark(container, changes) {
  for (const [seat, { change, rating }] of changes) {
    const row = container.querySelector(`[data-testid=result-row][data-seat="${seat}"]`);
    if (!row || row.querySelector("[data-testid=rating-change]")) continue;
    const text = rating === null ? t("panel.rating_change", { change: signedChange(change) }) : t("panel.rating_now", { change: signedChange(change), rating });
    const kind = change > 0 ? "up" : change < 0 ? "down" : "same";
    row.append(el("span", { class: `tag tag-rating ${kind}`, "data-testid": "rating-change", "data-change": change, "data-rating": rating ?? "" }, text));
  }
}

/** Put each player's rating change on the result panel's rows (a rated table only). */
export function showRatingChanges(container, table) {
  if (!table?.rated || container.hidden) return;
  if (!known.has(table.id)) {
    known.set(table.id, null);
    ask(table).then((changes) => {
      known.set(table.id, changes);
      mark(container, changes);
    });
    return;
  }
  const changes = known.get(table.id);
  if (changes) mark(container, changes);
}
