// The open game data's page, /open-data: what the files are, their licence, how to read
// them, and the months there are (GET /api/open-data; docs/OPEN-DATA.md). A server with
// no files yet, or one that publishes none, says so.
//
// Hooks for tests (data-testid): open-data (<main>, data-state = loading | ok | none |
// off | error); months-note (what the list says when there is no list); months (the
// table) with month-row per month (data-month) and its file-link per file (data-name);
// sums-link, index-link; licence; choose-link; snippet-pyarrow, snippet-duckdb (their
// YYYY-MM the newest month's when there is one); puzzle-data (the puzzles' section) with
// puzzles-note (their number, or that there are none yet) and puzzles-files with a
// file-link per file (data-name).

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { applyI18n, currentLanguage, errorText, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { mountAccountNav } from "../lib/session.js";

const $ = (id) => document.getElementById(id);

/** A file's size as people read it: "812 kB", "3.4 MB". */
function sizeText(bytes) {
  const number = (value, digits) => value.toLocaleString(currentLanguage(), { maximumFractionDigits: digits });
  if (bytes < 1e6) return `${number(Math.max(1, Math.round(bytes / 1e3)), 0)} kB`;
  return `${number(bytes / 1e6, 1)} MB`;
}

function fileLink(file) {
  return el("a", { href: `/open-data/${encodeURIComponent(file.name)}`, download: file.name, "data-testid": "file-link", "data-name": file.name, title: `SHA-256 ${file.sha256}` }, file.name);
}

function fileCell(files, suffix) {
  const file = files.find((entry) => entry.name.endsWith(suffix));
  if (!file) return el("td", {}, "–");
  return el("td", {}, fileLink(file), el("span", { class: "hint file-size" }, sizeText(file.bytes)));
}

/** The puzzles' files (index.puzzles: null before the first export). */
function renderPuzzles(puzzles) {
  const files = puzzles?.files ?? [];
  if (!files.length) return;
  $("puzzles-note").textContent = t("opendata.puzzles_count", { count: puzzles.count.toLocaleString(currentLanguage()) });
  fill($("puzzles-files"), ...files.flatMap((file) => [fileLink(file), el("span", { class: "hint file-size" }, sizeText(file.bytes)), " "]));
  $("puzzles-files").hidden = false;
}

function render(months) {
  const rows = [...months].sort((a, b) => b.month.localeCompare(a.month));
  fill($("months"), ...rows.map((entry) => el("tr", { "data-testid": "month-row", "data-month": entry.month }, el("th", { scope: "row" }, entry.month), fileCell(entry.files, ".ndjson.gz"), fileCell(entry.files, ".parquet"))));
  if (rows.length) {
    for (const code of document.querySelectorAll(".snippet code")) code.textContent = code.textContent.replaceAll("YYYY-MM", rows[0].month);
  }
}

function say(state, text) {
  $("open-data").dataset.state = state;
  $("months-box").hidden = true;
  $("months-note").textContent = text;
}

async function show() {
  try {
    const index = await api.openDataIndex();
    renderPuzzles(index.puzzles);
    const months = index.months ?? [];
    if (!months.length) {
      say("none", t("opendata.none"));
      return;
    }
    render(months);
    $("months-note").textContent = "";
    $("months-note").hidden = true;
    $("months-box").hidden = false;
    $("open-data").dataset.state = "ok";
  } catch (error) {
    $("puzzles-note").hidden = true;
    if (error.code === "no_open_data") say("off", t("opendata.off"));
    else say("error", t("opendata.cannot_load", { message: errorText(error) }));
  }
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  await mountAccountNav();
  await show();
}

main();
