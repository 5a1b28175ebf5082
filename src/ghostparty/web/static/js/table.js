// The game page, /t/{id}: one WebSocket, the board, the controls and the panels.
//
// Stable hooks for tests (data-testid unless said otherwise):
//   table        <main>; data-status = open | playing | over, data-busy = "true" while
//                an update is being animated or an action is on its way
//   status       the status line (whose turn, what to do)
//   connection   the "reconnecting…" indicator (hidden while connected)
//   speed        animation speed select: normal | fast | off (kept in localStorage)
//   share-link   the table's link (input), copy-link its copy button
//   seat         one per seat (data-seat, data-to-move, data-away), score (data-seat) inside
//   name-{n}, join-{n}, leave-{n}   an open table's seat controls; start: the start button;
//                invite-friend: invite a followed player (js/invite.js)
//   board        the SVG (data-rules; data-layout = landscape, or portrait on a phone held
//                upright: drawn anew when that changes); square: a gallery square, data-square="G12";
//                room: data-location="R:chapel" (data-shield, data-door);
//                step: data-location="C10" (data-value); hugo-start: data-location="START"
//   guest        a guest token: data-seat, data-loc and data-guest="{seat}:{location}"
//   hugo         Hugo (data-loc); die: the die (data-face = 1 2 4 5 hugo, "" before a roll);
//                clock (data-time) in hugo, round (data-round) in midnight-party
//   data-legal="true" marks every clickable target now (data-legal-kind = place,
//                source or dest): free squares to place on, own guests that may move,
//                then the chosen guest's destinations
//   roll, pass   the buttons (present only when legal); moves: the list of legal moves,
//                each a button move with data-from / data-to; place-select + place-button:
//                placement without the board
//   log          the game log (<ol>), log-entry per action (data-index)
//   result       the result panel (hidden until the end); result-winners (data-winners),
//                result-row per seat (data-seat, data-score)
//   dock         status, turn-timer and controls: in the side column, or fixed to the
//                bottom of the window on a narrow screen
//   toast        a short error message; banner: round / game banners over the board
//   replay-link, download   on the result panel: the replay page and the game record
//   odds         Hugo's reach for the seat to move (shown to whoever holds it): odds-guest
//                per guest (data-location, data-chance), odds-label over the board
//   turn-timer   the countdown of a timed table (data-seconds, data-part = own | bank,
//                data-warning; js/timer.js), turn-warning its live region; rules-help-button opens
//                rules-help; language: the language switch (js/i18n.js)
//   chat         the table's chat (js/chat.js); again, series: play again and the series
//                on the result panel (js/again.js); table-name has data-series-index;
//                notify-button asks for notifications (turn-based tables, js/turns.js)

import { playAgain, renderAgain, renderSeries, takeSeatsAgain } from "./again.js";
import { api, tableUrl, TableSocket } from "./api.js";
import { play, Scene } from "./animate.js";
import { openBoard, watchPortrait } from "./board.js";
import { ChatPanel } from "./chat.js";
import { InviteBox } from "./invite.js";
import { followTurn, listenForKeys, rollButton } from "./keys.js";
import { banner, el, fill, toast } from "./dom.js";
import { applyI18n, errorText, initI18n, languageSwitch, t, tn } from "./i18n.js";
import { effectNotes, place } from "./narrate.js";
import { renderOdds } from "./odds.js";
import { showRatingChanges } from "./rating-change.js";
import { appendLog, renderLog, renderOpenSeats, renderResult, renderSeats, renderSheet } from "./panels.js";
import { rulesHelpButton } from "./rules-help.js";
import { actorName, seatLabel } from "./seats.js";
import { mountAccountNav } from "./session.js";
import { dropToken, loadName, loadSpeed, loadTokens, saveName, saveSpeed, saveToken } from "./store.js";
import { TurnTimer } from "./timer.js";
import { notifyButton, notifyYourMove } from "./turns.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/")[2] || new URLSearchParams(location.search).get("id") || "");

const S = {
  table: null,
  position: null,
  legal: [],
  held: new Set(),
  log: [],
  board: null,
  boardRules: null,
  scene: new Scene(),
  selected: null,
  pending: false,
  queue: [],
  running: false,
  animating: false,
  generation: 0,
  seen: -1,
  scores: null,
  speed: loadSpeed(),
  connected: false,
  odds: [],
  effects: [], // what each legal action would do (docs/PROTOCOL.md), in legal's order
  boardData: null, // GET /api/boards/{rules}
  hint: null, // the destination hovered or focused on the board
};

const ownMove = (table) => S.held.has(table.to_move) && !table.seats[table.to_move]?.away;
const timer = new TurnTimer(document.getElementById("turn-timer"), (table) => seatLabel(table, table.to_move), ownMove);

const socket = new TableSocket(tableId, () => loadTokens(tableId), {
  state: onState,
  update: onUpdate,
  error: onError,
  chat: (msg) => chat?.add(msg.line),
  chat_log: (msg) => chat?.load(msg.lines),
  chat_removed: (msg) => chat?.remove(msg.id),
  pong: () => {},
  connection: (up) => {
    S.connected = up;
    $("connection").hidden = up;
  },
});

// ---------------------------------------------------------------- messages

async function onState(msg) {
  syncDelay = 0;
  S.generation += 1;
  S.queue = [];
  S.pending = false;
  await ensureBoard(msg.table.rules);
  S.table = msg.table;
  S.position = msg.position;
  S.legal = msg.legal ?? [];
  S.effects = msg.effects ?? [];
  S.held = new Set((msg.seats ?? []).map(Number));
  S.log = msg.log ?? [];
  S.odds = msg.odds ?? [];
  forgetRefusedTokens();
  S.seen = msg.table.version;
  S.scores = null;
  S.selected = null;
  S.scene.reconcile(S.position);
  const lastRoll = [...S.log].reverse().find((entry) => entry.action && "roll" in entry.action);
  S.board.showDie(S.position?.phase === "move" ? S.position.roll : (lastRoll?.action.roll ?? null));
  renderLog($("log"), S.log, S.table);
  chat?.setSeats(S.held, S.table.status, S.table);
  renderAll();
}

function onUpdate(msg) {
  const version = msg.table.version;
  // Older than what we show, or an action we already have; a presence change (someone
  // came or went) keeps the version and carries no entry.
  if (version < S.seen || (version === S.seen && msg.entry)) return;
  if (S.seen >= 0 && version > S.seen + 1) socket.sync();
  S.seen = version;
  S.queue.push(msg);
  pump();
}

// After an error the page asks for the state again, but not in a loop: while the server
// can't answer (its store is unavailable, say), the asks back off from 0.1 s to 2 s.
let syncDelay = 0;
let syncTimer = null;

function onError(msg) {
  if (chat?.handleError(msg)) return; // a chat line's answer (rate limit …): told in the chat
  S.pending = false;
  toast(errorText(msg));
  if (syncTimer === null) {
    syncTimer = setTimeout(() => {
      syncTimer = null;
      socket.sync();
    }, syncDelay);
    syncDelay = Math.min(2000, Math.max(100, syncDelay * 2));
  }
  renderAll();
}

/** Tokens for seats that nobody holds (left, or a bot's) are forgotten. */
function forgetRefusedTokens() {
  for (const seat of Object.keys(loadTokens(tableId))) {
    const info = S.table.seats[Number(seat)];
    if (!S.held.has(Number(seat)) && (!info || info.kind === "bot" || !info.name)) dropToken(tableId, seat);
  }
}

async function pump() {
  if (S.running) return;
  S.running = true;
  try {
    while (S.queue.length) {
      const msg = S.queue.shift();
      await applyUpdate(msg, S.generation);
    }
  } finally {
    S.running = false;
    renderAll();
  }
}

async function applyUpdate(msg, generation) {
  await ensureBoard(msg.table.rules);
  if (generation !== S.generation) return;
  if (msg.entry) {
    appendLog($("log"), msg.entry, msg.table);
    await animate(msg.entry, generation);
    if (generation !== S.generation) return;
  }
  S.table = msg.table;
  S.position = msg.position;
  S.legal = msg.legal ?? [];
  S.effects = msg.effects ?? [];
  S.odds = msg.odds ?? [];
  S.scores = null;
  S.pending = false;
  S.scene.reconcile(S.position);
  if (S.position?.phase === "move") S.board.showDie(S.position.roll);
  renderAll();
}

/** Play an action's events on the board; quicker when updates pile up. */
async function animate(entry, generation) {
  S.legal = [];
  S.selected = null;
  S.animating = true;
  setBusy(true);
  renderTargets();
  renderControls();
  renderOdds($("odds"), S.board, [], false);
  const catchingUp = S.queue.length > 3;
  try {
    await play(entry.events ?? [], S.scene, {
      board: S.board,
      speed: () => (catchingUp || document.hidden ? "off" : S.speed),
      isCurrent: () => generation === S.generation,
      score: (seat, value) => {
        S.scores = [...(S.scores ?? S.position?.scores ?? [])];
        S.scores[seat] = value;
        renderSidePanels();
      },
      clock: (time) => S.board.setCentre({ ...S.position, clock: time }, S.table.players),
      banner,
    });
  } finally {
    S.animating = false;
  }
}

// ---------------------------------------------------------------- board

/** A phone held upright gets the tall board; turning it lays the board out again. */
let portrait = watchPortrait((on) => {
  portrait = on;
  if (S.board?.setPortrait(on)) renderOdds($("odds"), S.board, S.odds, showOdds());
});

async function ensureBoard(rules) {
  if (S.boardRules === rules) return;
  S.boardRules = rules;
  const who = (seat) => actorName(S.table, seat);
  const onHint = (loc) => {
    S.hint = loc;
    renderHint();
  };
  ({ data: S.boardData, view: S.board } = await openBoard($("board-wrap"), rules, onPick, { portrait, who, onHint }));
}

/** Where Hugo comes onto the gallery first: the squares he reaches soonest are riskiest. */
function safetyOrder(squares) {
  const n = S.boardData?.squares ?? 40;
  const entry = Number(String(S.boardData?.arrow ?? "G0").slice(1));
  const ahead = (loc) => (Number(loc.slice(1)) - entry + n) % n; // how soon Hugo gets there
  return [...squares].sort((a, b) => ahead(b) - ahead(a));
}

/** The legal placements, safest first (the default for the keyboard and the list). */
function placements() {
  return safetyOrder(S.legal.filter((a) => "place" in a).map((a) => a.place));
}

/** What moving from `from` to `to` would do, in words ("" for nothing notable). */
function effectText(from, to) {
  const i = S.legal.findIndex((a) => a.from === from && a.to === to);
  return effectNotes(S.effects[i] ?? [], (seat) => actorName(S.table, seat)).join(", ");
}

function sources() {
  return new Set(S.legal.filter((a) => "from" in a).map((a) => a.from));
}

function destinations(source) {
  return new Set(S.legal.filter((a) => a.from === source).map((a) => a.to));
}

function interactive() {
  return !S.pending && !S.animating && S.queue.length === 0 && S.legal.length > 0;
}

function onPick(loc) {
  if (!interactive()) return;
  const phase = S.position?.phase;
  if (phase === "place") {
    if (S.legal.some((a) => a.place === loc)) act({ place: loc });
    return;
  }
  if (phase !== "move") return;
  if (S.selected && destinations(S.selected).has(loc)) {
    act({ from: S.selected, to: loc });
    return;
  }
  if (sources().has(loc)) {
    S.selected = S.selected === loc && sources().size > 1 ? null : loc;
    renderTargets();
    renderControls();
  }
}

function renderTargets() {
  if (!S.board) return;
  if (!interactive()) {
    S.board.setTargets();
    return;
  }
  const phase = S.position?.phase;
  if (phase === "place") {
    S.board.setTargets({ places: new Set(placements()) });
    return;
  }
  if (phase === "move") {
    const from = sources();
    if (from.size === 1) S.selected = [...from][0];
    if (S.selected && !from.has(S.selected)) S.selected = null;
    const dests = S.selected ? destinations(S.selected) : new Set();
    const notes = new Map([...dests].map((to) => [to, effectText(S.selected, to)]).filter(([, text]) => text));
    S.board.setTargets({ sources: from, dests, selected: S.selected, notes });
    return;
  }
  S.board.setTargets();
}

// ---------------------------------------------------------------- actions

function act(action) {
  if (!interactive()) return;
  const seat = S.table.to_move;
  if (!socket.act(seat, S.table.version, action)) {
    toast(t("table.not_connected"));
    return;
  }
  S.pending = true;
  S.acted = true;
  S.selected = null;
  renderTargets();
  renderControls();
  setBusy();
}

async function join(seat, name) {
  if (!name) {
    toast(t("table.enter_name"));
    return;
  }
  try {
    const answer = await api.join(tableId, seat, name);
    saveToken(tableId, answer.seat, answer.token);
    saveName(name);
    socket.hello();
  } catch (error) {
    toast(errorText(error));
  }
}

async function leave(seat) {
  const token = loadTokens(tableId)[String(seat)];
  try {
    await api.leave(tableId, seat, token);
  } catch (error) {
    toast(errorText(error));
  }
  dropToken(tableId, seat);
  socket.hello();
}

async function start() {
  const tokens = loadTokens(tableId);
  const seat = [...S.held][0];
  if (seat === undefined) return;
  try {
    await api.start(tableId, seat, tokens[String(seat)]);
  } catch (error) {
    toast(errorText(error));
    socket.sync();
  }
}

// ---------------------------------------------------------------- rendering

function setBusy(force) {
  const busy = force ?? (S.animating || S.queue.length > 0 || S.pending);
  $("table").dataset.busy = busy ? "true" : "false";
}

function renderAll() {
  if (!S.table) return;
  const root = $("table");
  root.dataset.status = S.table.status;
  root.dataset.phase = S.position?.phase ?? "";
  setBusy();
  if (S.board) {
    S.board.setGuests(S.scene.guests);
    S.board.setHugo(S.scene.hugo);
    S.board.setCentre(S.position, S.table.players);
    S.board.root.classList.toggle("waiting", S.table.status === "open");
  }
  renderTargets();
  renderControls();
  renderSidePanels();
  const mine = S.legal.length > 0;
  if (mine && !S.wasMine && S.table.turn_based && document.hidden) notifyYourMove(tableId, t("table.name", { id: tableId }));
  S.wasMine = mine;
  $("notify-button").classList.toggle("for-table", Boolean(S.table.turn_based));
  const index = S.table.series_index ?? 1;
  $("table-name").dataset.seriesIndex = String(index);
  $("table-name").textContent = index > 1 ? `${t("table.name", { id: tableId })} · ${t("again.game", { n: index })}` : t("table.name", { id: tableId });
  timer.title(`${mine ? t("table.your_turn_title") : ""}${t("table.page_title", { id: tableId })}`); // with the timer's warning
}

function renderSidePanels() {
  const { table, position } = S;
  const open = table.status === "open";
  $("open-panel").hidden = !open;
  $("seats").hidden = open;
  if (open) {
    renderOpenSeats($("open-seats"), { table, held: S.held }, { join, leave }, S.account?.name ?? loadName(), { account: S.account ?? null, redraw: renderSidePanels });
    const ready = table.seats.every((s) => s.kind === "bot" || s.name);
    const button = $("start");
    button.disabled = !ready || S.held.size === 0;
    button.title = S.held.size === 0 ? t("table.start_join") : ready ? "" : t("table.start_all");
  }
  invite?.update(table, S.account);
  if (!open) {
    renderSeats($("seats"), { table, position, held: S.held, scores: S.scores, board: S.boardData, redraw: renderSidePanels });
  }
  renderSheet($("sheet"), { table, position, board: S.boardData });
  const wasOver = !$("result").hidden;
  renderResult($("result"), { table, position });
  renderPlayAgain();
  if (!wasOver && !$("result").hidden) showResult();
  renderOdds($("odds"), S.board, S.odds, showOdds());
  timer.update(table);
  $("status").textContent = statusText();
}

/** Play again and the series, on the result panel of a finished game; once the next
 * table is made, the pages whose people play again take their seats there. */
function renderPlayAgain() {
  const { table } = S;
  if ($("result").hidden) return;
  showRatingChanges($("result"), table); // a rated game: each player's change (js/rating-change.js)
  if (table.rematch && !S.leaving && takeSeatsAgain(table, S.held)) {
    S.leaving = true;
    location.href = `/t/${encodeURIComponent(table.rematch)}`;
  }
  const again = el("div", { class: "again", "data-testid": "again" });
  renderAgain(again, { table, held: S.held }, (now) => playAgain(S.table, S.held, now));
  const series = el("div", { class: "series", "data-testid": "series", hidden: true });
  renderSeries(series, { table, series: S.series });
  $("result").append(again, series);
  const tournament = sessionStorage.getItem(`ghostparty:tournament-of:${tableId}`); // came from a tournament's page
  if (tournament) $("result").append(el("p", {}, el("a", { class: "button primary", href: `/tournaments/${encodeURIComponent(tournament)}`, "data-testid": "back-to-tournament" }, t("tournament.back"))));
  if (S.seriesOf !== table.id) {
    S.seriesOf = table.id;
    api.series(tableId).then(
      (answer) => {
        S.series = answer;
        renderSeries(series, { table: S.table, series: answer });
      },
      () => {},
    );
  }
}

/** The odds are for the seat to move: shown to whoever holds it, when settled. */
function showOdds() {
  return S.table?.status === "playing" && S.held.has(S.table.to_move) && !S.animating && S.queue.length === 0;
}

function describeMove(action) {
  return t("table.move", { from: place(action.from), to: place(action.to) });
}

/** A seat this page holds that a bot plays for (its person was away), if any. */
function awaySeat() {
  return [...S.held].find((seat) => S.table?.status === "playing" && S.table.seats[seat]?.away);
}

function renderControls() {
  const box = $("controls");
  const enabled = interactive();
  const legal = S.legal;
  const parts = [];
  const away = awaySeat();
  if (away !== undefined) {
    // Back from an absent seat: saying hello again takes it back (from the next turn if
    // the bot is halfway through this one).
    const back = S.table.seats[away].back;
    parts.push(
      el("p", { class: "hint", "data-testid": "away-note" }, t(back ? "table.back_next_turn" : "table.away_note", { who: seatLabel(S.table, away) })),
    );
    if (!back) parts.push(el("button", { type: "button", class: "big", "data-testid": "im-back", onclick: () => socket.hello() }, t("table.im_back")));
  }
  if (legal.some((a) => a.roll === true)) {
    parts.push(rollButton(enabled, () => act({ roll: true })));
  }
  const moves = legal.filter((a) => "from" in a);
  if (moves.length) {
    const shown = S.selected ? moves.filter((a) => a.from === S.selected) : moves;
    const list = el("div", { class: "moves", "data-testid": "moves", role: "group", "aria-label": t("table.moves") });
    for (const move of shown) {
      const effect = effectText(move.from, move.to);
      list.append(
        el(
          "button",
          { type: "button", class: "move", "data-testid": "move", "data-from": move.from, "data-to": move.to, disabled: !enabled, onclick: () => act(move) },
          describeMove(move),
          effect ? el("span", { class: "effect", "data-testid": "move-effect" }, ` · ${effect}`) : null,
        ),
      );
    }
    if (S.selected && shown.length < moves.length) {
      list.append(
        el("button", { type: "button", class: "move other", disabled: !enabled, onclick: () => { S.selected = null; renderTargets(); renderControls(); } }, t("table.another")),
      );
    }
    parts.push(list, el("p", { class: "move-hint", id: "move-hint", "data-testid": "move-hint", hidden: true }));
  }
  if (legal.some((a) => a.pass === true)) {
    parts.push(el("button", { type: "button", "data-testid": "pass", disabled: !enabled, onclick: () => act({ pass: true }) }, t("table.pass")));
  }
  const places = placements();
  if (places.length) {
    const entry = S.boardData?.arrow;
    const options = places.map((p) => el("option", { value: p }, p === entry ? t("table.place_entry", { square: p }) : p));
    const select = el("select", { "data-testid": "place-select", "aria-label": t("table.place_select"), disabled: !enabled }, ...options);
    parts.push(
      el(
        "div",
        { class: "place-row" },
        el("span", { class: "hint" }, t("table.place_hint")),
        select,
        el("button", { type: "button", "data-testid": "place-button", disabled: !enabled, onclick: () => act({ place: select.value }) }, t("table.place")),
      ),
    );
  }
  fill(box, ...parts);
  box.hidden = parts.length === 0;
  renderHint();
  followTurn(S.board, { mine: interactive(), acted: S.acted }); // js/keys.js
}

/** What moving to the hovered or focused destination would do, under the moves. */
function renderHint() {
  const node = $("move-hint");
  if (!node) return;
  const to = S.hint;
  const text = to && S.selected ? effectText(S.selected, to) : "";
  node.hidden = !to || !S.selected;
  node.textContent = node.hidden ? "" : `${describeMove({ from: S.selected, to })}: ${text || t("board.no_effect")}`;
}

/** The end of the game: the result panel scrolled into view (on a phone it is below the board). */
function showResult() {
  const result = $("result");
  const box = result.getBoundingClientRect();
  const dock = $("dock").getBoundingClientRect();
  const bottom = getComputedStyle($("dock")).position === "fixed" ? dock.top : innerHeight;
  if (box.top < 0 || box.bottom > bottom) result.scrollIntoView({ block: "start", behavior: "auto" });
}

function statusText() {
  const { table, position } = S;
  if (!table) return t("table.connecting");
  if (table.status === "open") {
    const free = table.seats.filter((s) => s.kind === "human" && !s.name).length;
    if (free) return tn("status.waiting", free);
    return S.held.size ? t("status.ready_start") : t("status.ready_wait");
  }
  if (table.status === "over" || position?.phase === "over") {
    const winners = (table.winners ?? []).map((s) => seatLabel(table, s));
    if (!winners.length) return t("status.over_one", { who: t("status.nobody") });
    return winners.length > 1 ? t("status.over_shared", { who: winners.join(t("panel.and")) }) : t("status.over_one", { who: winners[0] });
  }
  const seat = table.to_move;
  const who = seatLabel(table, seat);
  if (!S.legal.length) {
    if (S.pending || S.animating) return t("status.to_play", { who });
    if (table.seats[seat]?.away) return t("status.bot_for", { who });
    return table.seats[seat]?.kind === "bot" ? t("status.thinking", { who }) : t("status.waiting_for", { who });
  }
  const you = S.held.size > 1 ? t("status.seat_you", { who }) : t("status.you");
  if (position.phase === "place") {
    const left = position.place_queue.filter((s) => s === seat).length;
    return t("status.place", { you, n: left });
  }
  if (position.phase === "roll") return t("status.roll", { you });
  if (position.phase === "move") {
    const pass = S.legal.some((a) => a.pass) ? t("status.or_pass") : "";
    return t(S.selected ? "status.move_where" : "status.move_pick", { you, roll: position.roll, pass });
  }
  return "";
}

// ---------------------------------------------------------------- page

function setupChrome() {
  applyI18n();
  $("lang-slot").replaceWith(rulesHelpButton(() => S.table?.rules ?? "hugo"), languageSwitch());
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
  speed.value = S.speed;
  speed.addEventListener("change", () => {
    S.speed = speed.value;
    saveSpeed(S.speed);
  });
  $("table-name").textContent = t("table.name", { id: tableId });
  timer.title(t("table.page_title", { id: tableId }));
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

let chat = null;
let invite = null; // an open table's "Invite a friend" (js/invite.js)

async function main() {
  await initI18n();
  setupChrome();
  chat = new ChatPanel($("chat"), { send: (message) => socket.send(message), name: () => S.account?.name ?? (loadName() || null), tableId });
  notifyButton($("notify-button"));
  invite = new InviteBox($("invite-friend"), tableId);
  listenForKeys();
  mountAccountNav().then((player) => {
    S.account = player;
    chat.setAccount(player);
    if (S.table?.status === "open") renderSidePanels(); // the open seats: sit as oneself, or log in; invite
  });
  watchDock();
  if (!tableId) {
    $("status").textContent = t("table.no_table");
    return;
  }
  try {
    const answer = await api.table(tableId);
    await ensureBoard(answer.table.rules);
  } catch (error) {
    $("status").textContent = errorText(error);
    $("table").dataset.status = "missing";
    return;
  }
  socket.open();
}

main();
