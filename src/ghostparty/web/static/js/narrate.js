// The engine's events in words, in the page's language (the client's twin of
// ghostparty.rules.narrate, which tells the same in English for logs and terminals).

import { t, tn } from "./i18n.js";

const COLOURS = ["red", "blue", "turquoise", "yellow", "black", "green", "white", "purple"];

/** A seat by its colour, capitalised: "Red" / "Rot". */
export function colour(seat) {
  const name = COLOURS[seat];
  return name ? t(`colour.${name}`) : t("colour.seat", { n: seat });
}

function seats(list) {
  const names = [...new Set(list)].map(colour);
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
export function describe(event) {
  switch (event.type) {
    case "placed":
      return t("narrate.placed", { who: colour(event.seat), square: event.square });
    case "rolled":
      return t("narrate.rolled", { who: colour(event.seat), face: face(event.face) });
    case "guest_moved":
      return t("narrate.moved", { who: colour(event.seat), from: place(event.source), to: place(event.target) });
    case "room_entered": {
      const key = event.shield === "red" ? "narrate.entered_red" : event.shield === "green" ? "narrate.entered_green" : "narrate.entered";
      return t(key, { who: colour(event.seat), room: place(event.room) });
    }
    case "guest_expelled":
      return t("narrate.expelled", { who: colour(event.seat), room: place(event.room), square: event.square });
    case "captured":
      return tn("narrate.captured", event.seats.length, {
        who: seats(event.seats),
        square: event.square,
        step: place(event.step),
        points: event.points,
      });
    case "score_changed":
      return t("narrate.score", { who: colour(event.seat), old: event.old, new: event.new });
    case "clock_advanced":
      return event.speed === null || event.speed === undefined
        ? t("narrate.clock_end", { time: event.time })
        : t("narrate.clock", { time: event.time, speed: event.speed });
    case "passed":
      return t(event.chosen ? "narrate.passed" : "narrate.cannot_move", { who: colour(event.seat) });
    case "sent_to_cellar":
      return t("narrate.wine_cellar", { who: colour(event.seat), square: event.square, step: place(event.step) });
    case "round_ended": {
      const scores = event.scores.map((p, s) => `${colour(s)} ${p > 0 ? "+" : ""}${p}`).join(", ");
      return t("narrate.round_ended", { round: event.round, scores });
    }
    case "round_started":
      return t("narrate.round_started", { round: event.round, who: colour(event.first_player) });
    case "game_over": {
      const scores = event.scores.map((p, s) => `${colour(s)} ${p}`).join(", ");
      return t("narrate.game_over", { why: t(`narrate.why.${event.reason}`), who: seats(event.winners), scores });
    }
    default:
      return null;
  }
}

/** An action's events as sentences; Hugo's steps become one line per move. */
export function narrate(events) {
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
    const text = describe(event);
    if (text) lines.push(text);
  }
  return lines;
}

/** An action alone in words (for log entries that come without their events). */
export function describeAction(seat, action) {
  const who = colour(seat);
  if ("roll" in action) return t("narrate.rolled", { who, face: face(action.roll) });
  if ("place" in action) return t("narrate.placed", { who, square: action.place });
  if ("from" in action) return t("narrate.moved", { who, from: place(action.from), to: place(action.to) });
  if ("pass" in action) return t("narrate.passed", { who });
  return who;
}
