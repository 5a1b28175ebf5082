// Seat colours and letters (RULES.md §1.5) as GET /api/boards/{rules} draws them (its
// colours and palette: the one place they are set, checked for colour vision by
// tests/server/wire/test_palette.py), and how to name a seat in the page's language.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const LETTER = { black: "K" };

let colours = [];
let palette = {};

/** Take the seats' colour names and palette from a board (GET /api/boards/{rules}). */
export function useBoard(board) {
  if (Array.isArray(board?.colours) && board.colours.length) colours = board.colours;
  if (board?.palette && typeof board.palette === "object") palette = board.palette;
}

/** The colour's id: "red", "blue", … (not translated; see colourText). */
export function colourName(seat) {
  return colours[seat] ?? `seat ${seat}`;
}

/** The colour in the page's language, capitalised: "Red" / "Rot". */
export function colourText(seat) {
  const name = colours[seat];
  return name ? t(`colour.${name}`) : t("colour.seat", { n: seat });
}

export function colourHex(seat) {
  return palette[colourName(seat)]?.fill ?? "#888888";
}

/** The colour the seat's letter is written in on its colour (the palette's ink). */
export function inkOn(seat) {
  return palette[colourName(seat)]?.ink ?? "#ffffff";
}

/** The seat's letter: R B T Y K G W P (the game's letters in every language). */
export function seatLetter(seat) {
  const name = colourName(seat);
  return LETTER[name] ?? name.charAt(0).toUpperCase();
}

/** Who sits there: the person's name, "greedy bot", or null for an empty seat. */
export function seatName(table, seat) {
  const info = table?.seats?.[seat];
  if (!info) return null;
  if (info.kind === "bot") return t("seat.bot_name", { level: t(`bot.${info.bot}`) });
  return info.name || null;
}

/** "Red · Ann", "Blue · greedy bot", "Red · (empty)". */
export function seatLabel(table, seat) {
  return t("seat.label", { colour: colourText(seat), name: seatName(table, seat) ?? t("seat.empty") });
}

/** The player's name if any ("Ann (bot playing)" while a bot plays for them), else the colour. */
export function seatShort(table, seat) {
  const name = seatName(table, seat);
  if (name && table.seats[seat]?.away) return t("seat.away_label", { name });
  return name ?? colourText(seat);
}

/**
 * How the game's story names a seat: the person's name, else the colour ("Ann rolls 4",
 * "Blue rolls 4"); a table is optional (an uploaded record has no names).
 */
export function actorName(table, seat) {
  const info = table?.seats?.[seat];
  return info?.kind === "human" && info.name ? info.name : colourText(seat);
}

/** Whether a person sits there as a guest: a name but no account (the table view's
 * `player` is the account's name, null for a guest). */
export function isGuest(info) {
  return info?.kind === "human" && Boolean(info.name) && !info.player;
}

/** The tag beside a guest's name: anyone may take any free name as a guest. */
export function guestTag() {
  return el("span", { class: "tag tag-guest", "data-testid": "guest-tag", title: t("seat.guest_title") }, t("seat.guest"));
}
