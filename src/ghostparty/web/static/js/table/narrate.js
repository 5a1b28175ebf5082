// The game's story in the page's language: the engine's events as sentences, told the
// same way live and in a replay, with the players' names. The server sends only events
// (docs/PROTOCOL.md); ghostparty.rules.narrate tells them in English for the terminal.
//
// `who(seat)` names a seat in every function here (seats.js actorName: "Ann", or the
// colour where there is no name); it defaults to the colour.

import { t, tn } from "../lib/i18n.js";
import { colourText } from "./seats.js";

function listOf(seats, who) {
  const names = [...new Set(seats)].map(who);
  if (names.length <= 1) return names[0] ?? "";
  return t("narrate.and", { a: names.slice(0, -1).join(", "), b: names[names.length - 1] });
}

/** A location in words: a gallery square stays "G12"; rooms and steps get their names. */
export function place(loc) {
  if (!loc) return "";
  if (loc.startsWith("R:")) return t(`room.${loc.slice(2)}`);
  if (loc === "START") return t("board.start");
  if (loc.startsWith("C")) return t("narrate.step", { n: loc.slice(1) });
  return loc;
}

function face(value) {
  return value === "hugo" ? "HUGO" : String(value);
}

/** One event as a sentence, or null for Hugo's single steps and turn starts. */
export function describe(event, who = colourText) {
  switch (event.type) {
    case "placed":
      return t("narrate.placed", { who: who(event.seat), square: event.square });
    case "rolled":
      return t("narrate.rolled", { who: who(event.seat), face: face(event.face) });
    case "guest_moved":
      return t("narrate.moved", { who: who(event.seat), from: place(event.source), to: place(event.target) });
    case "room_entered": {
      const key = event.shield === "red" ? "narrate.entered_red" : event.shield === "green" ? "narrate.entered_green" : "narrate.entered";
      return t(key, { who: who(event.seat), room: place(event.room) });
    }
    case "guest_expelled":
      return t("narrate.expelled", { who: who(event.seat), room: place(event.room), square: event.square });
    case "captured":
      return tn("narrate.captured", event.seats.length, {
        who: listOf(event.seats, who),
        square: event.square,
        step: place(event.step),
        points: event.points,
      });
    case "score_changed":
      return t("narrate.score", { who: who(event.seat), old: event.old, new: event.new });
    case "clock_advanced":
      return event.speed === null || event.speed === undefined
        ? t("narrate.clock_end", { time: event.time })
        : t("narrate.clock", { time: event.time, speed: event.speed });
    case "passed":
      return t(event.chosen ? "narrate.passed" : "narrate.cannot_move", { who: who(event.seat) });
    case "sent_to_cellar":
      return t("narrate.wine_cellar", { who: who(event.seat), square: event.square, step: place(event.step) });
    case "round_ended": {
      const scores = event.scores.map((p, s) => `${who(s)} ${p > 0 ? "+" : ""}${p}`).join(", ");
      return t("narrate.round_ended", { round: event.round, scores });
    }
    case "round_started":
      return t("narrate.round_started", { round: event.round, who: who(event.first_player) });
    case "game_over": {
      const scores = event.scores.map((p, s) => `${who(s)} ${p}`).join(", ");
      const why = t(`narrate.why.${event.reason}`, { top: Math.max(...event.scores) }); // "a score reached 48"
      return tn("narrate.game_over", new Set(event.winners).size, { why, who: listOf(event.winners, who), scores });
    }
    default:
      return null;
  }
}

/** An action's events as sentences; Hugo's steps become one line per move. */
export function narrate(events, who = colourText) {
  const lines = [];
  const path = events.filter((e) => e.type === "hugo_moved").map((e) => e.target);
  let told = false;
  for (const event of events) {
    if (event.type === "hugo_moved") {
      if (!told) lines.push(t("narrate.hugo", { n: path.length, path: path.join(" ") }));
      told = true;
      continue;
    }
    if (event.type === "turn_started") continue;
    const text = describe(event, who);
    if (text) lines.push(text);
  }
  return lines;
}

/**
 * What a move would do, in a few words each (docs/PROTOCOL.md `effects`): caught by
 * Hugo, expelling someone, a shield's points, the end of the round or of the game.
 */
export function effectNotes(events, who = colourText) {
  const notes = [];
  for (const event of events ?? []) {
    if (event.type === "captured") notes.push(t("effect.caught", { points: event.points }));
    else if (event.type === "guest_expelled") notes.push(t("effect.expels", { who: who(event.seat) }));
    else if (event.type === "room_entered" && event.shield === "red") notes.push(t("effect.red"));
    else if (event.type === "room_entered" && event.shield === "green") notes.push(t("effect.green"));
    else if (event.type === "game_over") notes.push(t("effect.game_over"));
    else if (event.type === "round_ended") notes.push(t("effect.round_over"));
  }
  if (notes.includes(t("effect.game_over"))) return notes.filter((note) => note !== t("effect.round_over"));
  return notes;
}
