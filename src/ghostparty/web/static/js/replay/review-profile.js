// The profile's game reviews (/players/{name}): per rule set the mean accuracy and PR
// over the player's last reviewed games (GET /api/players/{name}/reviews), with the trend
// as an arrow and the accuracy of each game as a sparkline (an SVG with a text alternative).
//
// Hooks for tests (data-testid): review-card (hidden without reviewed games) with
// review-stats rows (data-rules, data-games, data-accuracy, data-pr), review-trend.

import { el, fill, svg } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const W = 120;
const H = 28;

/** ↑ better, ↓ worse, → about the same (accuracy: higher is better; PR: lower is). */
function trendText(value, higherIsBetter, step) {
  if (value === null || value === undefined) return { arrow: "", text: t("review_profile.trend_few") };
  const better = higherIsBetter ? value > step : value < -step;
  const worse = higherIsBetter ? value < -step : value > step;
  const arrow = better ? "↑" : worse ? "↓" : "→";
  const text = better ? t("review_profile.better") : worse ? t("review_profile.worse") : t("review_profile.same");
  return { arrow, text };
}

function sparkline(values) {
  const points = values.map((v, i) => `${((W * i) / Math.max(1, values.length - 1)).toFixed(1)},${(H - 2 - ((H - 4) * v) / 100).toFixed(1)}`);
  const label = t("review_profile.sparkline", { values: values.map((v) => v.toFixed(0)).join(", ") });
  return svg("svg", { class: "sparkline", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": label }, svg("title", {}, label), svg("polyline", { points: points.join(" "), fill: "none" }));
}

function row(rules, stats) {
  const accuracy = trendText(stats.trend.accuracy, true, 2);
  const pr = trendText(stats.trend.pr, false, 0.5);
  return el(
    "tr",
    { "data-testid": "review-stats", "data-rules": rules, "data-games": stats.games, "data-accuracy": stats.accuracy, "data-pr": stats.pr },
    el("th", { scope: "row" }, t(`rules.${rules}`)),
    el("td", { class: "num" }, String(stats.games)),
    el("td", { class: "num" }, stats.accuracy.toFixed(1), " ", el("span", { class: "trend", "data-testid": "review-trend", title: accuracy.text, "aria-label": accuracy.text }, accuracy.arrow)),
    el("td", { class: "num" }, stats.pr.toFixed(1), " ", el("span", { class: "trend", title: pr.text, "aria-label": pr.text }, pr.arrow)),
    el("td", {}, sparkline(stats.series.map((g) => g.accuracy))),
  );
}

/** Fill `card` with the player's review figures; leave it hidden without any. */
export async function showReviews(card, name) {
  let data;
  try {
    const response = await fetch(`/api/players/${encodeURIComponent(name)}/reviews`);
    if (!response.ok) return;
    data = await response.json();
  } catch {
    return;
  }
  const entries = Object.entries(data.rules ?? {});
  card.hidden = entries.length === 0;
  if (!entries.length) return;
  const head = el("tr", {}, ...[t("player.col_rules"), t("review_profile.games"), t("review.col_accuracy"), t("review.col_pr"), t("review_profile.by_game")].map((text) => el("th", { scope: "col" }, text)));
  fill(
    card,
    el("h2", {}, t("review_profile.title")),
    el("p", { class: "hint" }, t("review_profile.hint", { n: data.games })),
    el("div", { class: "scroll-x" }, el("table", { class: "data-table" }, el("thead", {}, head), el("tbody", {}, ...entries.map(([rules, stats]) => row(rules, stats))))),
  );
}
