// The puzzles page's pure parts (src/ghostparty/web/static/js/puzzles/logic.js): what an
// address asks for, what may be clicked on the board, the reason's language and a
// guest's streak kept in the browser.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  addressRequest,
  boardTargets,
  countGuestStreak,
  GUEST_STREAK_KEY,
  pickOn,
  readGuestStreak,
  reasonText,
  sameAction,
} from "../../src/ghostparty/web/static/js/puzzles/logic.js";

const POSITION = {
  format: "hugo-position/1",
  rules: "hugo",
  players: 2,
  phase: "move",
  to_move: 0,
  roll: 4,
  hugo: "START",
  guests: [["G0", "G2", "R:blue"], ["G1", "G3"]],
};
const LEGAL = [
  { from: "G0", to: "G4" },
  { from: "G2", to: "G6" },
  { from: "G2", to: "R:red" },
];
const PUZZLE = { id: "abc", rules: "hugo", players: 2, position: POSITION, phase: "move", to_move: 0, roll: 4, legal: LEGAL };
const LOCATIONS = ["START", "G0", "G1", "G2", "G3", "G4", "G5", "G6", "R:red", "R:blue", "C1"];

class Storage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

test("the address asks for the daily puzzle, one by id, or the next", () => {
  assert.deepEqual(addressRequest("", "#daily"), { daily: true });
  assert.deepEqual(addressRequest("?daily", ""), { daily: true });
  assert.deepEqual(addressRequest("?daily=1", "#id=x"), { daily: true });
  assert.deepEqual(addressRequest("", "#id=0a1b2c3d4e5f"), { id: "0a1b2c3d4e5f" });
  assert.deepEqual(addressRequest("?id=0a1b", ""), { id: "0a1b" });
  assert.deepEqual(addressRequest("", ""), {});
  assert.deepEqual(addressRequest(undefined, "#"), {});
});

test("the address asks for one's own mistakes: every recent game's, or one game's", () => {
  assert.deepEqual(addressRequest("", "#mistakes"), { mistakes: true, table: null });
  assert.deepEqual(addressRequest("?mistakes=ab_12", ""), { mistakes: true, table: "ab_12" });
  assert.deepEqual(addressRequest("?mistakes", "#daily"), { mistakes: true, table: null });
  assert.deepEqual(addressRequest("", "#mistakes=t9"), { mistakes: true, table: "t9" });
});

test("with the legal actions, the board offers exactly their guests and targets", () => {
  const none = boardTargets(PUZZLE, null, LOCATIONS);
  assert.deepEqual([...none.sources], ["G0", "G2"]);
  assert.equal(none.dests.size, 0);
  const chosen = boardTargets(PUZZLE, "G2", LOCATIONS);
  assert.deepEqual([...chosen.dests], ["G6", "R:red"]);
  assert.equal(chosen.selected, "G2");
  assert.equal(boardTargets(PUZZLE, "G1", LOCATIONS).selected, null, "not a guest that may move");
});

test("clicks choose a guest, change it, let it go, and complete a move", () => {
  assert.deepEqual(pickOn(PUZZLE, null, "G2", LOCATIONS), { selected: "G2" });
  assert.deepEqual(pickOn(PUZZLE, "G2", "G0", LOCATIONS), { selected: "G0" });
  assert.deepEqual(pickOn(PUZZLE, "G2", "G2", LOCATIONS), { selected: null });
  assert.deepEqual(pickOn(PUZZLE, "G2", "R:red", LOCATIONS), { action: { from: "G2", to: "R:red" } });
  assert.deepEqual(pickOn(PUZZLE, "G0", "G6", LOCATIONS), { selected: null }, "not where G0 goes");
});

test("placements: a free gallery square is the action", () => {
  const place = { ...PUZZLE, phase: "place", roll: null, legal: [{ place: "G5" }, { place: "G6" }] };
  assert.deepEqual([...boardTargets(place, null, LOCATIONS).places], ["G5", "G6"]);
  assert.deepEqual(pickOn(place, null, "G6", LOCATIONS), { action: { place: "G6" } });
  const unknown = { ...place, legal: undefined, position: { ...POSITION, phase: "place" } };
  assert.deepEqual([...boardTargets(unknown, null, LOCATIONS).places], ["G4", "G5", "G6"], "free squares, not Hugo's start or a room");
});

test("without the legal actions, any guest of the mover and then any location is offered", () => {
  const unknown = { ...PUZZLE, legal: undefined };
  assert.deepEqual([...boardTargets(unknown, null, LOCATIONS).sources], ["G0", "G2", "R:blue"]);
  const dests = boardTargets(unknown, "G0", LOCATIONS).dests;
  assert.ok(dests.has("G4") && dests.has("R:red") && dests.has("G2") && dests.has("C1"));
  assert.ok(!dests.has("G0") && !dests.has("START") && !dests.has("R:blue"), "not itself, Hugo's start or its own room");
  assert.deepEqual(pickOn(unknown, "G0", "G5", LOCATIONS), { action: { from: "G0", to: "G5" } });
});

test("the reason is the page's language's, else English's", () => {
  const reason = { en: "It hides the guest.", de: "Er versteckt den Gast." };
  assert.equal(reasonText(reason, "de"), "Er versteckt den Gast.");
  assert.equal(reasonText(reason, "fr"), "It hides the guest.");
  assert.equal(reasonText(null, "en"), "");
});

test("actions are the same whatever the order of their keys", () => {
  assert.ok(sameAction({ from: "G0", to: "G4" }, { to: "G4", from: "G0" }));
  assert.ok(!sameAction({ from: "G0", to: "G4" }, { from: "G0", to: "G5" }));
  assert.ok(!sameAction({ place: "G1" }, null));
});

test("a guest's streak counts each puzzle once, resets when wrong, keeps the best", () => {
  const storage = new Storage();
  assert.deepEqual(readGuestStreak(storage), { streak: 0, best: 0, seen: [] });
  assert.equal(countGuestStreak(storage, "a", true).streak, 1);
  assert.equal(countGuestStreak(storage, "b", true).streak, 2);
  assert.equal(countGuestStreak(storage, "b", true).streak, 2, "the same puzzle again counts nothing");
  const wrong = countGuestStreak(storage, "c", false);
  assert.deepEqual([wrong.streak, wrong.best], [0, 2]);
  assert.equal(readGuestStreak(storage).best, 2);
  storage.setItem(GUEST_STREAK_KEY, "{damaged");
  assert.equal(countGuestStreak(storage, "d", true).streak, 1);
});
