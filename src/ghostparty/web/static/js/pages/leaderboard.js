// The leaderboard, /leaderboard?rules=hugo|midnight-party: the top players of a rule set
// (with a minimum of games), the bots' rows among them, and where the viewer stands.
//
// Hooks for tests (data-testid): leaderboard (<main>, data-state = loading | ok | error,
// data-rules, data-bots); tab-hugo, tab-midnight-party, tab-people, tab-bots (the bot
// accounts' own leaderboard, ?bots=1) (aria-selected); leaderboard-table with
// leaderboard-row per player (data-name, data-kind = user | bot, data-rank, data-rating,
// data-you = "true" on the viewer's row) and its player-name-link, anchor-tag on a bot's;
// you-row (the viewer's row below the top ones when not among them); leaderboard-note,
// you-note, negative-note (what a rating below zero means, shown when there is one).

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { applyI18n, initI18n, languageSwitch, t, tn } from "../lib/i18n.js";
import { accountError, loginUrl, mountAccountNav, profileUrl, ratingText } from "../lib/session.js";

const $ = (id) => document.getElementById(id);

const RULES = ["hugo", "midnight-party"];

let viewer = null;
let generation = 0;

function chosenBots() {
  return new URLSearchParams(location.search).get("bots") === "1";
}

function chosenRules() {
  const rules = new URLSearchParams(location.search).get("rules");
  return RULES.includes(rules) ? rules : RULES[0];
}

/** A rating cell: a negative number (random play, far below greedy's 1500) points to the
 * note that says what it means, and is written with a real minus sign. */
function ratingCell(entry) {
  const negative = typeof entry.rating === "number" && Math.round(entry.rating) < 0;
  const text = ratingText(entry).replace("-", "−");
  return el(
    "td",
    {
      class: `num${entry.provisional ? " provisional" : ""}`,
      title: entry.provisional ? t("player.provisional") : null,
      "aria-describedby": negative ? "negative-note" : null,
    },
    text,
    negative ? el("sup", { class: "note-mark", "aria-hidden": "true" }, "*") : null,
  );
}

/** A bot's games: its rating is an anchor, not earned in games with people. */
function gamesCell(entry) {
  if (entry.kind !== "bot") return el("td", { class: "num" }, String(entry.games ?? 0));
  return el("td", { class: "num anchor-games", title: t("leaderboard.anchor_title") }, el("span", { "aria-hidden": "true" }, "–"), el("span", { class: "visually-hidden" }, t("leaderboard.anchor_games")));
}

function row(entry, { you = false, below = false } = {}) {
  const bot = entry.kind === "bot";
  const name = el("a", { href: profileUrl(entry.name), "data-testid": "player-name-link" }, entry.name);
  return el(
    "tr",
    {
      class: [bot ? "bot" : "", you ? "you" : "", below ? "below" : ""].filter(Boolean).join(" "),
      "data-testid": below ? "you-row" : "leaderboard-row",
      "data-name": entry.name,
      "data-kind": entry.kind ?? "user",
      "data-rank": entry.rank,
      "data-rating": Math.round(entry.rating),
      "data-you": you ? "true" : "false",
      "aria-current": you ? "true" : null,
    },
    el("td", { class: "num" }, String(entry.rank ?? "–")),
    el(
      "td",
      {},
      name,
      bot ? el("span", { class: "tag tag-bot tag-anchor", "data-testid": "anchor-tag", title: t("leaderboard.anchor_title") }, t("leaderboard.anchor")) : null,
      entry.bot_account ? el("span", { class: "tag tag-bot", "data-testid": "bot-tag", title: t("seat.bot_account_title") }, t("seat.bot_account")) : null,
      you ? el("span", { class: "tag tag-you" }, t("leaderboard.you")) : null,
    ),
    ratingCell(entry),
    gamesCell(entry),
  );
}

function render(board) {
  const rows = board.rows ?? [];
  const you = board.you ?? null;
  const mine = (entry) => you && entry.name.toLowerCase() === you.name.toLowerCase();
  const shown = rows.map((entry) => row(entry, { you: mine(entry) }));
  if (!rows.length) shown.push(el("tr", { class: "empty" }, el("td", { colspan: 4 }, t("leaderboard.empty"))));
  if (you && !rows.some(mine)) {
    shown.push(el("tr", { class: "gap", "aria-hidden": "true" }, el("td", { colspan: 4 }, "⋯")));
    shown.push(row({ ...you, kind: "user" }, { you: true, below: true }));
  }
  fill($("rows"), ...shown);
  $("leaderboard-note").textContent = `${tn("leaderboard.min_games", board.min_games ?? 0)} ${t("leaderboard.anchors")}`;
  $("negative-note").hidden = !rows.some((entry) => Math.round(entry.rating) < 0);
  const note = $("you-note");
  const ranked = Boolean(you && you.rank != null); // an unranked viewer's row comes with rank null
  note.hidden = ranked;
  if (!viewer) {
    fill(note, el("a", { href: loginUrl(), "data-testid": "you-login" }, t("leaderboard.login_to_see")));
  } else if (!ranked) {
    note.textContent = tn("leaderboard.not_rated", board.min_games ?? 0, { rules: t(`rules.${board.rules}`) });
  }
}

function select(tabs, chosen) {
  for (const tab of tabs) {
    const selected = chosen(tab);
    tab.setAttribute("aria-selected", selected ? "true" : "false");
    tab.classList.toggle("selected", selected);
  }
}

async function show(rules, bots, push) {
  const mine = ++generation;
  const main = $("leaderboard");
  main.dataset.state = "loading";
  main.dataset.rules = rules;
  main.dataset.bots = bots ? "true" : "false";
  select(document.querySelectorAll("#tabs [role=tab]"), (tab) => tab.dataset.rules === rules);
  select(document.querySelectorAll("#who-tabs [role=tab]"), (tab) => (tab.dataset.bots === "1") === bots);
  document.title = t("leaderboard.page_title", { rules: t(`rules.${rules}`) });
  if (push) history.pushState({ rules }, "", `/leaderboard?rules=${encodeURIComponent(rules)}${bots ? "&bots=1" : ""}`);
  try {
    const board = await api.leaderboard(rules, 50, bots);
    if (mine !== generation) return;
    render(board);
    main.dataset.state = "ok";
  } catch (error) {
    if (mine !== generation) return;
    fill($("rows"), el("tr", { class: "empty" }, el("td", { colspan: 4 }, t("leaderboard.cannot_load", { message: accountError(error) }))));
    main.dataset.state = "error";
  }
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  const bots = () => $("leaderboard").dataset.bots === "true";
  for (const tab of document.querySelectorAll("#tabs [role=tab]")) {
    tab.addEventListener("click", (event) => {
      event.preventDefault();
      show(tab.dataset.rules, bots(), tab.dataset.rules !== $("leaderboard").dataset.rules);
    });
  }
  for (const tab of document.querySelectorAll("#who-tabs [role=tab]")) {
    tab.addEventListener("click", (event) => {
      event.preventDefault();
      const wanted = tab.dataset.bots === "1";
      show($("leaderboard").dataset.rules, wanted, wanted !== bots());
    });
  }
  window.addEventListener("popstate", () => show(chosenRules(), chosenBots(), false));
  viewer = await mountAccountNav();
  await show(chosenRules(), chosenBots(), false);
}

main();
