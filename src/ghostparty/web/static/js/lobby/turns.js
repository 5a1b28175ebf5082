// Games over days (turn-based tables): the lobby's "Your games" with the ones where it
// is your move first, their count in the page title, and a browser notification when
// it becomes your move (Web Notifications, permission asked from a button only).
//
// Hooks for tests (data-testid): my-games-card, my-games (list), my-game per table
// (data-table, data-your-move), my-game-link; notify-button (shown while the browser
// may still be asked).

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { syncList } from "../lib/patch.js";
import { heldSeats } from "../lib/store.js";

/** Guests: at most this many of the tables whose tokens this browser keeps are asked about. */
const GUEST_TABLES = 6;
const REFRESH_MS = 15000;
const $ = (id) => document.getElementById(id);
/** Tables found over, closed or gone: not asked about again on this page. */
const finished = new Set();

/** Whether the browser may show notifications (permission given). */
export function mayNotify() {
  return typeof Notification === "function" && Notification.permission === "granted";
}

/** Show a button that asks for the notifications' permission (never asked on load). */
export function notifyButton(button) {
  if (!button) return;
  const offer = () => {
    button.hidden = typeof Notification !== "function" || Notification.permission !== "default";
  };
  offer();
  button.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } catch {
      // An old browser's callback form: nothing more to do.
    }
    offer();
  });
}

/** A notification that it is your move at a table (one per table: a newer one replaces it). */
export function notifyYourMove(tableId, body) {
  if (!mayNotify()) return;
  try {
    const note = new Notification(t("notify.your_move"), { body, tag: `ghostparty:${tableId}`, icon: "/static/ghost.svg" });
    note.onclick = () => {
      window.focus();
      if (!location.pathname.startsWith(`/t/${tableId}`)) location.href = `/t/${encodeURIComponent(tableId)}`;
      note.close();
    };
  } catch {
    // Some browsers only notify from a service worker: the title's count still tells.
  }
}

/** The page title with the number of games where it is your move: "(2) Ghost Party". */
export function countedTitle(base, count) {
  return count > 0 ? `(${count}) ${base}` : base;
}

/**
 * The games this person plays: a logged-in player's from their profile (`tables`, with
 * `your_move`), a guest's from the seat tokens this browser keeps. Open and running
 * tables only: [{id, rules, status, your_move}], your move first.
 */
export async function myGames(player) {
  let games;
  if (player) {
    const profile = await api.player(player.name);
    games = (profile.tables ?? []).map((g) => ({ id: g.id, rules: g.rules, status: g.status, your_move: Boolean(g.your_move) }));
  } else {
    const seats = new Map();
    for (const { table, seat } of heldSeats()) {
      if (!seats.has(table)) seats.set(table, new Set());
      seats.get(table).add(seat);
    }
    const ids = [...seats.keys()].filter((id) => !finished.has(id)).slice(0, GUEST_TABLES);
    const answers = await Promise.all(ids.map((id) => api.table(id).catch(() => null)));
    games = [];
    answers.forEach((answer, i) => {
      const table = answer?.table;
      if (!table || !["open", "playing"].includes(table.status)) {
        finished.add(ids[i]);
        return;
      }
      const mine = table.status === "playing" && seats.get(table.id).has(table.to_move) && !table.seats[table.to_move]?.away;
      games.push({ id: table.id, rules: table.rules, status: table.status, your_move: mine, turn_based: table.turn_based });
    });
  }
  return games.filter((g) => g.status === "open" || g.status === "playing").sort((a, b) => Number(b.your_move) - Number(a.your_move));
}

/** The lobby's "Your games" card, its title count and notifications, kept fresh. */
export class MyGames {
  constructor(baseTitle) {
    this.baseTitle = baseTitle;
    this.player = null;
    this.known = null; // ids where it was your move at the last look (null: not looked yet)
    this.ready = false; // whether the session is known (a guest or a player)
  }

  mount() {
    notifyButton($("notify-button"));
    setInterval(() => this.refresh(), REFRESH_MS);
  }

  usePlayer(player) {
    this.player = player;
    this.ready = true;
    this.known = null;
    this.refresh();
  }

  async refresh() {
    if (!this.ready) return; // also while hidden: that is when a notification matters
    let games;
    try {
      games = await myGames(this.player);
    } catch {
      return; // the next refresh tries again
    }
    const card = $("my-games-card");
    card.hidden = games.length === 0;
    // Patched in place (js/lib/patch.js): the refresh every 15 s keeps the keyboard's focus.
    syncList(
      $("my-games"),
      games.map((game) => {
        const title = t(`rules.${game.rules}`);
        const state = game.status === "open" ? t("mine.open") : game.your_move ? t("mine.your_move") : t("mine.waiting");
        const tag = game.your_move ? el("span", { class: "tag tag-you" }, t("mine.your_move")) : el("span", { class: "hint" }, state);
        // One's own table is played or gone back to, never "watched".
        const action = t(game.your_move ? "mine.play" : "mine.go");
        const label = t("mine.link_name", { action, game: title, state, table: t("table.name", { id: game.id }) });
        return el(
          "li",
          { "data-testid": "my-game", "data-table": game.id, "data-key": game.id, "data-your-move": game.your_move ? "true" : "false", class: game.your_move ? "my-move" : "" },
          el("div", { class: "table-info" }, el("strong", {}, title), " ", tag, el("div", { class: "table-people" }, t("table.name", { id: game.id }))),
          el("a", { class: "button", href: `/t/${encodeURIComponent(game.id)}`, "data-testid": "my-game-link", "aria-label": label }, action),
        );
      }),
    );
    const mine = games.filter((g) => g.your_move);
    document.title = countedTitle(this.baseTitle, mine.length);
    if (this.known !== null) {
      for (const game of mine) if (!this.known.has(game.id)) notifyYourMove(game.id, t(`rules.${game.rules}`));
    }
    this.known = new Set(mine.map((g) => g.id));
  }
}
