// The lobby, /: create a table, sit down, and find tables to join, watch or replay.
//
// Hooks for tests (data-testid): rules-hugo / rules-midnight-party (radios), players,
// seat-kind-{n} (select: "human" or "bot:<level>"), first-player ("" = random),
// turn-seconds ("" = no limit), absent-bot, your-name, sit-at ("" = don't sit),
// create, create-error; open-tables, playing-tables and finished-tables (lists; each
// row open-table / playing-table / finished-table with data-table, and its link
// open-table-link / playing-table-link / finished-table-link; tag-rated on a rated
// table); upload-link; language; rated (checkbox, shown when logged in); the top bar's
// account links (js/lib/session.js); Play now (js/lobby/quickmatch.js); your games (js/lobby/turns.js);
// rematch-fill ("bot" or "empty": who takes the seat of one who doesn't play again);
// the Friends card (js/account/friends.js); the daily puzzle (js/lobby/daily-puzzle.js).

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill, submitWhenReady, toast } from "../lib/dom.js";
import { FriendsCard } from "../account/friends.js";
import { applyI18n, errorText, initI18n, languageSwitch, t, tn } from "../lib/i18n.js";
import { chip } from "../table/panels.js";
import { syncList } from "../lib/patch.js";
import { QuickMatch } from "../lobby/quickmatch.js";
import { rulesHelpButton } from "../lib/rules-help.js";
import { colourText, seatLabel, useBoard } from "../table/seats.js";
import { accountError, mountAccountNav } from "../lib/session.js";
import { loadName, saveName, saveToken } from "../lib/store.js";
import { MyGames } from "../lobby/turns.js";
import { showDailyPuzzle } from "../lobby/daily-puzzle.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

let bots = ["random", "greedy"];
let player = null; // the logged-in account, {name, created}, or null for a guest
const kinds = []; // per seat: "human" or "bot:<level>"
const quick = new QuickMatch();
let mine = null; // the "Your games" card (js/lobby/turns.js)
const friends = new FriendsCard(); // invitations and the players followed (js/account/friends.js)

function defaultBot() {
  return bots.includes("greedy") ? "greedy" : bots[0];
}

function renderSeatList() {
  const players = Number($("players").value);
  while (kinds.length < players) kinds.push(kinds.length === 0 ? "human" : `bot:${defaultBot()}`);
  kinds.length = players;
  const rows = kinds.map((kind, seat) => {
    const select = el(
      "select",
      { "data-testid": `seat-kind-${seat}`, "aria-label": t("lobby.seat_option", { colour: colourText(seat) }) },
      el("option", { value: "human" }, t("lobby.person")),
      ...bots.map((bot) => el("option", { value: `bot:${bot}` }, t("lobby.bot_option", { level: t(`bot.${bot}`) }))),
    );
    select.value = kind;
    select.addEventListener("change", () => {
      kinds[seat] = select.value;
      renderChoices();
    });
    return el("li", { class: "seat-row" }, chip(seat), el("span", { class: "seat-colour" }, colourText(seat)), select);
  });
  fill($("seat-list"), ...rows);
  renderChoices();
}

function renderChoices() {
  const first = $("first-player");
  const keepFirst = first.value;
  fill(first, el("option", { value: "" }, t("lobby.random_first")), ...kinds.map((_, seat) => el("option", { value: String(seat) }, colourText(seat))));
  first.value = [...first.options].some((o) => o.value === keepFirst) ? keepFirst : "";

  const sit = $("sit-at");
  const keepSit = sit.value;
  const humans = kinds.map((k, seat) => (k === "human" ? seat : null)).filter((s) => s !== null);
  fill(
    sit,
    ...humans.map((seat) => el("option", { value: String(seat) }, t("lobby.seat_option", { colour: colourText(seat) }))),
    el("option", { value: "" }, t("lobby.nowhere")),
  );
  sit.value = [...sit.options].some((o) => o.value === keepSit && keepSit !== "") ? keepSit : humans.length ? String(humans[0]) : "";
}

async function create(event) {
  event.preventDefault();
  const error = $("create-error");
  error.hidden = true;
  const name = $("your-name").value.trim();
  const sitAt = $("sit-at").value;
  if (sitAt !== "" && !name) {
    error.textContent = t("lobby.need_name");
    error.hidden = false;
    return;
  }
  const rules = document.querySelector("input[name=rules]:checked").value;
  const seats = kinds.map((kind) => (kind === "human" ? { kind: "human" } : { kind: "bot", bot: kind.slice(4) }));
  const firstValue = $("first-player").value;
  const seconds = $("turn-seconds").value;
  const body = {
    rules,
    seats,
    first_player: firstValue === "" ? null : Number(firstValue),
    turn_seconds: seconds === "" ? null : Number(seconds),
    absent_bot: $("absent-bot").value || defaultBot(),
    rematch_fill: $("rematch-fill").value === "empty" ? "empty" : "bot",
  };
  if (player && $("rated").checked) body.rated = true;
  const button = $("create-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const { table } = await api.create(body);
    if (sitAt !== "") {
      const joined = await api.join(table.id, Number(sitAt), name);
      saveToken(table.id, joined.seat, joined.token);
      if (!player) saveName(name);
    }
    location.href = `/t/${encodeURIComponent(table.id)}`;
  } catch (err) {
    error.textContent = accountError(err);
    error.hidden = false;
    button.disabled = false;
  }
}

const LINKS = {
  open: { href: (id) => `/t/${id}`, text: "lobby.join" },
  playing: { href: (id) => `/t/${id}`, text: "lobby.watch" },
  finished: { href: (id) => `/r/${id}`, text: "lobby.replay" },
};

function tableRow(table, kind) {
  const people = table.seats.map((s) => seatLabel(table, s.seat)).join(", ");
  const free = table.seats.filter((s) => s.kind === "human" && !s.name).length;
  const title = t("lobby.table_title", { rules: t(`rules.${table.rules}`), n: table.players });
  const extra =
    kind === "open"
      ? tn("lobby.free", free)
      : kind === "finished" && table.winners?.length
        ? ` · ${t("lobby.winners", { who: table.winners.map((s) => seatLabel(table, s)).join(t("panel.and")) })}`
        : "";
  const rated = table.rated ? el("span", { class: "tag tag-rated", "data-testid": "tag-rated" }, t("account.rated")) : null;
  const info = el("div", { class: "table-info" }, el("strong", {}, title), " ", rated, el("span", { class: "hint" }, extra), el("div", { class: "table-people" }, people));
  const id = encodeURIComponent(table.id);
  // Its name says which game: "Join: Hugo, 2 players · 1 free seat (Red · Ann, Blue · (empty)), table x".
  const game = `${title}${table.rated ? ` · ${t("account.rated")}` : ""}${extra}`;
  const label = t("lobby.link_name", { action: t(LINKS[kind].text), game, people, table: t("table.name", { id: table.id }) });
  const link = el("a", { class: "button", href: LINKS[kind].href(id), "data-testid": `${kind}-table-link`, "aria-label": label }, t(LINKS[kind].text));
  return el("li", { "data-testid": `${kind}-table`, "data-table": table.id, "data-key": table.id }, info, link);
}

/** A list's rows patched in place (js/lib/patch.js): a refresh keeps the keyboard's focus. */
function renderList(node, tables, kind, emptyKey) {
  syncList(node, tables.length ? tables.map((table) => tableRow(table, kind)) : [el("li", { class: "empty", "data-key": "" }, t(emptyKey))]);
}

async function refresh() {
  if (document.hidden) return;
  try {
    const lists = await api.tables();
    renderList($("open-tables"), lists.open ?? [], "open", "lobby.no_open");
    renderList($("playing-tables"), lists.playing ?? [], "playing", "lobby.no_playing");
    renderList($("finished-tables"), lists.finished ?? [], "finished", "lobby.no_finished");
    $("lists-note").textContent = t("lobby.updated", { time: new Date().toLocaleTimeString(document.documentElement.lang) });
  } catch (err) {
    $("lists-note").textContent = t("lobby.cannot_load", { message: errorText(err) });
  }
}

/** Logged in: the seat is taken as the account (its name, read-only) and a table may be rated. */
function useAccount(account) {
  player = account;
  $("rated-field").hidden = !player;
  const name = $("your-name");
  name.readOnly = Boolean(player);
  if (player) name.value = player.name;
  name.dataset.account = player ? "true" : "false";
  quick.usePlayer(player);
  mine.usePlayer(player);
  friends.usePlayer(player);
}

function renderAbsentBot() {
  const select = $("absent-bot");
  fill(select, ...bots.map((bot) => el("option", { value: bot }, t(`bot.${bot}`))));
  select.value = defaultBot();
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  $("lang-slot").replaceWith(rulesHelpButton(() => document.querySelector("input[name=rules]:checked")?.value ?? "hugo"), languageSwitch());
  const players = $("players");
  for (let n = 2; n <= 8; n++) players.append(el("option", { value: String(n) }, String(n)));
  players.value = "2";
  players.addEventListener("change", renderSeatList);
  // What was typed while the page was starting is kept (the saved name only fills an empty field).
  if (!$("your-name").value) $("your-name").value = loadName();
  quick.mount();
  mine = new MyGames(document.title);
  mine.mount();
  friends.mount();
  showDailyPuzzle();
  mountAccountNav().then(useAccount);
  await api.board("hugo").then(useBoard, () => {}); // the seats' colours: names and palette
  try {
    const answer = await api.bots();
    if (Array.isArray(answer.bots) && answer.bots.length) bots = answer.bots;
  } catch (err) {
    toast(t("lobby.cannot_load_bots", { message: errorText(err) }));
  }
  renderAbsentBot();
  renderSeatList();
  refresh();
  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", refresh);
}

// "Create table" pressed while the page is still starting makes the table once it is ready.
submitWhenReady($("create-form"), main(), create);
