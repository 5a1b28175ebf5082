// The game review on a finished game's replay page (/r/{id}): GET
// /api/tables/{id}/review, asked again every 2 s while the server makes it (202 with its
// progress), then drawn: every seat's win chance over the game (an SVG graph whose
// points are one tab stop, the arrow keys between them, Enter or a click jumps there),
// the marked decisions, each roll's luck as bars, and a summary per player. The replay
// tells it which action it shows (show(index)): the graph marks it, and a judged
// decision's best move is drawn on the board and said in words.
//
// Stable hooks for tests (data-testid): review (data-status = loading | queued | running
// | done | failed), review-progress, review-graph, review-point (data-index: -1 the
// start, k after action k), review-marked and review-mark (data-mark, data-index),
// review-luck with luck-bar (data-index), review-summary with review-row (data-seat),
// review-note (the shown decision's judgement), learn-slot (the logged-in viewer's
// "Learn from your mistakes (N)" of this game: replay/mistakes-link.js).
//
// The deep review is asked for only with its button (review-deep.js): then the panel
// shows its judgement (marks, best moves, the summary); the panel's data-judge says
// whose (fast | deep).

import { el, fill, sleep, svg } from "../lib/dom.js";
import { currentLanguage, errorText, t } from "../lib/i18n.js";
import { place } from "../table/narrate.js";
import { colourHex } from "../table/seats.js";
import { showMistakesLink } from "./mistakes-link.js";
import { deepPart } from "./review-deep.js";

const POLL_MS = 2000;
const W = 640;
const H = 190;
const PAD = 30;
/** Room on the left for the graph's labels ("100 %"). */
const LEFT = 48;
const MARK_TEXT = { inaccuracy: () => t("review.inaccuracy"), mistake: () => t("review.mistake"), blunder: () => t("review.blunder") };

/** A number as the page's language writes it, with `digits` decimals ("74,7" in German). */
export function number(value, digits = 0) {
  return new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}
const percent = (value) => `${number(100 * value)} %`;
/** Points of win chance with their sign: "+12.3", "−4.0" ("+12,3" in German). */
export const signed = (value, digits = 1) => `${value >= 0 ? "+" : "−"}${number(Math.abs(100 * value), digits)}`;

/** An action of the review (FORMAT.md) in the page's language: "G8 → chapel", "place a guest on G12". */
export function actionText(action) {
  if (!action) return "";
  if (action.from !== undefined) return `${place(action.from)} → ${place(action.to)}`;
  if (action.place !== undefined) return t("review.action_place", { square: action.place });
  if (action.pass) return t("review.action_pass");
  return t("review.action_roll", { face: action.roll === "hugo" ? "HUGO" : action.roll });
}

/** "mistake: best was G8 → chapel, −12 %" for a judged step; "… (± 3)" with the loss's
 * standard error where the deep analysis judged it. */
export function markText(step) {
  const mark = MARK_TEXT[step.mark]?.() ?? "";
  const words = { mark, best: actionText(step.best), loss: number(100 * step.loss) };
  if (step.rollouts) return t("review.best_was_deep", { ...words, se: number(100 * (step.loss_se ?? 0)) });
  return t("review.best_was", words);
}

/** Round `terms` (fractions) to tenths of a point so that they add up to `total`
 * rounded the same way (the largest remainders take the difference): a row of the
 * summary adds up on the screen as it does in the review. */
export function roundedTerms(terms, total) {
  const tenths = terms.map((v) => 1000 * v);
  const down = tenths.map((v) => Math.floor(v));
  let missing = Math.round(1000 * total) - down.reduce((a, b) => a + b, 0);
  const order = tenths.map((v, i) => [v - Math.floor(v), i]).sort((a, b) => b[0] - a[0]);
  for (let k = 0; missing > 0 && k < order.length; k++, missing--) down[order[k][1]] += 1;
  for (let k = order.length - 1; missing < 0 && k >= 0; k--, missing++) down[order[k][1]] -= 1;
  return down.map((v) => v / 1000);
}

export class ReviewPanel {
  /** `who(seat)` names a seat; `jump(index)` shows the position after action index;
   * `board` is the replay's BoardView (for the best move); `log` its move list, whose
   * entries (data-index) get their marks. */
  constructor(container, { tableId, who, jump, board, log = null }) {
    this.box = container;
    this.log = log;
    this.tableId = tableId;
    this.who = who;
    this.jump = jump;
    this.board = board;
    this.review = null;
    this.current = -1;
    this.focusIndex = -1;
    /** The review and the deep review, once fetched. */
    this.fast = null;
    this.deep = null;
  }

  setBoard(board) {
    this.board = board;
  }

  /** Ask for the review until it is there (or refused), showing the progress. */
  async load() {
    this.box.hidden = false;
    this.setStatus("loading", t("review.loading"));
    const body = await this.poll(
      "",
      (status, progress) => this.setStatus(status, status === "running" ? t("review.running", { percent: Math.round(100 * progress) }) : t("review.queued"), progress),
      (text) => this.setStatus("failed", text),
    );
    if (body) this.render(body.review);
  }

  /** GET the review (`query`: "" or "?judge=deep") until it is there: its answer, or
   * null after `failed(text)`; meanwhile `waiting(status, progress)` every 2 s. */
  async poll(query, waiting, failed) {
    for (;;) {
      let response;
      let body = null;
      try {
        response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/review${query}`);
        body = await response.json().catch(() => null);
      } catch {
        failed(t("error.network"));
        return null;
      }
      if (response.status === 200 && body?.review) return body;
      if (response.status !== 202 || !body) {
        failed(errorText(body?.error ?? { code: "http", message: `HTTP ${response.status}` }));
        return null;
      }
      waiting(body.status, body.progress);
      await sleep(POLL_MS);
    }
  }

  setStatus(status, text, progress = null) {
    this.box.dataset.status = status;
    const bar = progress === null ? null : el("progress", { max: 1, value: progress, "data-testid": "review-progress", "aria-label": t("review.progress") });
    fill(this.box, el("h2", {}, t("review.title")), el("p", { class: "review-status", role: "status" }, text), bar);
  }

  render(review) {
    this.review = review;
    if (review.judge === "deep") this.deep = review;
    else this.fast = review;
    this.box.dataset.status = "done";
    this.box.dataset.judge = review.judge === "deep" ? "deep" : "fast";
    const dice = Math.round(100 * review.dice_share);
    this.note = el("p", { class: "review-note", "data-testid": "review-note", "aria-live": "polite" });
    const learn = el("p", { class: "review-learn", "data-testid": "learn-slot", hidden: true });
    showMistakesLink(learn, this.tableId);
    fill(
      this.box,
      el("h2", {}, t("review.title")),
      el("p", { class: "hint" }, t("review.intro", { dice, skill: 100 - dice })),
      learn,
      deepPart(this, review),
      this.note,
      el("h3", { id: "review-graph-title" }, t("review.graph")),
      this.graph(review),
      this.legend(review),
      el("h3", {}, t("review.summary")),
      this.summary(review),
      el("h3", {}, t("review.marked")),
      this.marked(review),
      el("h3", { id: "review-luck-title" }, t("review.luck")),
      el("p", { class: "hint" }, t("review.luck_hint")),
      this.luck(review),
    );
    this.markLog(review);
    this.show(this.current);
    if (location.hash === "#review") this.box.scrollIntoView();
  }

  /** Each marked decision's judgement in the move list, after its entry's text. */
  markLog(review) {
    if (!this.log) return;
    for (const old of this.log.querySelectorAll(".log-mark")) old.remove();
    for (const step of review.steps.filter((s) => s.mark)) {
      const item = this.log.querySelector(`[data-index="${step.index}"]`);
      item?.append(el("span", { class: `log-mark ${step.mark}`, "data-testid": "log-mark", "data-mark": step.mark }, markText(step)));
    }
  }

  /** x of point i (0: the start, k: after action k-1). */
  x(i) {
    return LEFT + ((W - LEFT - PAD) * i) / Math.max(1, this.review.win_chances.length - 1);
  }

  graph(review) {
    const y = (p) => PAD / 2 + (H - PAD) * (1 - p);
    const seats = review.win_chances[0].length;
    const grid = [0, 0.5, 1].map((p) =>
      svg("g", { class: "grid" }, svg("line", { x1: LEFT, x2: W - PAD, y1: y(p), y2: y(p) }), svg("text", { x: LEFT - 6, y: y(p) + 4, "text-anchor": "end", "data-testid": "review-graph-label" }, percent(p))),
    );
    const lines = Array.from({ length: seats }, (_, seat) =>
      svg("polyline", {
        class: "win-line",
        fill: "none",
        stroke: colourHex(seat),
        "stroke-width": 2.5,
        points: review.win_chances.map((w, i) => `${this.x(i).toFixed(1)},${y(w[seat]).toFixed(1)}`).join(" "),
      }),
    );
    const marks = review.steps
      .filter((s) => s.mark)
      .map((s) => svg("circle", { class: `mark-dot ${s.mark}`, cx: this.x(s.index + 1), cy: y(s.win_after[s.seat]), r: 5 }));
    const step = (W - LEFT - PAD) / Math.max(1, review.win_chances.length - 1);
    this.points = review.win_chances.map((w, i) => {
      const index = i - 1;
      const label = this.pointText(index, w);
      const point = svg(
        "rect",
        { class: "point", x: this.x(i) - step / 2, y: 0, width: Math.max(step, 2), height: H, tabindex: -1, role: "button", "aria-label": label, "data-testid": "review-point", "data-index": index },
        svg("title", {}, label),
      );
      point.addEventListener("click", () => this.pick(index));
      return point;
    });
    this.cursor = svg("line", { class: "cursor", y1: 0, y2: H, x1: this.x(0), x2: this.x(0) });
    const root = svg(
      "svg",
      { class: "review-graph", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "review-graph-title", "aria-describedby": "review-graph-help", "data-testid": "review-graph" },
      ...grid,
      ...lines,
      ...marks,
      this.cursor,
      ...this.points,
    );
    root.addEventListener("keydown", (event) => this.key(event));
    return el("div", { class: "review-graph-box" }, root, el("p", { id: "review-graph-help", class: "hint" }, t("review.graph_help")));
  }

  /** "After action 12 (Ann): Red 54 %, Blue 46 %" — a graph point's text alternative. */
  pointText(index, wins) {
    const chances = wins.map((w, seat) => `${this.who(seat)} ${percent(w)}`).join(", ");
    if (index < 0) return t("review.point_start", { chances });
    const step = this.review.steps[index];
    const mark = step.mark ? ` — ${markText(step)}` : "";
    return t("review.point", { k: index + 1, chances }) + mark;
  }

  key(event) {
    const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    const last = this.points.length - 2;
    let next = null;
    if (event.key in moves) next = this.focusIndex + moves[event.key];
    else if (event.key === "Home") next = -1;
    else if (event.key === "End") next = last;
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.pick(this.focusIndex);
      return;
    }
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation(); // the page's own arrow keys step the replay
    this.focusPoint(Math.max(-1, Math.min(last, next)), true);
  }

  focusPoint(index, focus) {
    this.focusIndex = index;
    this.points.forEach((point, i) => point.setAttribute("tabindex", i - 1 === index ? "0" : "-1"));
    if (focus) this.points[index + 1].focus();
  }

  pick(index) {
    this.focusPoint(index, false);
    this.jump(index);
  }

  legend(review) {
    return el(
      "ul",
      { class: "review-legend" },
      ...review.win_chances[0].map((_, seat) => el("li", {}, el("span", { class: "swatch", style: `background:${colourHex(seat)}` }), this.who(seat))),
    );
  }

  /** Per player, a row that adds up: the start, plus its own decisions and the others',
   * is the result with average dice; plus its own rolls' luck, the others' rolls' luck
   * and the analysis's drift, the result. Accuracy, PR and the marks before it. */
  summary(review) {
    const columns = ["review.col_accuracy", "review.col_pr", "review.col_marks", "review.col_start", "review.col_skill", "review.col_skill_others", "review.col_adjusted", "review.col_luck", "review.col_luck_others", "review.col_drift", "review.col_result"];
    const head = el("tr", {}, el("th", { scope: "col" }, t("review.player")), ...columns.map((key) => el("th", { scope: "col", "data-column": key.slice("review.col_".length) }, t(key))));
    const rows = review.players_review.map((p) => {
      const [start, skill, others, luck, luckOthers, drift] = roundedTerms([p.start, p.skill, p.skill_of_others, p.luck, p.luck_from_others, p.drift], p.result);
      const points = (value) => {
        const tenths = Math.round(1000 * value) / 10;
        return `${tenths < 0 ? "−" : ""}${number(Math.abs(tenths), 1)}`;
      };
      const cell = (column, text) => el("td", { "data-column": column }, text);
      return el(
        "tr",
        { "data-testid": "review-row", "data-seat": p.seat, "data-accuracy": p.accuracy ?? "", "data-pr": p.pr ?? "" },
        el("th", { scope: "row" }, el("span", { class: "swatch", style: `background:${colourHex(p.seat)}` }), this.who(p.seat)),
        cell("accuracy", p.accuracy === null ? "—" : number(p.accuracy, 1)),
        cell("pr", p.pr === null ? "—" : number(p.pr, 1)),
        el("td", { title: t("review.marks_hint"), "data-column": "marks" }, `${p.marks.inaccuracy} · ${p.marks.mistake} · ${p.marks.blunder}`),
        cell("start", points(start)),
        cell("skill", signed(skill)),
        cell("skill_others", signed(others)),
        el("td", { "data-column": "adjusted", class: "review-sum" }, `= ${points(start + skill + others)}`),
        cell("luck", signed(luck)),
        cell("luck_others", signed(luckOthers)),
        cell("drift", signed(drift)),
        el("td", { "data-column": "result", class: "review-sum" }, `= ${points(start + skill + others + luck + luckOthers + drift)}`),
      );
    });
    return el(
      "div",
      { class: "review-table-box", tabindex: 0, role: "region", "aria-label": t("review.summary") },
      el("table", { class: "review-summary", "data-testid": "review-summary" }, el("caption", { class: "hint" }, t("review.summary_hint")), el("thead", {}, head), el("tbody", {}, ...rows)),
    );
  }

  marked(review) {
    const items = review.steps
      .filter((s) => s.mark)
      .map((s) =>
        el(
          "li",
          { class: `review-mark ${s.mark}`, "data-testid": "review-mark", "data-mark": s.mark, "data-index": s.index },
          el("button", { type: "button", class: "link-like", onclick: () => this.pick(s.index, true) }, t("review.mark_item", { k: s.index + 1, who: this.who(s.seat), action: actionText(s.action) })),
          " — ",
          markText(s),
        ),
      );
    if (!items.length) return el("p", { class: "hint", "data-testid": "review-marked" }, t("review.none_marked"));
    return el("ul", { class: "review-marked", "data-testid": "review-marked" }, ...items);
  }

  luck(review) {
    const rolls = review.steps.filter((s) => s.kind === "roll");
    const most = Math.max(0.05, ...rolls.map((s) => Math.abs(s.luck[s.seat])));
    const mid = 50;
    const bars = rolls.map((s) => {
      const value = s.luck[s.seat];
      const height = (Math.abs(value) / most) * (mid - 4);
      const label = t("review.luck_bar", { k: s.index + 1, who: this.who(s.seat), roll: actionText(s.action), luck: signed(value) });
      return svg(
        "rect",
        { class: "luck-bar", x: this.x(s.index + 1) - 1.5, y: value >= 0 ? mid - height : mid, width: 3, height: Math.max(height, 0.5), fill: colourHex(s.seat), "data-testid": "luck-bar", "data-index": s.index },
        svg("title", {}, label),
      );
    });
    return svg(
      "svg",
      { class: "review-luck", viewBox: `0 0 ${W} ${2 * mid}`, role: "img", "aria-labelledby": "review-luck-title", "data-testid": "review-luck" },
      svg("line", { class: "axis", x1: LEFT, x2: W - PAD, y1: mid, y2: mid }),
      ...bars,
    );
  }

  /** The replay shows the position after action `index`: mark it, and a judged
   * decision's best move on the board and in words. */
  show(index) {
    this.current = index;
    if (!this.review) return;
    this.cursor.setAttribute("x1", this.x(index + 1));
    this.cursor.setAttribute("x2", this.x(index + 1));
    if (!this.box.querySelector(".review-graph")?.contains(document.activeElement)) this.focusPoint(index, false);
    const step = this.review.steps[index];
    const best = step?.best && step.best_label !== step.label ? step.best : null;
    this.board?.markBest(best ? [best.from ?? best.place, best.to].filter(Boolean) : []);
    if (!step) {
      this.note.textContent = "";
    } else if (step.mark) {
      this.note.textContent = `${this.who(step.seat)}, ${actionText(step.action)}: ${markText(step)}`;
    } else if (step.best) {
      this.note.textContent = best ? t("review.good_alternative", { best: actionText(step.best) }) : t("review.was_best", { who: this.who(step.seat) });
    } else {
      this.note.textContent = step.kind === "roll" ? t("review.roll_luck", { who: this.who(step.seat), luck: signed(step.luck[step.seat]) }) : t("review.forced");
    }
  }
}
