// The game page's chrome (table.js): the language and rules-help buttons, the table's
// link and its copy button, the start button, the animation speed, and the dock fixed to
// the bottom of a narrow screen (and the result scrolled into view above it).

import { tableUrl } from "../lib/api.js";
import { toast } from "../lib/dom.js";
import { applyI18n, languageSwitch, t } from "../lib/i18n.js";
import { rulesHelpButton } from "../lib/rules-help.js";
import { saveSpeed } from "../lib/store.js";

const $ = (id) => document.getElementById(id);

/**
 * Wire the page's fixed controls. `rules()`: the table's rule set (for the rules' help);
 * `start()`: the start button; `speed`, `setSpeed(value)`: the animation speed (kept in
 * localStorage); `timer`: the turn timer, which keeps the page's title.
 */
export function setupChrome(tableId, { rules, start, speed: current, setSpeed, timer }) {
  applyI18n();
  $("lang-slot").replaceWith(rulesHelpButton(rules), languageSwitch());
  const link = tableUrl(tableId);
  $("share-link").value = link;
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      $("share-link").select();
      document.execCommand("copy");
    }
    toast(t("table.copied"), "info");
  });
  $("start").addEventListener("click", start);
  const speed = $("speed");
  speed.value = current;
  speed.addEventListener("change", () => {
    setSpeed(speed.value);
    saveSpeed(speed.value);
  });
  $("table-name").textContent = t("table.name", { id: tableId });
  timer.title(t("table.page_title", { id: tableId }));
  watchDock();
}

/**
 * On a narrow screen the dock (status, timer, controls) is fixed to the bottom of the
 * window: the page (css/style.css) scrolls in the window's height less --dock-height,
 * so that the dock never covers the board.
 */
function watchDock() {
  const dock = $("dock");
  const measure = () => {
    const docked = getComputedStyle(dock).position === "fixed";
    const height = docked ? Math.ceil(dock.getBoundingClientRect().height) : 0; // whole pixels, rounded up
    document.documentElement.style.setProperty("--dock-height", `${height}px`);
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(dock);
  window.addEventListener("resize", measure);
  measure();
}

/** The end of the game: the result panel scrolled into view (on a phone it is below the board). */
export function showResult() {
  const result = $("result");
  const box = result.getBoundingClientRect();
  const dock = $("dock").getBoundingClientRect();
  const bottom = getComputedStyle($("dock")).position === "fixed" ? dock.top : innerHeight;
  if (box.top < 0 || box.bottom > bottom) result.scrollIntoView({ block: "start", behavior: "auto" });
}
