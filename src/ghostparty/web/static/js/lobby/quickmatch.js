// "Play now" in the lobby: wait in the quick-match queue (docs/PROTOCOL.md, Quick-match)
// until the server seats this player at a table with strangers, then go there.
//
// Hooks for tests (data-testid): quick-card (the section; hidden on a server without a
// database), qm-rules, qm-players ("" = any), qm-rated (shown when logged in), qm-allow-bots
// (bot accounts welcome), qm-bots
// (seconds before bots fill the seats; "" = never), qm-name (a guest's name), play-now,
// qm-error; qm-waiting (the waiting panel: data-ticket-state = waiting | seated),
// qm-elapsed (data-seconds), qm-range (the accepted ratings, rated only), qm-leave;
// qm-counts (how many wait: qm-count per setting, data-rules/data-players/data-rated/
// data-count).

import { api } from "../lib/api.js";
import { el, fill } from "../lib/dom.js";
import { errorText, t, tn } from "../lib/i18n.js";
import { loadName, saveName, saveToken } from "../lib/store.js";

const LOOK_MS = 2000;
const COUNTS_MS = 5000;
const $ = (id) => document.getElementById(id);

/** "1:05" for 65 seconds. */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** How a queue setting reads: "Hugo · 2 players · rated". */
function settingText({ rules, players, rated }) {
  const who = players === null || players === undefined ? t("quick.any_players") : tn("quick.n_players", players);
  return [t(`rules.${rules}`), who, rated ? t("account.rated") : null].filter(Boolean).join(" · ");
}

export class QuickMatch {
  constructor() {
    this.player = null; // the logged-in account, or null for a guest
    this.ticket = null;
    this.waited = 0; // seconds, as the server last said
    this.since = 0; // performance.now() of that answer
    this.lookTimer = null;
    this.tickTimer = null;
    this.countsTimer = null;
  }

  /** Build the card's choices, wire its buttons, and start showing the queue's counts. */
  mount() {
    const players = $("qm-players");
    fill(players, el("option", { value: "" }, t("quick.any_players")), ...[2, 3, 4, 5, 6, 7, 8].map((n) => el("option", { value: String(n) }, String(n))));
    players.value = "2";
    const name = $("qm-name");
    name.value = loadName();
    // The lobby has two name fields (here and in the create form): they stay one.
    const other = $("your-name");
    name.addEventListener("input", () => {
      if (other && !other.readOnly) other.value = name.value;
    });
    other?.addEventListener("input", () => {
      name.value = other.value;
    });
    $("play-now").addEventListener("click", () => this.join());
    $("qm-leave").addEventListener("click", () => this.leave());
    // Closing or leaving the page leaves the queue (a beacon outlives the page).
    window.addEventListener("pagehide", () => {
      // Sent as JSON (the server takes no other type); a page's own origin may beacon it.
      if (this.ticket) {
        const body = new Blob([JSON.stringify({ ticket: this.ticket })], { type: "application/json" });
        navigator.sendBeacon("/api/match/leave", body);
      }
    });
    this.refreshCounts();
    this.countsTimer = setInterval(() => this.refreshCounts(), COUNTS_MS);
    document.addEventListener("visibilitychange", () => this.refreshCounts());
  }

  /** Logged in: rated games on offer, and the account's name instead of a guest's. */
  usePlayer(player) {
    this.player = player;
    $("qm-rated-field").hidden = !player;
    $("qm-name-field").hidden = Boolean(player);
    if (!player) $("qm-rated").checked = false;
  }

  showError(text) {
    const node = $("qm-error");
    node.textContent = text ?? "";
    node.hidden = !text;
  }

  async join() {
    this.showError(null);
    const name = $("qm-name").value.trim();
    if (!this.player && !name) {
      this.showError(t("lobby.need_name"));
      $("qm-name").focus();
      return;
    }
    const players = $("qm-players").value;
    const bots = $("qm-bots").value;
    const body = {
      rules: $("qm-rules").value,
      players: players === "" ? null : Number(players),
      rated: Boolean(this.player) && $("qm-rated").checked,
      bots_after: bots === "" ? null : Number(bots),
      allow_bots: $("qm-allow-bots").checked,
    };
    if (!this.player) body.name = name;
    const button = $("play-now");
    button.disabled = true;
    try {
      // Through api.js's request: a logged-in player's POST carries the CSRF header.
      const answer = await api.quickMatch(body);
      if (!this.player) saveName(name);
      this.ticket = answer.ticket;
      this.showWaiting(true, body);
      this.onAnswer(answer);
      this.refreshCounts();
    } catch (error) {
      this.showError(errorText(error));
      button.disabled = false;
    }
  }

  showWaiting(on, body = null) {
    $("qm-form").hidden = on;
    const panel = $("qm-waiting");
    panel.hidden = !on;
    panel.dataset.ticketState = on ? "waiting" : "";
    $("play-now").disabled = on;
    if (body) $("qm-setting").textContent = settingText(body);
    clearInterval(this.tickTimer);
    clearTimeout(this.lookTimer);
    if (on) {
      this.tickTimer = setInterval(() => this.tick(), 1000);
      $("qm-leave").focus();
    }
  }

  tick() {
    const seconds = this.waited + (performance.now() - this.since) / 1000;
    const node = $("qm-elapsed");
    node.dataset.seconds = String(Math.floor(seconds));
    node.textContent = t("quick.waited", { time: clock(seconds) });
  }

  /** A look's (or the join's) answer: still waiting (ask again soon), or seated (go). */
  onAnswer(answer) {
    if (!this.ticket) return;
    if (answer.status === "seated") {
      this.seated(answer);
      return;
    }
    this.waited = answer.waited ?? 0;
    this.since = performance.now();
    this.tick();
    const range = $("qm-range");
    range.hidden = !answer.range;
    if (answer.range) range.textContent = t("quick.range", { low: answer.range[0], high: answer.range[1] });
    this.lookTimer = setTimeout(() => this.look(), LOOK_MS);
  }

  async look() {
    const ticket = this.ticket;
    if (!ticket) return;
    try {
      const answer = await api.matchLook(ticket);
      if (ticket === this.ticket) this.onAnswer(answer);
    } catch (error) {
      if (ticket !== this.ticket) return;
      if (error.code === "unknown_ticket") {
        // Out of the queue (this page was asleep for too long): say so, offer to ask again.
        this.ticket = null;
        this.showWaiting(false);
        this.showError(t("quick.lost"));
        return;
      }
      this.lookTimer = setTimeout(() => this.look(), LOOK_MS); // a network blip: ask again
    }
  }

  seated(answer) {
    this.ticket = null;
    clearInterval(this.tickTimer);
    $("qm-waiting").dataset.ticketState = "seated";
    $("qm-elapsed").textContent = t("quick.seated");
    saveToken(answer.table, answer.seat, answer.token);
    location.href = `/t/${encodeURIComponent(answer.table)}`;
  }

  async leave() {
    const ticket = this.ticket;
    this.ticket = null;
    this.showWaiting(false);
    $("play-now").focus();
    if (!ticket) return;
    try {
      await api.matchLeave(ticket);
    } catch {
      // Gone already: a page that stops asking leaves the queue by itself.
    }
    this.refreshCounts();
  }

  async refreshCounts() {
    if (document.hidden) return;
    try {
      const answer = await api.matchWaiting();
      $("quick-card").hidden = false;
      const rows = (answer.waiting ?? []).filter((row) => row.count > 0);
      fill(
        $("qm-counts"),
        ...(rows.length
          ? rows.map((row) =>
              el(
                "li",
                {
                  "data-testid": "qm-count",
                  "data-rules": row.rules,
                  "data-players": row.players ?? "",
                  "data-rated": row.rated ? "true" : "false",
                  "data-count": row.count,
                },
                settingText(row),
                ": ",
                el("strong", {}, tn("quick.waiting_count", row.count)),
              ),
            )
          : [el("li", { class: "empty" }, t("quick.nobody_waiting"))]),
      );
    } catch (error) {
      if (error.status === 501) {
        // A server without a database keeps no queue: no "Play now" here.
        $("quick-card").hidden = true;
        clearInterval(this.countsTimer);
      }
    }
  }
}
