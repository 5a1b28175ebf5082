// How often registered people finished their games (GET /api/records), for the seats of
// a table: "finished 97 %" next to the name once they have played SEAT_FROM games, so one
// early disconnect doesn't label a newcomer. Asked once a name per page; a page that
// shows seats calls `wantRecords(names, redraw)` on every render and `seatRecord(info)`
// for each seat.
//
// Hooks for tests (data-testid): seat-record (data-percent, data-games).

import { api } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";

/** Games from which a seat shows its player's record. */
export const SEAT_FROM = 5;

const known = new Map(); // name → {games, finished, percent} or null (a guest, a bot, unknown)
const asked = new Set();
const botAccounts = new Set(); // the names among them that are bot accounts (the Bot API)

/** Ask for the records of these names (at most once each); `redraw` when they arrive. */
export function wantRecords(names, redraw) {
  const fresh = [...new Set(names.filter((name) => name && !asked.has(name)))].slice(0, 8);
  if (!fresh.length) return;
  fresh.forEach((name) => asked.add(name));
  api.records(fresh).then(
    (answer) => {
      for (const name of fresh) known.set(name, answer.players?.[name] ?? null);
      for (const name of answer.bots ?? []) botAccounts.add(name);
      redraw();
    },
    () => fresh.forEach((name) => asked.delete(name)), // asked again on the next render
  );
}

/** "finished 97 % of 120 games" (the profile's words). */
export function recordText(record) {
  return tn("record.finished", record.games, { percent: record.percent });
}

/** The tag of a seat's registered player, or null (a guest, a bot, too few games, not known yet). */
export function seatRecord(info) {
  const record = info?.player ? known.get(info.player) : null;
  if (!record || record.games < SEAT_FROM || record.percent === null) return null;
  return el(
    "span",
    {
      class: `tag tag-record${record.percent < 90 ? " tag-record-low" : ""}`,
      "data-testid": "seat-record",
      "data-percent": record.percent,
      "data-games": record.games,
      title: recordText(record),
    },
    el("span", { "aria-hidden": "true" }, t("record.seat", { percent: record.percent })),
    el("span", { class: "visually-hidden" }, recordText(record)),
  );
}

/** Whether the name (asked for with wantRecords) is a bot account's. */
export function isBotAccount(name) {
  return Boolean(name) && botAccounts.has(name);
}

/** The BOT tag beside a bot account's name (a program playing through the Bot API), or null. */
export function botTag(name) {
  if (!isBotAccount(name)) return null;
  return el("span", { class: "tag tag-bot", "data-testid": "bot-tag", title: t("seat.bot_account_title") }, t("seat.bot_account"));
}
