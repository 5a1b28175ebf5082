// The pieces as the page shows them (src/ghostparty/web/static/js/table/animate.js): an update's
// events played on the scene, and a full state laid over it while they play. Run by
// `node --test tests/js/` (tests/test_js.py runs it under pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import { play, Scene } from "../../src/ghostparty/web/static/js/table/animate.js";

/** A board that only records what it was asked to draw. */
function fakeBoard() {
  return {
    drawn: [],
    setGuests(guests) {
      this.drawn.push(guests.map(({ id, seat, loc }) => ({ id, seat, loc })));
    },
    setHugo() {},
    setHop() {},
    showDie() {},
    flash(loc) {
      this.flashed.push(loc);
    },
    flashed: [],
  };
}

/** The scene's guests as seat -> sorted locations, and each guest's id once. */
function shape(scene) {
  const bySeat = {};
  for (const guest of scene.guests) (bySeat[guest.seat] ??= []).push(guest.loc);
  for (const list of Object.values(bySeat)) list.sort();
  return bySeat;
}

/**
 * Play `events` from position `before`; once `ready(board)` holds, a full state with
 * `position` arrives (table.js onState: a new generation, the scene reconciled).
 * Returns the scene once the stopped animation has returned.
 */
async function interrupted(before, events, position, ready) {
  const scene = new Scene();
  scene.reconcile(before);
  const board = fakeBoard();
  let generation = 0;
  const mine = generation;
  const ui = {
    board,
    speed: () => "normal",
    isCurrent: () => generation === mine,
    score: () => {},
    clock: () => {},
    banner: () => {},
  };
  const done = play(events, scene, ui);
  while (!ready(board)) await new Promise((resolve) => setTimeout(resolve, 5));
  generation += 1; // the state: older animations stop
  scene.reconcile(position);
  await done;
  return scene;
}

const start = { guests: [["G9", "G1"], ["G4"]], hugo: "C10" };

test("a state that comes during a guest's last hop is not undone by the hop's end", async () => {
  // Ann's guest on G1 hops to G5 (through G2, G3, G4); on its last hop a state says
  // that it arrived and moved on to G8, and that her guest from G9 came to G5 since:
  // one guest of hers on G5, not two.
  const events = [{ type: "guest_moved", seat: 0, source: "G1", path: ["G2", "G3", "G4"], target: "G5" }];
  const later = { guests: [["G5", "G8"], ["G4"]], hugo: "C10" };
  const scene = await interrupted(start, events, later, (board) => board.drawn.length === 3);
  assert.deepEqual(shape(scene), { 0: ["G5", "G8"], 1: ["G4"] });
  assert.equal(new Set(scene.guests.map((g) => g.id)).size, scene.guests.length);
});

test("a state that comes while a capture is shown keeps the state's guests where they are", async () => {
  // Hugo catches Bob's guest on G4; while the square flashes a state says that the
  // guest went to step 10 and has left the cellar for G7 since.
  const events = [
    { type: "hugo_moved", target: "G4" },
    { type: "captured", square: "G4", step: "C10" },
  ];
  const later = { guests: [["G1", "G9"], ["G7"]], hugo: "G5" };
  const scene = await interrupted(start, events, later, (board) => board.flashed.length === 1);
  assert.deepEqual(shape(scene), { 0: ["G1", "G9"], 1: ["G7"] });
});

test("an uninterrupted animation ends on the position its events lead to", async () => {
  const scene = new Scene();
  scene.reconcile(start);
  const board = fakeBoard();
  const ui = { board, speed: () => "off", isCurrent: () => true, score: () => {}, clock: () => {}, banner: () => {} };
  await play([{ type: "guest_moved", seat: 0, source: "G1", path: ["G2"], target: "G3" }], scene, ui);
  assert.deepEqual(shape(scene), { 0: ["G3", "G9"], 1: ["G4"] });
  assert.deepEqual(board.drawn.at(-1).find((g) => g.seat === 0 && g.loc === "G3")?.id, scene.find(0, "G3").id);
});
