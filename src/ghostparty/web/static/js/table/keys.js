// The keyboard at the table: the main action of the moment has a key, and the focus goes
// to it when the decision becomes this page's.
//
// * R rolls (the roll button says so: aria-keyshortcuts, and a small "R" beside its
//   word), from anywhere on the page except while typing (the chat, a name) or in a
//   select or dialog.
// * When it becomes this page's turn to decide, the focus goes to the roll button, or to
//   the board's first target when the decision is on the board (unless the person is
//   typing, choosing in a select, or in the chat or a dialog); after an action of this
//   page's it follows the decision as before (only when the focus was lost or on the board).

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const ROLL = "[data-testid=roll]:not([disabled])";

/** Whether the focus is where keys mean words or choices: a text field, a select, the chat, a dialog. */
export function busyElsewhere(node) {
  if (!node || node === document.body) return false;
  if (node.isContentEditable || node.closest?.("dialog, [data-testid=chat]")) return true;
  if (node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
  if (node.tagName !== "INPUT") return false;
  return !["button", "checkbox", "radio", "range", "submit", "reset"].includes(node.type);
}

/** The roll button: its key (R) said on it and to screen readers. */
export function rollButton(enabled, onclick) {
  return el(
    "button",
    { type: "button", class: "big", "data-testid": "roll", "aria-keyshortcuts": "R", title: t("table.roll_key"), disabled: !enabled, onclick },
    t("table.roll"),
    el("kbd", { class: "key-hint", "aria-hidden": "true" }, "R"),
  );
}

/** R presses the roll button when there is one to press (never while typing). */
export function listenForKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if (event.key !== "r" && event.key !== "R") return;
    if (busyElsewhere(event.target) || busyElsewhere(document.activeElement)) return;
    const button = document.querySelector(ROLL);
    if (!button) return;
    event.preventDefault();
    button.focus();
    button.click();
  });
}

let wasMine = false;

/**
 * Where the keyboard's focus goes after a render: `mine` is whether this page may act
 * now, `acted` whether it has acted in this game, `board` the board's view.
 */
export function followTurn(board, { mine, acted }) {
  const fresh = mine && !wasMine;
  wasMine = mine;
  if (!mine || !board) return;
  const active = document.activeElement;
  const lost = !active || active === document.body;
  const roll = document.querySelector(ROLL);
  if (fresh && !busyElsewhere(active)) {
    if (roll) roll.focus();
    else if (!board.hasFocus()) board.focus(board.focusLoc);
    return;
  }
  if (!acted || (!lost && !board.hasFocus())) return;
  if (roll) roll.focus();
  else if (lost) board.focus(board.focusLoc);
}
