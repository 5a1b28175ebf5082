// The game page, /t/{id}: one WebSocket, the board, the controls and the panels.
// Only wiring: the page's state is js/table/state.js's (reduce() changes it, on each message
// from the socket and each click), the views (js/table/views/*.js, panels.js, board.js) draw it.
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
//                invite-friend: invite a followed player (js/table/invite.js)
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
//                data-warning; js/table/timer.js), turn-warning its live region; rules-help-button opens
//                rules-help; language: the language switch (js/lib/i18n.js)
//   chat         the table's chat (js/chat/chat.js); again, series: play again and the series
//                on the result panel (js/table/again.js), for a tournament's game tournament-end
//                in their place (js/tournament/tournament-end.js); table-name has data-series-index;
//                notify-button asks for notifications (turn-based tables, js/lobby/turns.js)

import { startAppShell } from "../lib/app-shell.js";
import { playAgain, renderAgain, renderSeries, takeSeatsAgain } from "../table/again.js";
import { api, TableSocket } from "../lib/api.js";
import { play, Scene } from "../table/animate.js";
import { openBoard, watchPortrait } from "../table/board.js";
import { ChatPanel } from "../chat/chat.js";
import { InviteBox } from "../table/invite.js";
import { listenForKeys } from "../table/keys.js";
import { banner, el, toast } from "../lib/dom.js";
import { errorText, initI18n, t } from "../lib/i18n.js";
import { renderOdds } from "../table/odds.js";
import { showRatingChanges } from "../table/rating-change.js";
import { appendLog, renderLog } from "../table/panels.js";
import { actorName, seatLabel } from "../table/seats.js";
import { mountAccountNav } from "../lib/session.js";
import { busy, initialState, interactive, pick, reduce, showsOdds, skipsVersions } from "../table/state.js";
import { dropToken, loadName, loadSpeed, loadTokens, saveName, saveToken } from "../lib/store.js";
import { setupChrome, showResult } from "../table/table-chrome.js";
import { tournamentEnd } from "../tournament/tournament-end.js";
import { TurnTimer } from "../table/timer.js";
import { notifyButton, notifyYourMove } from "../lobby/turns.js";
import { renderControls, renderHint, renderTargets } from "../table/views/controls.js";
import { renderSide } from "../table/views/side.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/")[2] || new URLSearchParams(location.search).get("id") || "");

// The state (js/table/state.js: only reduce() changes it) and what is not state but the page's
// things: the board and the tokens on it, the animation speed, the chat.
let S = initialState();
const page = {
  board: null,
  boardData: null, // GET /api/boards/{rules}
  boardRules: null,
  scene: new Scene(),
  speed: loadSpeed(),
  running: false, // the queue is being animated
  wasMine: false,
  leaving: false,
  seriesOf: null,
};

function dispatch(message) {
  S = reduce(S, message);
  return S;
}

const ownMove = (table) => S.held.includes(table.to_move) && !table.seats[table.to_move]?.away;
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
    dispatch({ type: "connection", up });
    $("connection").hidden = up;
  },
});

// ---------------------------------------------------------------- messages

async function onState(msg) {
  syncDelay = 0;
  await ensureBoard(msg.table.rules);
  dispatch(msg);
  forgetRefusedTokens();
  page.scene.reconcile(S.position);
  page.board.showDie(S.die);
  renderLog($("log"), S.log, S.table);
  chat?.setSeats(new Set(S.held), S.table.status, S.table);
  renderAll();
}

function onUpdate(msg) {
  if (skipsVersions(S, msg)) socket.sync();
  dispatch({ type: "received", message: msg });
  pump();
}

// After an error the page asks for the state again, but not in a loop: while the server
// can't answer (its store is unavailable, say), the asks back off from 0.1 s to 2 s.
let syncDelay = 0;
let syncTimer = null;

function onError(msg) {
  if (chat?.handleError(msg)) return; // a chat line's answer (rate limit …): told in the chat
  dispatch(msg);
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
    if (!S.held.includes(Number(seat)) && (!info || info.kind === "bot" || !info.name)) dropToken(tableId, seat);
  }
}

/** Animate the queued updates one by one, then show each (a full state drops the rest). */
async function pump() {
  if (page.running) return;
  page.running = true;
  try {
    while (S.queue.length) {
      const msg = S.queue[0];
      const generation = S.generation;
      await ensureBoard(msg.table.rules);
      if (generation !== S.generation) continue;
      if (msg.entry) {
        appendLog($("log"), msg.entry, msg.table);
        await animate(msg.entry, generation);
        if (generation !== S.generation) continue;
      }
      dispatch({ type: "applied" });
      page.scene.reconcile(S.position);
      if (S.position?.phase === "move") page.board.showDie(S.position.roll);
      renderAll();
    }
  } finally {
    page.running = false;
    renderAll();
  }
}

/** Play an action's events on the board; quicker when updates pile up. */
async function animate(entry, generation) {
  dispatch({ type: "animating", on: true });
  setBusy();
  renderTargets(page.board, S, page.boardData);
  renderControls_();
  renderOdds($("odds"), page.board, [], false);
  const catchingUp = S.queue.length > 4; // this one and more than three behind it
  try {
    await play(entry.events ?? [], page.scene, {
      board: page.board,
      speed: () => (catchingUp || document.hidden ? "off" : page.speed),
      isCurrent: () => generation === S.generation,
      score: (seat, value) => {
        dispatch({ type: "score", seat, value });
        renderSidePanels();
      },
      clock: (time) => page.board.setCentre({ ...S.position, clock: time }, S.table.players),
      banner,
    });
  } finally {
    dispatch({ type: "animating", on: false });
  }
}

// ---------------------------------------------------------------- board

/** A phone held upright gets the tall board; turning it lays the board out again. */
let portrait = watchPortrait((on) => {
  portrait = on;
  if (page.board?.setPortrait(on)) renderOdds($("odds"), page.board, S.odds, showsOdds(S));
});

async function ensureBoard(rules) {
  if (page.boardRules === rules) return;
  page.boardRules = rules;
  const who = (seat) => actorName(S.table, seat);
  const onHint = (location) => {
    dispatch({ type: "hint", location });
    renderHint($("move-hint"), S);
  };
  ({ data: page.boardData, view: page.board } = await openBoard($("board-wrap"), rules, onPick, { portrait, who, onHint }));
}

function onPick(location) {
  const what = pick(S, location);
  if (what?.act) act(what.act);
  else if (what) select(what.select);
}

function select(location) {
  dispatch({ type: "select", location });
  renderTargets(page.board, S, page.boardData);
  renderControls_();
}

// ---------------------------------------------------------------- actions

function act(action) {
  if (!interactive(S)) return;
  if (!socket.act(S.table.to_move, S.table.version, action)) {
    toast(t("table.not_connected"));
    return;
  }
  dispatch({ type: "acted" });
  renderTargets(page.board, S, page.boardData);
  renderControls_();
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
  const seat = S.held[0];
  if (seat === undefined) return;
  try {
    await api.start(tableId, seat, loadTokens(tableId)[String(seat)]);
  } catch (error) {
    toast(errorText(error));
    socket.sync();
  }
}

// ---------------------------------------------------------------- rendering

function setBusy() {
  $("table").dataset.busy = busy(S) ? "true" : "false";
}

function renderControls_() {
  renderControls($("controls"), S, { boardData: page.boardData, boardView: page.board, on: { act, select, hello: () => socket.hello() } });
}

function renderAll() {
  if (!S.table) return;
  const root = $("table");
  root.dataset.status = S.table.status;
  root.dataset.phase = S.position?.phase ?? "";
  setBusy();
  if (page.board) {
    page.board.setGuests(page.scene.guests);
    page.board.setHugo(page.scene.hugo);
    page.board.setCentre(S.position, S.table.players);
    page.board.root.classList.toggle("waiting", S.table.status === "open");
  }
  renderTargets(page.board, S, page.boardData);
  renderControls_();
  renderSidePanels();
  const mine = S.legal.length > 0;
  if (mine && !page.wasMine && S.table.turn_based && document.hidden) notifyYourMove(tableId, t("table.name", { id: tableId }));
  page.wasMine = mine;
  $("notify-button").classList.toggle("for-table", Boolean(S.table.turn_based));
  const index = S.table.series_index ?? 1;
  $("table-name").dataset.seriesIndex = String(index);
  $("table-name").textContent = index > 1 ? `${t("table.name", { id: tableId })} · ${t("again.game", { n: index })}` : t("table.name", { id: tableId });
  timer.title(`${mine ? t("table.your_turn_title") : ""}${t("table.page_title", { id: tableId })}`); // with the timer's warning
}

function renderSidePanels() {
  const wasOver = !$("result").hidden;
  invite?.update(S.table, S.account);
  renderSide(S, { boardData: page.boardData, boardView: page.board, defaultName: loadName(), join, leave, redraw: renderSidePanels });
  renderPlayAgain();
  if (!wasOver && !$("result").hidden) showResult();
  timer.update(S.table);
}

/** Play again and the series, on the result panel of a finished game; once the next
 * table is made, the pages whose people play again take their seats there. */
function renderPlayAgain() {
  const { table } = S;
  if ($("result").hidden) return;
  const held = new Set(S.held);
  showRatingChanges($("result"), table); // a rated game: each player's change (js/table/rating-change.js)
  if (tournamentEnd($("result"), table, renderSidePanels)) return; // a tournament's game: back to it, no rematch
  if (table.rematch && !page.leaving && takeSeatsAgain(table, held)) {
    page.leaving = true;
    location.href = `/t/${encodeURIComponent(table.rematch)}`;
  }
  const again = el("div", { class: "again", "data-testid": "again" });
  renderAgain(again, { table, held }, (now) => playAgain(S.table, new Set(S.held), now));
  const series = el("div", { class: "series", "data-testid": "series", hidden: true });
  renderSeries(series, { table, series: S.series });
  $("result").append(again, series);
  if (page.seriesOf !== table.id) {
    page.seriesOf = table.id;
    api.series(tableId).then(
      (answer) => {
        dispatch({ type: "series", series: answer });
        renderSeries(series, { table: S.table, series: answer });
      },
      () => {},
    );
  }
}

// ---------------------------------------------------------------- page

let chat = null;
let invite = null; // an open table's "Invite a friend" (js/table/invite.js)

async function main() {
  await initI18n();
  startAppShell();
  setupChrome(tableId, { rules: () => S.table?.rules ?? "hugo", start, speed: page.speed, setSpeed: (value) => (page.speed = value), timer });
  chat = new ChatPanel($("chat"), { send: (message) => socket.send(message), name: () => S.account?.name ?? (loadName() || null), tableId });
  notifyButton($("notify-button"));
  invite = new InviteBox($("invite-friend"), tableId);
  listenForKeys();
  mountAccountNav().then((player) => {
    dispatch({ type: "account", player });
    chat.setAccount(player);
    if (S.table?.status === "open") renderSidePanels(); // the open seats: sit as oneself, or log in; invite
  });
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
