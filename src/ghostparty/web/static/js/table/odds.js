// The odds panel for the player to move: for each of their guests on the board, the
// engine's chance that Hugo reaches it before their next turn (docs/PROTOCOL.md, `odds`
// in state and update). Shown as a list, and as small percentages over the board on the
// guests Hugo may reach.
//
// Hooks: odds (the panel; data-count), odds-guest (one per location: data-location,
// data-chance, data-probability), odds-label (the figure over the board, data-location).

import { el, fill, svg } from "../lib/dom.js";
import { boxOf } from "./layout.js";
import { currentLanguage, t } from "../lib/i18n.js";
import { place } from "./narrate.js";

/** A chance as a whole percentage in the page's language: 0.3333 -> "33%" / "33 %". */
export function percent(chance) {
  try {
    return new Intl.NumberFormat(currentLanguage(), { style: "percent", maximumFractionDigits: 0 }).format(chance);
  } catch {
    return `${Math.round(chance * 100)}%`;
  }
}

/**
 * Fill the panel and the board labels. odds: the message's list ([] hides both);
 * board: a BoardView or null; visible: whether this client should see them now.
 */
export function renderOdds(container, board, odds, visible = true) {
  const list = visible && Array.isArray(odds) ? odds : [];
  container.hidden = !visible;
  container.dataset.count = String(list.length);
  if (visible) {
    const sorted = [...list].sort((a, b) => b.chance - a.chance);
    const items = sorted.map((entry) =>
      el(
        "li",
        {
          class: `odds-guest${entry.chance >= 0.5 ? " high" : entry.chance > 0 ? " some" : ""}`,
          "data-testid": "odds-guest",
          "data-location": entry.location,
          "data-chance": entry.chance,
          "data-probability": entry.probability,
          title: entry.probability,
        },
        el("span", { class: "odds-place" }, place(entry.location)),
        el("span", { class: "odds-percent" }, percent(entry.chance)),
      ),
    );
    fill(
      container,
      el("h3", {}, t("odds.title")),
      el("p", { class: "hint" }, t("odds.hint")),
      list.length ? el("ul", { class: "odds-list" }, ...items) : el("p", { class: "hint" }, t("odds.none")),
    );
  }
  if (board) drawLabels(board, list);
}

/** The figures over the board, only on guests Hugo may reach (a 0 % on every other is noise). */
function drawLabels(board, odds) {
  const list = odds.filter((entry) => entry.chance > 0);
  let layer = board.root.querySelector(".odds-layer");
  if (!layer) layer = svg("g", { class: "odds-layer", "aria-hidden": "true" });
  board.root.append(layer); // always on top of the tokens and Hugo
  fill(layer);
  for (const entry of list) {
    const box = boxOf(board.layout, entry.location);
    if (!box) continue;
    const x = box.x + box.w / 2;
    const y = box.y + box.h - 6;
    const label = svg(
      "g",
      { class: `odds-label${entry.chance >= 0.5 ? " high" : ""}`, "data-testid": "odds-label", "data-location": entry.location },
      svg("rect", { x: x - 20, y: y - 11, width: 40, height: 15, rx: 7 }),
      svg("text", { x, y }, percent(entry.chance)),
    );
    layer.append(label);
  }
}
