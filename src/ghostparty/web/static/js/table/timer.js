// The turn timer: a countdown to the table's `deadline` (docs/PROTOCOL.md), shown to
// everyone; at a turn-based table (hours or days a move) the deadline's date and time
// instead. At a table with a time bank the decision's own seconds count down to
// `bank_from`, then the mover's bank to `deadline` (when a bot takes over).
//
// The warning: in the last WARN_SECONDS of the mover's own time and while their bank
// drains the timer is urgent (class urgent, data-warning="true"); when this page holds the
// seat to move, the page title starts with "⏰ 12 s · " and a polite live region says it
// once (at WARN_SECONDS, and when the bank starts), not every second.
//
// Hooks: turn-timer (data-deadline, data-bank-from, data-seconds: of the part counting
// down, data-part = own | bank, data-warning, data-turn-based; hidden without a
// deadline); turn-warning (the live region, visually hidden).

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** Seconds before the own time runs out from which the timer warns. */
export const WARN_SECONDS = 15;

export class TurnTimer {
  /** node: the element to fill; who(table) names the seat to move; mine(table): whether
   * this page plays the seat to move. */
  constructor(node, who, mine = () => false) {
    this.node = node;
    this.who = who;
    this.mine = mine;
    this.deadline = null;
    this.bankFrom = null;
    this.table = null;
    this.interval = null;
    this.base = document.title;
    this.prefix = "";
    this.said = "";
    this.live = el("p", { class: "visually-hidden", "data-testid": "turn-warning", role: "status", "aria-live": "polite" });
    node.after(this.live);
  }

  /** Follow a table: start, move or stop the countdown. */
  update(table) {
    this.table = table;
    const playing = table?.status === "playing";
    const deadline = playing && table.deadline ? Date.parse(table.deadline) : NaN;
    const bankFrom = playing && table.bank_from ? Date.parse(table.bank_from) : NaN;
    this.deadline = Number.isFinite(deadline) ? deadline : null;
    this.bankFrom = Number.isFinite(bankFrom) ? bankFrom : null;
    this.node.dataset.deadline = table?.deadline ?? "";
    this.node.dataset.bankFrom = table?.bank_from ?? "";
    if (this.deadline === null) {
      clearInterval(this.interval);
      this.interval = null;
      this.node.hidden = true;
      this.warn(null);
      return;
    }
    this.node.hidden = false;
    if (!this.interval) this.interval = setInterval(() => this.tick(), 250);
    this.tick();
  }

  /** The page's title without the warning (the page sets it; the timer prefixes it). */
  title(base) {
    this.base = base;
    this.showTitle(this.prefix);
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
      this.warn(null);
      return;
    }
    this.node.dataset.turnBased = "false";
    const now = Date.now();
    const inBank = this.bankFrom !== null && now >= this.bankFrom;
    const end = this.bankFrom === null || inBank ? this.deadline : this.bankFrom;
    const seconds = Math.max(0, Math.ceil((end - now) / 1000));
    const who = this.who(this.table);
    const bank = Math.round((this.deadline - (this.bankFrom ?? this.deadline)) / 1000);
    this.node.dataset.seconds = String(seconds);
    this.node.dataset.part = inBank ? "bank" : "own";
    if (inBank) this.node.textContent = t("timer.bank", { who, seconds });
    else if (bank > 0) this.node.textContent = t("timer.left_bank", { who, seconds, bank });
    else this.node.textContent = t("timer.left", { who, seconds });
    this.warn(inBank || seconds <= WARN_SECONDS ? { inBank, seconds } : null);
  }

  /** Show (or end) the warning: urgent style; for this page's own move the title and,
   * once per stage of a decision, the live region. */
  warn(state) {
    this.node.classList.toggle("urgent", state !== null);
    this.node.dataset.warning = String(state !== null);
    const mine = state !== null && this.mine(this.table);
    const { inBank = false, seconds = 0 } = state ?? {};
    this.showTitle(mine ? t(inBank ? "timer.title_bank" : "timer.title", { seconds }) : "");
    const stage = mine ? `${this.table.version}:${inBank ? "bank" : "own"}` : "";
    if (stage && stage !== this.said) {
      this.live.textContent = inBank ? t("timer.say_bank", { seconds }) : t("timer.say_own", { seconds });
    } else if (!stage) {
      this.live.textContent = "";
    }
    this.said = stage;
  }

  showTitle(prefix) {
    this.prefix = prefix;
    const title = `${prefix}${this.base}`;
    if (document.title !== title) document.title = title;
  }
}
