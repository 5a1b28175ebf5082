// The turn timer: a countdown to the table's `deadline` (docs/PROTOCOL.md), shown to
// everyone; at a turn-based table (hours or days a move) the deadline's date and time
// instead. Hook: turn-timer (data-deadline, data-seconds; data-turn-based; hidden
// without a deadline).

import { t } from "./i18n.js";

export class TurnTimer {
  /** node: the element to fill; who(table) names the seat to move. */
  constructor(node, who) {
    this.node = node;
    this.who = who;
    this.deadline = null;
    this.table = null;
    this.interval = null;
  }

  /** Follow a table: start, move or stop the countdown. */
  update(table) {
    this.table = table;
    const deadline = table?.status === "playing" && table.deadline ? Date.parse(table.deadline) : NaN;
    this.deadline = Number.isFinite(deadline) ? deadline : null;
    this.node.dataset.deadline = table?.deadline ?? "";
    if (this.deadline === null) {
      clearInterval(this.interval);
      this.interval = null;
      this.node.hidden = true;
      return;
    }
    this.node.hidden = false;
    if (!this.interval) this.interval = setInterval(() => this.tick(), 250);
    this.tick();
  }

  tick() {
    if (this.deadline === null) return;
    if (this.table?.turn_based) {
      // A game over days: when the move is due, not a countdown in seconds.
      clearInterval(this.interval);
      this.interval = null;
      this.node.dataset.turnBased = "true";
      this.node.classList.remove("urgent");
      const time = new Date(this.deadline).toLocaleString(document.documentElement.lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
      this.node.textContent = t("timer.until", { who: this.who(this.table), time });
      return;
    }
    this.node.dataset.turnBased = "false";
    const seconds = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    this.node.dataset.seconds = String(seconds);
    this.node.classList.toggle("urgent", seconds <= 10);
    this.node.textContent = t("timer.left", { who: this.who(this.table), seconds });
  }
}
