// A tournament in words: "Arena · Hugo · 2 a table · 30 min", and times as the reader writes them.

import { t, tn } from "../lib/i18n.js";

/** "Arena · Hugo · 2 a table · 30 min" and the start, in the reader's language. */
export function tournamentLine(tour) {
  const parts = [t(`tournaments.kind_${tour.kind}`), t(`rules.${tour.rules}`), t("tournaments.per_table", { n: tour.table_size })];
  if (tour.kind === "arena") parts.push(t("tournaments.length", { n: tour.minutes }));
  else parts.push(tn(tour.kind === "ladder" ? "tournaments.deals_n" : "tournaments.rounds_n", tour.rounds));
  if (tour.rated) parts.push(t("tournaments.rated"));
  return parts.join(" · ");
}

export function when(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}
