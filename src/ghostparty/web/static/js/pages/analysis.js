// The analysis board, /analysis: "what if?" on any position. A position comes from a
// blank setup (rules and players), from its pasted notation (FORMAT.md hugo-position/1)
// or from a link /analysis#p=<base64url of its JSON> (js/analysis/link.js); the address
// keeps that hash in step with the position shown, so the address bar shares it. POST
// /api/analysis says each option's win chance for the player to move (js/analysis/
// options.js draws them); clicking one plays it, and the position after it is analysed
// in turn. Back and Forward (and the arrow keys) walk the line played; playing another
// option from an earlier position cuts the line there.
//
// Stable hooks for tests (data-testid unless said otherwise):
//   analysis        <main>; data-state = setup | loading | ready | failed, data-busy,
//                   data-phase (the shown position's), data-ply (its index in the line,
//                   0: the setup), data-plies (the line's last index), data-deep
//   analysis-status, analysis-error (role=alert), analysis-retry
//   analysis-first, analysis-back, analysis-forward, analysis-last, analysis-counter,
//   analysis-line (line-step per position: data-ply, aria-current="step" on the shown)
//   options (js/analysis/options.js: option rows), deep (the checkbox), seat-wins
//   notation (the shown position's JSON), copy-notation, copy-link, copied
//   setup: blank-form (setup-rules, setup-players, setup-start), paste-form (paste,
//   paste-analyse)
//   board, guest, hugo, die as on the game page; seats as on the replay page

import { startAppShell } from "../lib/app-shell.js";
import { Scene } from "../table/animate.js";
import { openBoard, watchPortrait } from "../table/board.js";
import { el, fill, submitWhenReady } from "../lib/dom.js";
import { applyI18n, errorText, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { rulesHelpButton } from "../lib/rules-help.js";
import { mountAccountNav } from "../lib/session.js";
import { renderSeats } from "../table/panels.js";
import { colourText } from "../table/seats.js";
import { analyse } from "../analysis/ask.js";
import { encodePosition, positionFromHash } from "../analysis/link.js";
import { actionPlaces, optionText, renderOptions, renderSeatWins, seatsTable } from "../analysis/options.js";

const $ = (id) => document.getElementById(id);

const A = {
  line: [], // {position, action (that led here; null at the setup), answers: {fast, deep}}
  index: 0,
  board: null,
  boardData: null,
  boardRules: null,
  scene: new Scene(),
  request: 0, // the newest request's number: an older answer is dropped
  selected: null, // the guest chosen on the board to move
  retry: null, // what "Try again" does
};

let portrait = watchPortrait((on) => {
  portrait = on;
  if (A.board?.setPortrait(on)) showBoard();
});

/** "Seat 1 (Red)". */
function seatText(seat) {
  return t("analysis.seat", { n: seat + 1, colour: colourText(seat) });
}

function node() {
  return A.line[A.index] ?? null;
}

function setState(state) {
  $("analysis").dataset.state = state;
}

function setBusy(busy) {
  $("analysis").dataset.busy = busy ? "true" : "false";
}

function showError(text, retry = null) {
  $("error").textContent = text ?? "";
  $("error").hidden = !text;
  A.retry = retry;
  $("retry").hidden = !retry;
}

/** The phases the deep analysis rolls out: a move after a roll, and a placement. */
const DEEP_PHASES = ["move", "place"];

/** Whether the shown position is analysed deeply (the box is ticked, and it has moves or placements to choose). */
function wantsDeep(position) {
  return $("deep").checked && DEEP_PHASES.includes(position?.phase);
}

// ---------------------------------------------------------------- the board

async function ensureBoard(rules) {
  if (A.boardRules === rules) return;
  A.scene = new Scene();
  ({ data: A.boardData, view: A.board } = await openBoard($("board-wrap"), rules, pick, { portrait }));
  A.boardRules = rules;
}

function showBoard() {
  const here = node();
  if (!here || !A.board) return;
  const position = here.position;
  A.scene.reconcile(position);
  A.board.setGuests(A.scene.guests);
  A.board.setHugo(A.scene.hugo);
  A.board.setCentre(position, position.players);
  A.board.showDie(position.phase === "move" ? position.roll : null);
  showTargets();
}

/** The options of the shown position's answer (none while it is asked). */
function shownOptions() {
  const here = node();
  const answer = here ? (wantsDeep(here.position) ? here.answers.deep : here.answers.fast) : null;
  return answer?.options ?? [];
}

/** The board takes clicks too: a square to place on, a guest and then where it goes. */
function showTargets() {
  const options = shownOptions();
  const places = new Set(options.filter((o) => o.action.place !== undefined).map((o) => o.action.place));
  const moves = options.filter((o) => o.action.from !== undefined);
  const sources = new Set(moves.map((o) => o.action.from));
  if (!sources.has(A.selected)) A.selected = null;
  const dests = new Set(moves.filter((o) => o.action.from === A.selected).map((o) => o.action.to));
  A.board.setTargets({ places, sources, dests, selected: A.selected });
  markBest(null);
}

/** Outline an option's squares on the board; the best option's when none is given. */
function markBest(option) {
  const shown = option ?? shownOptions().find((o) => o.best);
  A.board?.markBest(actionPlaces(shown?.action));
}

function pick(loc) {
  const options = shownOptions();
  const chosen =
    options.find((o) => o.action.place === loc) ?? options.find((o) => A.selected && o.action.from === A.selected && o.action.to === loc);
  if (chosen) {
    play(chosen);
    return;
  }
  A.selected = options.some((o) => o.action.from === loc) && A.selected !== loc ? loc : null;
  showTargets();
}

// ---------------------------------------------------------------- the line

function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Play an option: forward along the line if it is the next step, else the line is cut here. */
function play(option) {
  const next = A.line[A.index + 1];
  if (!next || !sameAction(next.action, option.action)) {
    A.line = A.line.slice(0, A.index + 1);
    A.line.push({ position: option.after, action: option.action, answers: { fast: null, deep: null } });
  }
  go(A.index + 1);
}

function go(index) {
  if (!A.line.length) return;
  A.index = Math.max(0, Math.min(A.line.length - 1, index));
  A.selected = null;
  show();
}

/** Start a new line at a position whose analysis is known (or not yet: null). */
function begin(position, answer) {
  const key = wantsDeep(position) ? "deep" : "fast";
  A.line = [{ position, action: null, answers: { fast: null, deep: null, [key]: answer } }];
  A.index = 0;
  A.selected = null;
  $("setup").open = false;
  show();
}

async function show() {
  const here = node();
  if (!here) return;
  const position = here.position;
  const root = $("analysis");
  root.dataset.ply = String(A.index);
  root.dataset.plies = String(A.line.length - 1);
  root.dataset.phase = position.phase ?? "";
  const hash = `#p=${encodePosition(position)}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  $("notation").value = JSON.stringify(position);
  $("copied").textContent = "";
  $("notation-panel").hidden = false;
  $("line-panel").hidden = false;
  $("board-empty").hidden = true;
  renderControls();
  await ensureBoard(position.rules); // the seats' colours come with the board
  if (node() !== here) return;
  renderLine();
  renderStatus(position);
  showBoard();
  renderSeats($("seats"), { table: seatsTable(position), position, board: A.boardData });
  showAnswer();
}

function renderStatus(position) {
  const who = seatText(position.to_move);
  const face = position.roll === "hugo" ? "HUGO" : position.roll;
  const text = {
    roll: () => t("analysis.status_roll", { who }),
    move: () => t("analysis.status_move", { who, face }),
    place: () => t("analysis.status_place", { who }),
    over: () => t("analysis.status_over", { who: (position.winners ?? []).map(seatText).join(", ") }),
  }[position.phase];
  $("status").textContent = text ? text() : "";
  document.title = `${t("analysis.title")} · ${$("status").textContent}`;
}

function renderControls() {
  const last = A.line.length - 1;
  $("first").disabled = A.index <= 0;
  $("back").disabled = A.index <= 0;
  $("forward").disabled = A.index >= last;
  $("last").disabled = A.index >= last;
  $("counter").textContent = A.index === 0 ? t("analysis.at_setup", { n: last }) : t("analysis.counter", { k: A.index, n: last });
}

function renderLine() {
  renderControls();
  const items = A.line.map((step, ply) => {
    const mover = ply === 0 ? "" : `${seatText(A.line[ply - 1].position.to_move)}: `;
    const text = ply === 0 ? t("analysis.line_start") : `${ply}. ${mover}${optionText(step.action)}`;
    const button = el("button", { type: "button", class: "line-jump", "data-testid": "line-step", "data-ply": ply, onclick: () => go(ply) }, text);
    if (ply === A.index) button.setAttribute("aria-current", "step");
    return el("li", { class: ply === A.index ? "line-item current" : "line-item" }, button);
  });
  fill($("line"), ...items);
}

// ---------------------------------------------------------------- asking the server

/** Ask for the analysis of the shown position (once per position and depth) and show it. */
async function showAnswer() {
  const here = node();
  const position = here.position;
  const key = wantsDeep(position) ? "deep" : "fast";
  $("options-panel").hidden = false;
  if (here.answers[key]) {
    drawAnswer(here.answers[key], key === "deep");
    return;
  }
  renderOptions($("options"), null, handlers);
  $("options-hint").textContent = t(key === "deep" ? "analysis.thinking_deep" : "analysis.thinking");
  const answer = await ask(key === "deep" ? { position, deep: true } : { position }, () => showAnswer());
  if (node() !== here) return;
  if (!answer) {
    if ($("analysis").dataset.busy === "false") $("options-hint").textContent = "";
    return;
  }
  here.answers[key] = answer;
  drawAnswer(answer, key === "deep");
}

/**
 * POST /api/analysis; the answer, or null when it failed (said in the alert, with
 * `retry` behind "Try again") or a newer request was made meanwhile. `invalid` words a
 * refused position (400): the server's message in it.
 */
async function ask(body, retry, invalid = null) {
  const number = ++A.request;
  setBusy(true);
  showError(null);
  try {
    const answer = await analyse(body, () => number === A.request);
    if (number !== A.request) return null;
    setState("ready");
    return answer;
  } catch (error) {
    if (number !== A.request) return null;
    const refused = error.status === 400 && invalid;
    showError(refused ? t(invalid, { message: error.message }) : errorText(error), refused ? null : retry);
    if (!A.line.length) setState("failed");
    else setState("ready");
    return null;
  } finally {
    if (number === A.request) setBusy(false);
  }
}

const handlers = {
  play: (option) => play(option),
  hover: (option) => markBest(option),
};

function drawAnswer(answer, deep) {
  $("analysis").dataset.deep = deep ? "true" : "false";
  renderOptions($("options"), answer, handlers, deep);
  renderSeatWins($("seat-wins"), answer.win);
  $("options-title").textContent = t("analysis.options_for", { who: seatText(answer.to_move) });
  const hint = { roll: "analysis.hint_roll", move: "analysis.hint_move", place: "analysis.hint_move", over: "analysis.hint_over" }[answer.phase];
  let text = hint ? t(hint) : "";
  if (deep && answer.deep) text += ` ${t("analysis.deep_note", { rollouts: answer.deep.rollouts, cut: answer.deep.cut })}`;
  else if ($("deep").checked && !DEEP_PHASES.includes(answer.phase)) text += ` ${t("analysis.deep_only_move")}`;
  $("options-hint").textContent = text;
  if (A.board) showTargets();
}

async function startBlank(event) {
  event.preventDefault();
  const start = { rules: $("setup-rules").value, players: Number($("setup-players").value) };
  setState("loading");
  const answer = await ask({ start }, () => startBlank(event));
  if (answer) begin(answer.position, answer);
}

/** Analyse a position read from the notation field or a link; `invalid` words a refusal. */
async function analyseGiven(position, invalid, retry) {
  if (!A.line.length) setState("loading");
  const deep = wantsDeep(position);
  const answer = await ask(deep ? { position, deep: true } : { position }, retry, invalid);
  if (answer) begin(answer.position, answer);
}

function analysePasted(event) {
  event.preventDefault();
  let position;
  try {
    position = JSON.parse($("paste").value);
  } catch (error) {
    showError(t("analysis.not_json", { message: error.message }));
    return;
  }
  analyseGiven(position, "analysis.invalid", () => analysePasted(event));
}

/** The position of the address's hash, unless it is the one shown already. */
function loadHash() {
  let position;
  try {
    position = positionFromHash(location.hash);
  } catch {
    showError(t("analysis.bad_link"));
    return;
  }
  if (!position) return;
  const here = node();
  if (here && encodePosition(here.position) === encodePosition(position)) return;
  analyseGiven(position, "analysis.invalid_link", loadHash);
}

// ---------------------------------------------------------------- copying

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    $("copied").textContent = t("analysis.copied");
  } catch {
    const field = $("notation");
    field.focus();
    field.select();
    $("copied").textContent = t("analysis.copy_by_hand");
  }
}

function setupChrome() {
  $("lang-slot").replaceWith(rulesHelpButton(() => node()?.position.rules ?? $("setup-rules").value), languageSwitch());
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(A.index - 1));
  $("forward").addEventListener("click", () => go(A.index + 1));
  $("last").addEventListener("click", () => go(A.line.length - 1));
  $("deep").addEventListener("change", () => {
    if (node()) showAnswer();
  });
  $("retry").addEventListener("click", () => A.retry?.());
  $("copy").addEventListener("click", () => copy($("notation").value));
  $("copy-link").addEventListener("click", () => copy(location.href));
  addEventListener("hashchange", loadHash);
  document.addEventListener("keydown", (event) => {
    if (!A.line.length || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, .board")) return;
    if (event.key === "ArrowLeft") go(A.index - 1);
    else if (event.key === "ArrowRight") go(A.index + 1);
    else return;
    event.preventDefault();
  });
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  setupChrome();
  mountAccountNav();
  if (location.hash) loadHash();
}

// A setup sent while the page is still starting is analysed once it is ready.
const started = main();
submitWhenReady($("blank-form"), started, startBlank);
submitWhenReady($("paste-form"), started, analysePasted);
