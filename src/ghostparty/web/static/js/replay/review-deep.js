// The deep review's part of the replay page's review (review.js): a button that asks
// for it (GET /api/tables/{id}/review?judge=deep, which starts it), its progress while
// the server makes it, then the panel drawn with the deep review's judgement, with a note
// that the deep analysis made it and a button back to the review.
//
// Hooks for tests (data-testid): review-deep (data-status = idle | queued | running |
// done | failed), review-deep-start, review-deep-progress, review-deep-note,
// review-judge-toggle.

import { el, fill } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** The deep review's part of `panel` (a ReviewPanel) showing `review`: the button that
 * starts it, or (when `review` is the deep one) the note that says so and the way back. */
export function deepPart(panel, review) {
  const deep = review.judge === "deep";
  const part = el("section", { class: "review-deep", "data-testid": "review-deep", "data-status": deep ? "done" : "idle", "aria-labelledby": "review-deep-title" });
  const status = el("p", { class: "review-status", role: "status" });
  let button;
  if (deep) {
    button = el("button", { type: "button", "data-testid": "review-judge-toggle", onclick: () => panel.render(panel.fast) }, t("review.show_fast"));
  } else if (panel.deep) {
    button = el("button", { type: "button", "data-testid": "review-judge-toggle", onclick: () => panel.render(panel.deep) }, t("review.show_deep"));
  } else {
    button = el("button", { type: "button", "data-testid": "review-deep-start", onclick: () => startDeep(panel, part, status, button) }, t("review.deep_start"));
  }
  const rollouts = review.settings?.deep?.rollouts ?? 0;
  const text = deep
    ? el("p", { class: "review-deep-note", "data-testid": "review-deep-note" }, t("review.deep_note", { rollouts }))
    : el("p", { class: "hint" }, t("review.deep_hint"));
  fill(part, el("h3", { id: "review-deep-title" }, t("review.deep_title")), text, button, status);
  return part;
}

/** Ask for the deep review until it is there, showing its progress, then draw it. */
async function startDeep(panel, part, status, button) {
  button.disabled = true;
  part.dataset.status = "queued";
  status.textContent = t("review.deep_queued");
  const body = await panel.poll(
    "?judge=deep",
    (state, progress) => {
      part.dataset.status = state;
      status.textContent = state === "running" ? t("review.deep_running", { percent: Math.round(100 * progress) }) : t("review.deep_queued");
      let bar = part.querySelector("progress");
      if (!bar) {
        bar = el("progress", { max: 1, "data-testid": "review-deep-progress", "aria-label": t("review.deep_progress") });
        part.append(bar);
      }
      bar.value = progress;
    },
    (text) => {
      part.dataset.status = "failed";
      status.textContent = text;
      part.querySelector("progress")?.remove();
      button.disabled = false;
    },
  );
  if (body) panel.render(body.review);
}
