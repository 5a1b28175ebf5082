// The replay page: /r/{id} replays a finished table, /replay an uploaded game record.
//
// Stable hooks for tests (data-testid unless said otherwise):
//   replay         <main>; data-step = the action shown (-1: the start, before any),
//                  data-steps = how many actions, data-playing, data-busy ("true" while
//                  an action is being animated), data-source = table | upload
//   replay-first, replay-back, replay-play, replay-forward, replay-last   the buttons
//   replay-slider  a range input: 0 = the start, k = after action k-1
//   replay-counter "action k of n"; step-lines: the shown action's sentences
//   log            every action, log-entry per action (data-index, click to jump;
//                  aria-current="step" on the one shown)
//   analyse-link   the analysis board (/analysis#p=…) of the position shown
//   download       the game record; upload-panel, record-file, upload, upload-error
//                  (upload-reason: the server's reason for a record it refused)
//
// The seats, the log, the narration and the board are the game page's (panels.js,
// narrate.js, board.js), and so is the state: the replay (docs/PROTOCOL.md) sends each
// action's events and what it changed in the position, and the game page's reducer
// (state.js replayStates) turns them into the state after each action, once.
//   board (data-layout), guest (data-seat, data-loc), hugo (data-loc), die (data-face) as in play
//   seats          seat (data-seat) with score (data-seat) per seat
//   chat           the game's chat, read-only (js/chat/chat.js; hidden when nobody wrote)
//   review         a finished table's game review (js/replay/review.js: its own hooks); none for an upload

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { play, Scene } from "../table/animate.js";
import { openBoard, watchPortrait } from "../table/board.js";
import { ChatPanel } from "../chat/chat.js";
import { banner, el, fill, sleep } from "../lib/dom.js";
import { applyI18n, errorText, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { narrate } from "../table/narrate.js";
import { rulesHelpButton } from "../lib/rules-help.js";
import { renderLog, renderSeats } from "../table/panels.js";
import { sendRecord } from "../replay/replay-upload.js";
import { ReviewPanel } from "../replay/review.js";
import { analysisUrl } from "../analysis/link.js";
import { actorName } from "../table/seats.js";
import { reduce, replayStates } from "../table/state.js";
import { loadSpeed, saveSpeed } from "../lib/store.js";

const $ = (id) => document.getElementById(id);
const PLAY_PAUSE = { normal: 700, fast: 200, off: 120 };

const R = {
  data: null, // {record, steps, pending}: GET /api/tables/{id}/replay
  states: [], // state.js's state at the start ([0]) and after each action
  boardData: null, // GET /api/boards/{rules}
  table: null, // the table (names) for /r/{id}
  board: null,
  boardRules: null,
  scene: new Scene(),
  current: -1,
  generation: 0,
  playing: false,
  busy: false,
  speed: loadSpeed(),
  blobUrl: null,
  review: null, // the game review's panel (a table's replay only)
};

/** The state after action `index` (-1: the start). */
function stateAt(index) {
  return R.states[index + 1];
}

/** How the story names a seat: the player's name at a table's replay, else the colour. */
function who(seat) {
  return actorName(R.table, seat);
}

function stepCount() {
  return R.data ? R.data.steps.length : 0;
}

/** A phone held upright gets the tall board; turning it lays the board out again. */
let portrait = watchPortrait((on) => {
  portrait = on;
  R.board?.setPortrait(on);
});

async function ensureBoard(rules) {
  if (R.boardRules === rules) return;
  ({ data: R.boardData, view: R.board } = await openBoard($("board-wrap"), rules, () => {}, { portrait, who }));
  R.boardRules = rules;
  R.review?.setBoard(R.board);
}

const BANNERS = {
  round_ended: (e) => t("banner.round_over", { round: e.round }),
  round_started: (e) => t("banner.round_begins", { round: e.round }),
  game_over: () => t("banner.game_over"),
};

/** Play action `index`'s events on the board, in the page's language: the scores count
 * up from the position before it. */
async function animate(index, generation) {
  let counting = stateAt(index - 1);
  const ui = {
    board: R.board,
    speed: () => (document.hidden ? "off" : R.speed),
    isCurrent: () => generation === R.generation,
    score: (seat, value) => {
      counting = reduce(counting, { type: "score", seat, value });
      renderSeats_({ ...stateAt(R.current), scores: counting.scores });
    },
    clock: (time) => R.board.setCentre({ ...stateAt(index - 1).position, clock: time }, R.data.record.players),
    banner: () => {},
  };
  for (const event of R.data.steps[index].events ?? []) {
    if (!ui.isCurrent()) return;
    if (BANNERS[event.type] && R.speed !== "off") banner(BANNERS[event.type](event));
    await play([event], R.scene, ui);
  }
}

/** Show the position after action `index` (-1: the start); animate one step forward. */
async function go(index, { animate: animated = false } = {}) {
  if (!R.data) return;
  const target = Math.max(-1, Math.min(stepCount() - 1, index));
  R.generation += 1;
  const generation = R.generation;
  const forward = animated && target === R.current + 1 && R.speed !== "off";
  R.current = target;
  renderControls();
  if (forward) {
    setBusy(true);
    R.scene.reconcile(stateAt(target - 1).position);
    R.board.setGuests(R.scene.guests);
    R.board.setHugo(R.scene.hugo);
    await animate(target, generation);
    if (generation !== R.generation) return;
  }
  showPosition();
  setBusy(false);
}

function showPosition() {
  const state = stateAt(R.current);
  const position = state.position;
  R.scene.reconcile(position);
  R.board.setGuests(R.scene.guests);
  R.board.setHugo(R.scene.hugo);
  R.board.setCentre(position, R.data.record.players);
  R.board.showDie(state.die);
  R.board.setTargets();
  const root = $("replay");
  root.dataset.step = String(R.current);
  root.dataset.phase = position.phase ?? "";
  $("analyse").href = analysisUrl(position);
  renderSeats_(state);
  R.review?.show(R.current);
}

function setBusy(busy) {
  R.busy = busy;
  $("replay").dataset.busy = busy ? "true" : "false";
}

// ---------------------------------------------------------------- panels

/** The table as the seats panel reads it, at the shown position: names from the
 * finished table's (none for an uploaded record), whose turn, the winners. */
function tableAt(position) {
  const players = R.data.record.players;
  const seats = Array.from({ length: players }, (_, seat) => R.table?.seats?.[seat] ?? { seat, kind: "human", name: null });
  const over = position.phase === "over";
  return {
    seats: seats.map((info, seat) => ({ ...info, seat, away: false, back: false, online: true })),
    status: over ? "over" : "playing",
    to_move: over ? null : position.to_move,
    winners: over ? (position.winners ?? []) : [],
  };
}

function renderSeats_(state) {
  renderSeats($("seats"), { table: state.table, position: state.position, scores: state.scores, board: R.boardData, points: state.points });
}

function renderControls() {
  const n = stepCount();
  const i = R.current;
  $("first").disabled = i < 0;
  $("back").disabled = i < 0;
  $("forward").disabled = i >= n - 1;
  $("last").disabled = i >= n - 1;
  $("play").textContent = R.playing ? t("replay.pause") : t("replay.play");
  $("play").disabled = n === 0;
  const slider = $("slider");
  slider.max = String(n);
  slider.value = String(i + 1);
  $("counter").textContent = i < 0 ? t("replay.at_start", { n }) : t("replay.counter", { k: i + 1, n });
  const lines = i < 0 ? [t("replay.start_lines")] : narrate(stateAt(i).log[i].events, who);
  fill($("step-lines"), ...lines.map((line) => el("p", { class: "step-line", "data-testid": "step-line" }, line)));
  $("replay").dataset.playing = R.playing ? "true" : "false";
  for (const item of $("log").querySelectorAll(".current")) {
    item.classList.remove("current");
    item.removeAttribute("aria-current");
  }
  const item = $("log").querySelector(`[data-index="${i}"]`);
  if (item) {
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    const list = $("log");
    const top = item.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }
}

function showLog() {
  const entries = R.states[R.states.length - 1].log;
  const jump = (index) => {
    stop();
    go(index);
  };
  renderLog($("log"), entries, R.table, { jump });
  $("log").scrollTop = 0;
}

// ---------------------------------------------------------------- playing

function stop() {
  R.playing = false;
  renderControls();
}

async function playAll() {
  if (R.playing) {
    stop();
    return;
  }
  if (R.current >= stepCount() - 1) await go(-1);
  R.playing = true;
  renderControls();
  while (R.playing && R.current < stepCount() - 1) {
    await go(R.current + 1, { animate: true });
    if (!R.playing) break;
    await sleep(PLAY_PAUSE[R.speed] ?? PLAY_PAUSE.normal);
  }
  R.playing = false;
  renderControls();
}

// ---------------------------------------------------------------- loading

async function show(data, { name, download }) {
  R.data = data;
  R.states = replayStates(data, tableAt);
  R.current = -1;
  R.playing = false;
  await ensureBoard(data.record.rules);
  $("replay-name").textContent = name;
  $("replay").dataset.steps = String(data.steps.length);
  $("player").hidden = false;
  const rules = t(`rules.${data.record.rules}`);
  $("status").textContent = t("replay.summary", { rules, players: data.record.players, n: data.steps.length });
  const link = $("download");
  if (R.blobUrl) URL.revokeObjectURL(R.blobUrl);
  R.blobUrl = null;
  if (download) {
    link.href = download;
    link.setAttribute("download", "");
  } else {
    R.blobUrl = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: "application/json" }));
    link.href = R.blobUrl;
    link.setAttribute("download", "ghostparty-record.json");
  }
  showLog();
  showChat(data.chat ?? []);
  R.scene = new Scene();
  await go(-1);
}

/** The game's chat as it was kept (both channels: the game is over), read-only. */
function showChat(lines) {
  const box = $("chat");
  box.hidden = lines.length === 0;
  if (!lines.length) return;
  const panel = new ChatPanel(box);
  panel.load(lines);
  panel.setSeats([], "over");
}

async function upload(event) {
  event.preventDefault();
  const sent = await sendRecord(); // js/replay/replay-upload.js: null when refused (it says why)
  if (!sent) return;
  R.table = null;
  R.review = null;
  $("review").hidden = true;
  R.board?.markBest([]);
  stop();
  await show(sent.data, { name: sent.name });
}

function setupChrome() {
  $("lang-slot").replaceWith(rulesHelpButton(() => R.data?.record.rules ?? "hugo"), languageSwitch());
  const speed = $("speed");
  speed.value = R.speed;
  speed.addEventListener("change", () => {
    R.speed = speed.value;
    saveSpeed(R.speed);
  });
  $("first").addEventListener("click", () => {
    stop();
    go(-1);
  });
  $("back").addEventListener("click", () => {
    stop();
    go(R.current - 1);
  });
  $("forward").addEventListener("click", () => {
    stop();
    go(R.current + 1, { animate: true });
  });
  $("last").addEventListener("click", () => {
    stop();
    go(stepCount() - 1);
  });
  $("play").addEventListener("click", playAll);
  $("slider").addEventListener("input", () => {
    const value = Number($("slider").value);
    stop();
    go(value - 1);
  });
  document.addEventListener("keydown", (event) => {
    if (!R.data || event.target.closest("input, select, textarea, .log-jump")) return;
    if (event.key === "ArrowRight") {
      stop();
      go(R.current + 1, { animate: true });
    } else if (event.key === "ArrowLeft") {
      stop();
      go(R.current - 1);
    }
  });
  $("upload-form").addEventListener("submit", upload);
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  setupChrome();
  const parts = location.pathname.split("/");
  const tableId = parts[1] === "r" ? decodeURIComponent(parts[2] || "") : "";
  const root = $("replay");
  if (!tableId) {
    root.dataset.source = "upload";
    $("upload-panel").hidden = false;
    $("status").textContent = t("replay.choose_file");
    document.title = t("replay.title");
    return;
  }
  root.dataset.source = "table";
  try {
    const [data, answer] = await Promise.all([
      fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`).then(async (response) => {
        const body = await response.json().catch(() => null);
        if (!response.ok) throw body?.error ?? { code: "http", message: `HTTP ${response.status}` };
        return body;
      }),
      api.table(tableId).catch(() => null),
    ]);
    R.table = answer?.table ?? null;
    await show(data, { name: t("replay.table_name", { id: tableId }), download: `/api/tables/${encodeURIComponent(tableId)}/record` });
    document.title = `${t("replay.title")} · ${tableId}`;
    const jump = (index) => {
      stop();
      go(index);
    };
    R.review = new ReviewPanel($("review"), { tableId, who, jump, board: R.board, log: $("log") });
    R.review.load();
  } catch (error) {
    $("status").textContent = errorText(error);
    root.dataset.source = "missing";
    $("upload-panel").hidden = false;
  }
}

main();
