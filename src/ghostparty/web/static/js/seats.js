// Seat colours and letters (RULES.md §1.5), and how to name a seat in the page's language.

import { t } from "./i18n.js";

const HEX = {
  red: "#d8413a",
  blue: "#3a74d8",
  turquoise: "#2bb3a8",
  yellow: "#f2c53d",
  black: "#2a2a2e",
  green: "#3fa04f",
  white: "#f3f0e8",
  purple: "#9155c9",
};

const LETTER = { black: "K" };

const LIGHT = new Set(["yellow", "white", "turquoise"]);

const DEFAULT_COLOURS = ["red", "blue", "turquoise", "yellow", "black", "green", "white", "purple"];

let colours = DEFAULT_COLOURS;

/** Use the colour names of the board endpoint. */
export function setColours(names) {
  if (Array.isArray(names) && names.length) colours = names;
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
  return HEX[colourName(seat)] ?? "#888";
}

/** The seat's letter: R B T Y K G W P (the game's letters in every language). */
export function seatLetter(seat) {
  const name = colourName(seat);
  return LETTER[name] ?? name.charAt(0).toUpperCase();
}

/** Text colour that reads on the seat's colour. */
export function inkOn(seat) {
  return LIGHT.has(colourName(seat)) ? "#1d1a22" : "#ffffff";
}

/** Who sits there: the person's name, "greedy bot", or null for an empty seat. */
export function seatName(table, seat) {
  const info = table?.seats?.[seat];
  if (!info) return null;
  if (info.kind === "bot") return t("seat.bot_name", { level: t(`bot.${info.bot}`) });
  if (!info.name) return null;
  return info.away ? t("seat.away_label", { name: info.name }) : info.name;
}

/** "Red · Ann", "Blue · greedy bot", "Red · (empty)". */
export function seatLabel(table, seat) {
  return t("seat.label", { colour: colourText(seat), name: seatName(table, seat) ?? t("seat.empty") });
}

/** The player's name if any, else the colour. */
export function seatShort(table, seat) {
  return seatName(table, seat) ?? colourText(seat);
}
