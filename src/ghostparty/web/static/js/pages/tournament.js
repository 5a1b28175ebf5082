// A tournament's page, /tournaments/{id}: live standings over /ws/tournaments/{id}, the
// games (a finished one links to its replay, one under way to its table), "your table"
// (the page goes there when you are paired), joining and leaving, the podium at the
// end, and the creator's cancel with a reason.
//
// Hooks for tests (data-testid): tournament (<main>, data-state = loading | ok | error,
// data-status); tournament-heading, tournament-when, cancel-reason; your-table (with
// your-table-link, data-table); join-form, join, leave, tournament-error; come-back-box
// (shown to an entrant no longer paired: data-why = away | left) with out-note and the
// one-click come-back; standings with
// standing-row per line (data-name, data-rank, data-points, data-games, data-bot; a bot
// ladder's also data-score, data-ci-low, data-ci-high, data-house); ladder-note; games
// with game-item (data-game, data-finished) and its game-link; podium with podium-place
// (data-place, data-name); results-csv, results-json; cancel-form, cancel.

import { startAppShell } from "../lib/app-shell.js";
import { api, account } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { applyI18n, initI18n, languageSwitch, t, tn } from "../lib/i18n.js";
import { accountError, mountAccountNav } from "../lib/session.js";
import { loadName, saveName, saveToken } from "../lib/store.js";
import { tournamentLine, when } from "../tournament/tournament-text.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/").pop());
const ENTRY_KEY = `ghostparty:tournament:${id}`;

let viewer = null;
let state = null;
let mine = null;
let left = false;
// Go to a table by ourselves only once per table (back from it, the page stays).
const visited = new Set(JSON.parse(sessionStorage.getItem(`${ENTRY_KEY}:visited`) || "[]"));

function entry() {
  return localStorage.getItem(ENTRY_KEY);
}

function ladderRow(line) {
  const interval = line.ci_low === null ? "–" : `[${line.ci_low.toFixed(2)}, ${line.ci_high.toFixed(2)}]`;
  return el(
    "tr",
    { "data-testid": "standing-row", "data-name": line.name, "data-rank": line.rank, "data-points": line.points, "data-games": line.games, "data-bot": "true", "data-score": line.score_value, "data-ci-low": line.ci_low ?? "", "data-ci-high": line.ci_high ?? "", "data-house": line.house ? "true" : "false", class: mine?.entrant === line.entrant ? "you" : null },
    el("td", { class: "num" }, String(line.rank)),
    el("td", {}, line.name, el("span", { class: "tag tag-bot" }, line.house ? t("tournament.house") : t("player.bot")), line.active ? null : el("span", { class: "tag" }, t("tournament.left"))),
    el("td", { class: "num" }, (line.score_value >= 0 ? "+" : "") + line.score_value.toFixed(2)),
    el("td", { class: "num" }, interval),
    el("td", { class: "num" }, String(line.deals)),
    el("td", { class: "num" }, String(line.games)),
  );
}

function standingRow(line) {
  if (state.tournament.kind === "ladder") return ladderRow(line);
  const swiss = state.tournament.kind === "swiss";
  return el(
    "tr",
    { "data-testid": "standing-row", "data-name": line.name, "data-rank": line.rank, "data-points": line.points, "data-games": line.games, "data-bot": line.bot ? "true" : "false", class: mine?.entrant === line.entrant ? "you" : null, "aria-current": mine?.entrant === line.entrant ? "true" : null },
    el("td", { class: "num" }, String(line.rank)),
    el("td", {}, line.name, line.bot ? el("span", { class: "tag tag-bot" }, t("player.bot")) : null, line.active ? null : el("span", { class: "tag" }, t("tournament.left"))),
    el("td", { class: "num" }, String(line.points)),
    el("td", { class: "num" }, String(line.games)),
    swiss ? el("td", { class: "num" }, String(line.opponents)) : el("td", { class: "num" }, String(line.firsts)),
  );
}

function gameItem(game) {
  const label = game.rotation !== null && game.rotation !== undefined
    ? t("tournament.deal_rotation", { deal: game.round, group: game.table_number, rotation: game.rotation })
    : game.round ? t("tournament.round_table", { round: game.round, table: game.table_number }) : game.game;
  const href = game.finished ? `/r/${encodeURIComponent(game.table)}` : `/t/${encodeURIComponent(game.table)}`;
  const away = (i) => (game.forfeits?.includes(i) ? ` (${t("tournament.away_at_end")})` : ""); // 0 points: a bot finished it
  const result = game.finished ? game.seats.map((name, i) => `${name} ${game.points[i]}${away(i)}`).join(", ") : game.seats.join(", ");
  return el(
    "li",
    { "data-testid": "game-item", "data-game": game.game, "data-finished": game.finished ? "true" : "false" },
    el("a", { href, "data-testid": "game-link" }, label),
    ": ",
    result,
    " — ",
    game.finished ? t("tournament.replay") : t("tournament.under_way"),
  );
}

function render() {
  const tour = state.tournament;
  const main = $("tournament");
  main.dataset.status = tour.status;
  document.title = t("tournament.page_title", { what: tournamentLine(tour) });
  $("t-heading").textContent = tournamentLine(tour);
  const ends = tour.ends ? ` – ${when(tour.ends)}` : "";
  const round = tour.kind !== "arena" && state.round ? ` · ${t(tour.kind === "ladder" ? "tournament.deal_of" : "tournament.round_of", { round: state.round, rounds: tour.rounds })}` : "";
  $("t-when").textContent = `${t(`tournaments.status_${tour.status}`)} · ${when(tour.starts)}${ends}${round} · ${tn("tournament.entrants", state.entrants)} · ${t("tournament.by", { name: tour.creator })}`;
  const reason = $("t-reason");
  reason.hidden = tour.status !== "cancelled";
  reason.textContent = tour.status === "cancelled" ? t("tournament.cancelled_because", { reason: tour.reason ?? "" }) : "";
  const swiss = tour.kind === "swiss";
  const ladder = tour.kind === "ladder";
  const columns = ladder
    ? ["#", t("leaderboard.col_player"), t("tournament.score"), t("tournament.interval"), t("tournament.deals"), t("leaderboard.col_games")]
    : ["#", t("leaderboard.col_player"), t("tournament.points"), t("leaderboard.col_games"), swiss ? t("tournament.opponents") : t("tournament.firsts")];
  fill($("standings-head"), ...columns.map((text, i) => el("th", { scope: "col", class: i === 1 ? null : "num" }, text)));
  fill($("standings"), ...(state.standings.length ? state.standings.map(standingRow) : [el("tr", { class: "empty" }, el("td", { colspan: columns.length }, t("tournament.nobody")))]));
  const note = $("ladder-note");
  note.hidden = !ladder;
  note.textContent = ladder ? t("tournament.ladder_note", { seconds: tour.turn_seconds }) : "";
  fill($("games"), ...(state.games.length ? [...state.games].reverse().map(gameItem) : [el("li", { class: "empty" }, t("tournament.no_games"))]));
  $("podium-card").hidden = !state.podium.length;
  fill($("podium"), ...state.podium.map((p) => el("li", { "data-testid": "podium-place", "data-place": p.place, "data-name": p.name }, el("span", { "aria-hidden": "true" }, ["🥇", "🥈", "🥉"][p.place - 1], " "), p.name, ` (${p.points ?? p.score})`)));
  const open = tour.status === "scheduled" || tour.status === "running";
  $("cancel-card").hidden = !open || !viewer || viewer.name !== tour.creator;
  $("csv").href = `/api/tournaments/${encodeURIComponent(id)}/results.csv`;
  $("json").href = `/api/tournaments/${encodeURIComponent(id)}/results.json`;
  renderMine(open);
  main.dataset.state = "ok";
}

function renderMine(open) {
  const entered = Boolean(mine?.entrant) && mine.active;
  // out of the pairing (away at a game's end, or left): one click brings the same entry back
  const out = open && Boolean(mine?.entrant) && !mine.active && state.tournament.kind !== "ladder";
  const box = $("come-back-box");
  box.hidden = !out;
  box.dataset.why = out ? (mine.away_in ? "away" : "left") : "";
  $("out-note").textContent = out ? t(mine.away_in ? "tournament.away_out" : "tournament.you_left") : "";
  // a ladder is joined by a bot account's program (its API token), not from this page
  $("join-form").hidden = !open || entered || out || (state.tournament.rated && !viewer) || state.tournament.kind === "ladder";
  $("join-name").hidden = $("join-name-label").hidden = Boolean(viewer);
  $("leave").hidden = !open || !entered;
  const yours = $("your-table");
  yours.hidden = !mine?.table;
  if (mine?.table) {
    sessionStorage.setItem(`ghostparty:tournament-of:${mine.table}`, id);
    fill(yours, el("a", { href: `/t/${encodeURIComponent(mine.table)}`, "data-testid": "your-table-link", "data-table": mine.table }, t("tournament.your_table")));
    saveToken(mine.table, mine.seat, mine.token);
    if (!visited.has(mine.table) && !left) {
      visited.add(mine.table);
      sessionStorage.setItem(`${ENTRY_KEY}:visited`, JSON.stringify([...visited]));
      sessionStorage.setItem(`ghostparty:tournament-of:${mine.table}`, id); // the table page links back
      location.href = `/t/${encodeURIComponent(mine.table)}`;
    }
  }
}

// The socket, a join and the timer each ask for "my table", and their answers may come
// back in any order: one asked earlier never replaces one asked later (a stale "away"
// would hide Leave again after "Come back"), and a failed ask replaces nothing.
let asked = 0;
let answered = 0;

async function askMine() {
  const ask = ++asked;
  let answer;
  if (!viewer && !entry()) {
    answer = null; // a guest who never entered: nothing to ask (the server would say "no entrant")
  } else {
    try {
      answer = await api.myTournamentTable(id, entry());
    } catch {
      return; // refused or offline for a moment: what was known stays (a blank would hide Leave)
    }
  }
  if (ask < answered) return;
  answered = ask;
  mine = answer;
}

async function changed(next) {
  state = next;
  await askMine();
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(id)}`);
  ws.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "tournament") changed(data);
    else if (data.type === "error") {
      $("t-error").textContent = accountError(data);
      $("tournament").dataset.state = "error";
    }
  });
  ws.addEventListener("close", (event) => {
    if (event.code !== 4404) setTimeout(connect, 2000);
  });
}

async function join(event) {
  event?.preventDefault();
  $("t-error").textContent = "";
  try {
    const name = viewer ? null : $("join-name").value.trim();
    if (name) saveName(name);
    const answer = await api.joinTournament(id, name, viewer ? null : entry()); // a guest's entry: the same one again
    if (answer.entry) localStorage.setItem(ENTRY_KEY, answer.entry);
    left = false;
    await askMine();
    render();
  } catch (error) {
    $("t-error").textContent = error?.code === "name_taken" ? t("tournament.name_taken") : accountError(error);
  }
}

async function leave() {
  try {
    await api.leaveTournament(id, entry());
    left = true;
  } catch (error) {
    $("t-error").textContent = accountError(error);
  }
}

async function cancel(event) {
  event.preventDefault();
  try {
    await api.cancelTournament(id, $("cancel-reason-input").value);
  } catch (error) {
    $("t-error").textContent = accountError(error);
  }
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(languageSwitch());
  viewer = await mountAccountNav();
  await account().catch(() => null);
  $("join-name").value = loadName() ?? "";
  $("join-form").addEventListener("submit", join);
  $("leave").addEventListener("click", leave);
  $("come-back").addEventListener("click", () => join());
  $("cancel-form").addEventListener("submit", cancel);
  connect();
  // paired while the socket says nothing of it (a quiet moment): ask now and then
  setInterval(async () => {
    if (state) {
      await askMine();
      render();
    }
  }, 5000);
}

main();

