// The puzzles page, /puzzles: a decision from a real game with one clearly best action
// (src/ghostparty/analysis/puzzles.py). The board shows the position as in a game, the
// die its roll; the player picks the action on the board (a guest, then where it goes;
// a square to place on) or from the list of legal actions, and the server says at once
// whether it was the answer (POST /api/puzzles/{id}/attempt), with every alternative's
// win chance, the reason, the themes, the ratings' change and the streak. Guests are not
// rated: their streak is counted in this browser (puzzles/logic.js).
//
// The address: /puzzles (the next puzzle of the filters), /puzzles#daily (or ?daily: the
// daily puzzle), /puzzles#id=<id> (that puzzle; the address follows the puzzle shown),
// /puzzles#mistakes or /puzzles?mistakes=<table id> (one's own mistakes from reviewed
// games, all or one game's: js/puzzles/mistakes.js; "Next mistake" steps through them).
//
// The legal actions come with the puzzle as the game page gets them (`legal`, when the
// server sends it); without them the board takes any of the mover's guests and any
// location, and the server refuses what is not legal.
//
// Stable hooks for tests (data-testid unless said otherwise):
//   puzzles      <main>; data-state = loading | solving | solved | empty | failed,
//                data-puzzle (the id shown; a mistake's "<table>:<index>"), data-daily,
//                data-busy, data-result (right | wrong | ""), data-mode (puzzles | mistakes)
//   puzzle-roll (data-roll), puzzle-task, puzzle-meta, puzzle-error (role=alert),
//   puzzle-retry, puzzle-moves (puzzle-move buttons: data-action), moves-hint
//   puzzle-result … (js/puzzles/result.js), puzzle-next, daily-link, mistake-game (a
//   mistake's game, after an attempt)
//   puzzle-filters: filter-rules, filter-theme (its options from GET /api/puzzles/themes),
//   filter-go; puzzle-me, puzzle-me-text
//   board, guest, hugo, die as on the game page

import { startAppShell } from "../lib/app-shell.js";
import { api } from "../lib/api.js";
import { el, fill, submitWhenReady } from "../lib/dom.js";
import { applyI18n, errorText, initI18n, languageSwitch, t } from "../lib/i18n.js";
import { rulesHelpButton } from "../lib/rules-help.js";
import { mountAccountNav } from "../lib/session.js";
import { Scene } from "../table/animate.js";
import { openBoard, watchPortrait } from "../table/board.js";
import { colourText } from "../table/seats.js";
import { actionPlaces, optionText } from "../analysis/options.js";
import { analysisUrl } from "../analysis/link.js";
import { addressRequest, boardTargets, countGuestStreak, pickOn, readGuestStreak, THEMES } from "../puzzles/logic.js";
import { renderResult, themeName } from "../puzzles/result.js";
import { currentMistake, emptyText, gameUrl, loadMistakes, MISTAKES, mistakeMeta, mistakeTask, mistakeVerdict, nextMistake } from "../puzzles/mistakes.js";

const $ = (id) => document.getElementById(id);

const P = {
  puzzle: null,
  mode: "puzzles",
  daily: false,
  date: null,
  selected: null,
  board: null,
  boardRules: null,
  scene: new Scene(),
  player: null,
  request: 0,
  retry: null,
};

let portrait = watchPortrait((on) => {
  portrait = on;
  if (P.board?.setPortrait(on)) showBoard();
});

function setState(state) {
  $("puzzles").dataset.state = state;
}

function setBusy(busy) {
  $("puzzles").dataset.busy = busy ? "true" : "false";
}

function showError(text, retry = null) {
  $("error").textContent = text ?? "";
  $("error").hidden = !text;
  P.retry = retry;
  $("retry").hidden = !retry;
}

// ---------------------------------------------------------------- loading a puzzle

/** Puzzles, or one's own mistakes: the filters and the record belong to the puzzles. */
function setMode(mode) {
  P.mode = mode;
  $("puzzles").dataset.mode = mode;
  $("filters").hidden = mode === "mistakes";
  $("me").hidden = mode === "mistakes";
  $("next").textContent = t(mode === "mistakes" ? "mistakes.next" : "puzzles.next");
}

/** Ask for one's mistakes (of one game, or every recent one) and show the first. */
async function loadMistakeList(wanted, number) {
  const any = await loadMistakes(wanted.table);
  if (number !== P.request) return;
  setMode("mistakes");
  if (any) {
    await show(currentMistake());
    return;
  }
  P.puzzle = null;
  $("result").hidden = true;
  $("moves-panel").hidden = true;
  $("task").hidden = false;
  $("task").textContent = emptyText(wanted.table);
  $("meta").textContent = "";
  $("roll").hidden = true;
  P.board?.setTargets();
  setState("empty");
}

/** Ask for a puzzle: the daily one, one by id, the next of the filters, or one's mistakes. */
async function load(wanted) {
  const number = ++P.request;
  setBusy(true);
  showError(null);
  if (!P.puzzle) setState("loading");
  try {
    if (wanted.mistakes) {
      await loadMistakeList(wanted, number);
      return;
    }
    if (P.mode !== "puzzles") setMode("puzzles");
    let answer;
    if (wanted.daily) answer = await api.dailyPuzzle();
    else if (wanted.id) answer = await api.puzzle(wanted.id);
    else answer = await api.nextPuzzle({ rules: $("filter-rules").value, theme: $("filter-theme").value, after: P.puzzle?.id });
    if (number !== P.request) return;
    P.daily = Boolean(wanted.daily);
    P.date = answer.date ?? null;
    await show(answer.puzzle);
  } catch (error) {
    if (number !== P.request) return;
    if (error.code === "login_required") {
      setMode("mistakes");
      showError(t("mistakes.login"));
      setState("empty");
      return;
    }
    if (error.code === "no_puzzles" || error.code === "unknown_puzzle") {
      showError(t(`puzzles.${error.code}`));
      if (!P.puzzle) setState("empty");
      return;
    }
    showError(errorText(error), () => load(wanted));
    if (!P.puzzle) setState("failed");
  } finally {
    if (number === P.request) setBusy(false);
  }
}

async function ensureBoard(rules) {
  if (P.boardRules === rules) return;
  P.scene = new Scene();
  ({ view: P.board } = await openBoard($("board-wrap"), rules, pick, { portrait }));
  P.boardRules = rules;
}

async function show(puzzle) {
  P.puzzle = puzzle;
  P.selected = null;
  const root = $("puzzles");
  root.dataset.puzzle = puzzle.id;
  root.dataset.daily = P.daily ? "true" : "false";
  root.dataset.result = "";
  const hash = P.daily ? "#daily" : `#id=${encodeURIComponent(puzzle.id)}`;
  if (P.mode === "puzzles" && (location.hash !== hash || location.search)) history.replaceState(null, "", `/puzzles${hash}`);
  $("result").hidden = true;
  $("task").hidden = false;
  await ensureBoard(puzzle.rules);
  if (P.puzzle !== puzzle) return;
  P.scene = new Scene();
  showBoard();
  renderTask(puzzle);
  renderMoves();
  setState("solving");
}

function showBoard() {
  const puzzle = P.puzzle;
  if (!puzzle || !P.board) return;
  const position = puzzle.position;
  P.scene.reconcile(position);
  P.board.setGuests(P.scene.guests);
  P.board.setHugo(P.scene.hugo);
  P.board.setCentre(position, position.players);
  P.board.showDie(puzzle.phase === "move" ? puzzle.roll : null);
  showTargets();
}

function locations() {
  return P.board ? [...P.board.byLoc.keys()] : [];
}

function showTargets() {
  if ($("puzzles").dataset.state === "solved" || !P.puzzle) {
    P.board?.setTargets();
    return;
  }
  const targets = boardTargets(P.puzzle, P.selected, locations());
  P.selected = targets.selected;
  P.board.setTargets(targets);
  for (const button of $("moves").querySelectorAll("button")) {
    const action = JSON.parse(button.dataset.action);
    button.setAttribute("aria-pressed", P.selected !== null && action.from === P.selected ? "true" : "false");
  }
}

function renderTask(puzzle) {
  const you = colourText(puzzle.to_move);
  const face = puzzle.roll === "hugo" ? "HUGO" : puzzle.roll;
  const mistake = P.mode === "mistakes";
  const task = mistake ? mistakeTask(puzzle) : puzzle.phase === "place" ? t("puzzles.task_place", { colour: you }) : t("puzzles.task_move", { colour: you, face });
  $("task").textContent = task;
  document.title = `${t("puzzles.title")} · ${task}`;
  const roll = $("roll");
  roll.hidden = puzzle.phase !== "move";
  roll.dataset.roll = String(puzzle.roll ?? "");
  fill(roll, el("span", {}, t("puzzles.die_shows")), el("span", { class: "die-face", "data-testid": "puzzle-die-face" }, String(face ?? "")));
  if (mistake) {
    $("meta").textContent = mistakeMeta(puzzle);
    return;
  }
  const parts = [];
  if (P.daily) parts.push(P.date ? t("puzzles.daily_of", { date: P.date }) : t("puzzles.daily"));
  parts.push(t(`rules.${puzzle.rules}`), t("puzzles.players_n", { n: puzzle.players }));
  if (typeof puzzle.rating === "number") parts.push(t("puzzles.rating_of_puzzle", { rating: Math.round(puzzle.rating) }));
  if (typeof puzzle.attempts === "number") parts.push(t("puzzles.solved_by", { solved: puzzle.solved ?? 0, attempts: puzzle.attempts }));
  $("meta").textContent = parts.join(" · ");
}

/** The list of legal actions, one button each (the keyboard's and screen reader's way). */
function renderMoves() {
  const puzzle = P.puzzle;
  const legal = puzzle.legal ?? null;
  $("moves-panel").hidden = false;
  $("moves-hint").textContent = t(legal ? "puzzles.moves_hint" : "puzzles.moves_board_only");
  const items = (legal ?? []).map((action) =>
    el(
      "li",
      {},
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-testid": "puzzle-move",
          "data-action": JSON.stringify(action),
          onclick: () => attempt(action),
          onmouseenter: () => P.board?.markBest(actionPlaces(action)),
          onmouseleave: () => P.board?.markBest([]),
          onfocus: () => P.board?.markBest(actionPlaces(action)),
          onblur: () => P.board?.markBest([]),
        },
        optionText(action),
      ),
    ),
  );
  fill($("moves"), ...items);
}

function pick(loc) {
  if (!P.puzzle || $("puzzles").dataset.state !== "solving" || $("puzzles").dataset.busy === "true") return;
  const picked = pickOn(P.puzzle, P.selected, loc, locations());
  if (picked.action) {
    attempt(picked.action);
    return;
  }
  P.selected = picked.selected;
  showTargets();
}

// ---------------------------------------------------------------- answering

async function attempt(action) {
  const puzzle = P.puzzle;
  if (!puzzle || $("puzzles").dataset.state !== "solving") return;
  const number = ++P.request;
  setBusy(true);
  showError(null);
  try {
    const mistake = P.mode === "mistakes";
    const result = mistake ? await api.attemptMistake(puzzle.table, puzzle.index, action) : await api.attemptPuzzle(puzzle.id, action);
    if (number !== P.request || P.puzzle !== puzzle) return;
    const guest = P.player || mistake ? null : countGuestStreak(localStorage, puzzle.id, result.correct);
    setState("solved");
    $("puzzles").dataset.result = result.correct ? "right" : "wrong";
    P.selected = null;
    showTargets();
    P.board.markBest(actionPlaces(result.answer));
    for (const button of $("moves").querySelectorAll("button")) button.disabled = true;
    $("moves-panel").hidden = true;
    renderResult(result, action, P.player, guest, mistake ? { verdict: mistakeVerdict(result, action), ratings: t("mistakes.not_rated") } : null);
    const game = mistake ? el("a", { href: gameUrl(puzzle), "data-testid": "mistake-game" }, t("mistakes.game")) : null;
    fill($("analyse"), el("a", { href: analysisUrl(puzzle.position), "data-testid": "puzzle-analyse" }, t("puzzles.analyse")), game ? " · " : null, game);
    // The result (its heading says right or wrong) takes the task's place and the focus.
    $("task").hidden = true;
    $("result").focus();
    if (!mistake) renderMe(guest);
  } catch (error) {
    if (number !== P.request) return;
    P.selected = null; // the board starts again from choosing a guest
    showTargets();
    const illegal = error.code === "illegal_action" || (error.status === 400 && !puzzle.legal);
    showError(illegal ? t("puzzles.not_legal", { move: optionText(action) }) : errorText(error), illegal ? null : () => attempt(action));
  } finally {
    if (number === P.request) setBusy(false);
  }
}

// ---------------------------------------------------------------- filters and the player's record

async function loadThemes() {
  const select = $("filter-theme");
  let counts = new Map();
  try {
    const answer = await api.puzzleThemes();
    counts = new Map((answer.themes ?? []).map((entry) => [entry.theme, entry.count]));
  } catch {
    // the filter still offers every theme
  }
  const known = THEMES.filter((theme) => !counts.size || counts.get(theme));
  const options = known.map((theme) =>
    el("option", { value: theme }, counts.has(theme) ? t("puzzles.theme_count", { theme: themeName(theme), n: counts.get(theme) }) : themeName(theme)),
  );
  const chosen = select.value;
  fill(select, el("option", { value: "" }, t("puzzles.any_theme")), ...options);
  if (known.includes(chosen)) select.value = chosen;
}

/** The player's puzzle record (GET /api/puzzles/me), or a guest's streak in this browser. */
async function renderMe(guest = null) {
  const text = $("me-text");
  if (!P.player) {
    const kept = guest ?? readGuestStreak(localStorage);
    text.textContent = `${t("puzzles.guest_note")} ${t("puzzles.guest_streak", { n: kept.streak, best: kept.best })}`;
    return;
  }
  try {
    const me = await api.puzzleMe();
    if (typeof me.rating !== "number") {
      text.textContent = t("puzzles.me_none");
      return;
    }
    text.textContent = t("puzzles.me", {
      rating: Math.round(me.rating),
      rd: Math.round(me.rd ?? 0),
      solved: me.solved ?? 0,
      attempts: me.attempts ?? 0,
      streak: me.streak ?? 0,
      best: me.best_streak ?? 0,
    });
  } catch (error) {
    text.textContent = error.code === "registered_only" ? t("puzzles.me_none") : errorText(error);
  }
}

function next(event) {
  event?.preventDefault();
  P.daily = false;
  if (P.mode === "mistakes" && event?.type !== "submit") {
    const item = nextMistake();
    if (item) show(item);
    return;
  }
  load({});
}

function fromAddress() {
  const wanted = addressRequest(location.search, location.hash);
  if (wanted.mistakes && P.mode === "mistakes" && MISTAKES.table === wanted.table && P.puzzle) return;
  if (wanted.daily && P.daily && P.puzzle) return;
  if (wanted.id && P.puzzle?.id === wanted.id) return;
  load(wanted);
}

function setupChrome() {
  $("lang-slot").replaceWith(rulesHelpButton(() => P.puzzle?.rules ?? ($("filter-rules").value || "hugo")), languageSwitch());
  $("retry").addEventListener("click", () => P.retry?.());
  $("next").addEventListener("click", () => next());
  addEventListener("hashchange", fromAddress);
}

async function main() {
  await initI18n();
  startAppShell();
  applyI18n();
  setupChrome();
  P.player = await mountAccountNav();
  loadThemes();
  renderMe();
  fromAddress();
}

// A filter sent while the page is still starting is asked for once it is ready.
const started = main();
submitWhenReady($("filters"), started, next);
