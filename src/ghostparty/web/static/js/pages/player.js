// A player's profile, /players/{name}: per rule set the rating ("1523?" while
// provisional), games, wins, mean points and a small chart of the rating's history; the
// last games with links to their replays; on one's own page the open and running tables.
//
// Hooks for tests (data-testid): profile (<main>, data-state = loading | ok | missing,
// data-player, data-own); player-name, player-since, profile-status; rating-card per rule
// set (data-rules) with rating (data-rating, data-provisional), stat-games, stat-wins,
// stat-mean, rating-chart (an SVG, data-points); games (the table) with game-row per game
// (data-table, data-rules, data-rated, data-change) and its replay-link; own-tables-card
// with own-table rows (data-table, data-status) and own-table-link; account-settings;
// player-actions (another player's page, logged in: player-actions.js; a guest: follow-login);
// review-card (accuracy and PR from the game reviews: review-profile.js); on one's own
// page learn-slot ("Learn from your mistakes (N)": replay/mistakes-link.js).

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill, svg } from "../lib/dom.js";
import { applyI18n, currentLanguage, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { playerActions } from "../account/player-actions.js";
import { profileInvite } from "../table/bot-invite.js";
import { showReviews } from "../replay/review-profile.js";
import { showMistakesLink } from "../replay/mistakes-link.js";
import { colourText, useBoard } from "../table/seats.js";
import { recordText } from "../table/records.js";
import { accountError, loginUrl, mountAccountNav, ratingText } from "../lib/session.js";

const $ = (id) => document.getElementById(id);

const RULES = ["hugo", "midnight-party"];

function pageName() {
  const part = location.pathname.split("/")[2];
  try {
    return decodeURIComponent(part || new URLSearchParams(location.search).get("name") || "");
  } catch {
    return "";
  }
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function day(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "long" }).format(date);
}

function number(value, digits = 1) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: digits }).format(value);
}

/** "+23", "−5", "±0"; "–" for an unrated game. */
function changeText(change) {
  if (typeof change !== "number") return "–";
  const rounded = Math.round(change);
  if (rounded > 0) return `+${rounded}`;
  return rounded < 0 ? `−${-rounded}` : "±0";
}

// ---------------------------------------------------------------- the chart

const W = 320;
const H = 120;
const PAD = { left: 40, right: 10, top: 10, bottom: 12 };
const MIN_SPAN = 40; // rating points from the chart's bottom to its top, at least

/** The rating after each game as a line: an inline SVG, no library. */
export function ratingChart(history) {
  const values = history.map((h) => h.rating).filter((v) => typeof v === "number");
  if (!values.length) return el("p", { class: "hint", "data-testid": "rating-chart-empty" }, t("player.no_history"));
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < MIN_SPAN) {
    const mid = (hi + lo) / 2;
    lo = mid - MIN_SPAN / 2;
    hi = mid + MIN_SPAN / 2;
  }
  const width = W - PAD.left - PAD.right;
  const height = H - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (values.length === 1 ? width / 2 : (i * width) / (values.length - 1));
  const y = (v) => PAD.top + ((hi - v) * height) / (hi - lo);
  const first = values[0];
  const last = values[values.length - 1];
  const chart = svg("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": t("player.chart_label", { n: values.length, from: Math.round(first), to: Math.round(last) }),
    "data-testid": "rating-chart",
    "data-points": values.length,
  });
  for (const level of [hi, lo]) {
    chart.append(
      svg("line", { class: "chart-grid", x1: PAD.left, x2: W - PAD.right, y1: y(level), y2: y(level) }),
      svg("text", { class: "chart-label", x: PAD.left - 6, y: y(level) + 4 }, String(Math.round(level))),
    );
  }
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  if (values.length > 1) chart.append(svg("polyline", { class: "chart-line", points }));
  history.forEach((entry, i) => {
    if (typeof entry.rating !== "number") return;
    const dot = svg("circle", { class: "chart-dot", cx: x(i).toFixed(1), cy: y(entry.rating).toFixed(1), r: i === values.length - 1 ? 4 : 2.5 });
    dot.append(svg("title", {}, t("player.chart_point", { rating: Math.round(entry.rating), when: when(entry.ended) })));
    chart.append(dot);
  });
  return chart;
}

// ---------------------------------------------------------------- the page

function stat(testid, label, value) {
  return el("div", { class: "stat" }, el("dt", {}, label), el("dd", { "data-testid": testid }, value));
}

function ratingCard(rules, entry) {
  const rating = el(
    "span",
    {
      class: `rating-value${entry.provisional ? " provisional" : ""}`,
      "data-testid": "rating",
      "data-rating": Math.round(entry.rating),
      "data-provisional": entry.provisional ? "true" : "false",
      title: entry.provisional ? t("player.provisional") : null,
    },
    ratingText(entry),
  );
  return el(
    "section",
    { class: "card rating-card", "data-testid": "rating-card", "data-rules": rules },
    el("h2", {}, t(`rules.${rules}`)),
    el("p", { class: "rating-line" }, el("span", { class: "label" }, t("player.rating")), rating),
    entry.provisional ? el("p", { class: "hint" }, t("player.provisional")) : null,
    el(
      "dl",
      { class: "stats" },
      stat("stat-games", t("player.games"), number(entry.games, 0)),
      stat("stat-rated", t("player.rated_games"), number(entry.rated_games, 0)),
      stat("stat-wins", t("player.wins"), number(entry.wins, 0)),
      stat("stat-mean", t("player.mean_points"), number(entry.mean_points)),
    ),
    ratingChart(entry.history ?? []),
  );
}

function gameRow(game) {
  const won = game.won ? el("span", { class: "tag tag-win" }, t("player.won")) : null;
  const change = game.rated ? changeText(game.rating_change) : "–";
  const trend = !game.rated || !game.rating_change ? "" : game.rating_change > 0 ? " up" : " down";
  return el(
    "tr",
    {
      class: game.won ? "won" : "",
      "data-testid": "game-row",
      "data-table": game.table,
      "data-rules": game.rules,
      "data-rated": game.rated ? "true" : "false",
      "data-change": typeof game.rating_change === "number" ? game.rating_change : "",
    },
    el("td", {}, when(game.ended)),
    el("td", {}, t(`rules.${game.rules}`)),
    el("td", {}, t("player.place", { place: game.place, n: game.players }), " ", won),
    el("td", { class: "num" }, number(game.points, 0)),
    el("td", { class: `num change${trend}`, title: game.rated ? null : t("player.unrated") }, change),
    el("td", {}, el("a", { class: "button small", href: `/r/${encodeURIComponent(game.table)}`, "data-testid": "replay-link" }, t("player.replay"))),
  );
}

function ownTableRow(table) {
  const info = el(
    "div",
    { class: "table-info" },
    el("strong", {}, t(`rules.${table.rules}`)),
    el("span", { class: "hint" }, ` · ${t(`player.status_${table.status === "open" ? "open" : "playing"}`)}`),
    el("div", { class: "table-people" }, t("player.your_seat", { colour: colourText(table.seat) })),
  );
  const link = el("a", { class: "button", href: `/t/${encodeURIComponent(table.id)}`, "data-testid": "own-table-link" }, t("player.to_table"));
  return el("li", { "data-testid": "own-table", "data-table": table.id, "data-status": table.status }, info, link);
}

function render(profile, viewer) {
  const main = $("profile");
  const own = Array.isArray(profile.tables) || viewer?.name?.toLowerCase() === profile.name.toLowerCase();
  main.dataset.player = profile.name;
  main.dataset.own = own ? "true" : "false";
  document.title = t("player.page_title", { name: profile.name });
  const botLevel = profile.kind === "bot" ? el("span", { class: "tag tag-bot", "data-testid": "bot-tag" }, t("player.bot")) : null;
  const botAccount = profile.bot_account ? el("span", { class: "tag tag-bot", "data-testid": "bot-tag", title: t("seat.bot_account_title") }, t("seat.bot_account")) : null;
  fill($("player-name"), profile.name, botLevel ?? botAccount);
  $("player-since").textContent = profile.kind === "bot" ? t("player.bot_hint") : profile.created ? t("player.since", { date: day(profile.created) }) : "";
  const record = $("player-record");
  record.hidden = !profile.reliability?.games;
  record.textContent = profile.reliability?.games ? recordText(profile.reliability) : "";
  if (profile.reliability) {
    record.dataset.games = profile.reliability.games;
    record.dataset.percent = profile.reliability.percent ?? "";
  }
  $("own-links").hidden = !own || profile.kind === "bot";
  if (own && viewer && profile.kind === "user") showMistakesLink($("learn-slot"));
  if (viewer && !own && profile.kind === "user") {
    playerActions($("player-actions"), profile.name).then(() => {
      if (profile.bot_account) profileInvite($("player-actions"), profile.name, viewer.name);
    });
  }
  if (!viewer && profile.kind === "user") {
    const link = el("a", { href: loginUrl(), "data-testid": "follow-login" }, t("player.follow_login", { name: profile.name }));
    fill($("player-actions"), el("p", { class: "hint" }, link));
    $("player-actions").hidden = false;
  }

  const ratings = profile.ratings ?? {};
  const played = [...RULES.filter((r) => r in ratings), ...Object.keys(ratings).filter((r) => !RULES.includes(r))];
  fill($("ratings"), ...played.map((rules) => ratingCard(rules, ratings[rules])));
  $("profile-status").textContent = played.length ? "" : t("player.no_games");
  $("profile-status").hidden = played.length > 0;

  const games = profile.games ?? [];
  $("games-card").hidden = !games.length;
  fill($("games"), ...games.map(gameRow));

  const tables = profile.tables ?? [];
  $("own-tables-card").hidden = !own || !Array.isArray(profile.tables);
  fill($("own-tables"), ...(tables.length ? tables.map(ownTableRow) : [el("li", { class: "empty" }, t("player.no_tables"))]));
  main.dataset.state = "ok";
}

/** The profile's trophies (1st, 2nd, 3rd places in tournaments), shown when there are any. */
async function showTrophies(name) {
  let trophies = [];
  try {
    trophies = (await api.trophies(name)).trophies ?? [];
  } catch {
    return; // a server without tournaments, or a bot: no trophies card
  }
  $("trophies-card").hidden = !trophies.length;
  fill(
    $("trophies"),
    ...trophies.map((trophy) =>
      el(
        "li",
        { "data-testid": "trophy", "data-place": trophy.place, "data-tournament": trophy.tournament },
        el("span", { "aria-hidden": "true" }, ["🥇", "🥈", "🥉"][trophy.place - 1], " "),
        el("a", { href: `/tournaments/${encodeURIComponent(trophy.tournament)}` }, t("player.trophy", { place: trophy.place, what: `${t(`tournaments.kind_${trophy.kind}`)} · ${t(`rules.${trophy.rules}`)} · ${day(trophy.starts)}` })),
      ),
    ),
  );
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  const name = pageName();
  $("player-name").textContent = name;
  const loading = api.player(name).then(
    (profile) => ({ profile }),
    (error) => ({ error }),
  );
  const board = api.board("hugo").catch(() => null); // the seats' colour names
  const viewer = await mountAccountNav();
  const { profile, error } = await loading;
  if (profile) {
    if (profile.tables?.length) useBoard(await board);
    render(profile, viewer);
    showTrophies(profile.name);
    showReviews($("review-card"), profile.name);
    return;
  }
  $("profile").dataset.state = "missing";
  $("profile-status").textContent = error.code === "unknown_player" ? t("player.unknown", { name }) : accountError(error);
}

main();
