// The game page's reducer (src/ghostparty/web/static/js/table/state.js), without a browser:
// run by `node --test tests/js/` (tests/test_js.py runs it under pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  busy,
  chosen,
  initialState,
  interactive,
  isStale,
  pick,
  placements,
  reduce,
  replayMessages,
  replayStates,
  showsOdds,
  skipsVersions,
} from "../../src/ghostparty/web/static/js/table/state.js";

/** Freeze a value all the way down, so that any change to it throws. */
function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** reduce() on a frozen state: a mutation of its input would throw. */
function step(state, message) {
  return reduce(deepFreeze(state), deepFreeze(message));
}

function table(version, extra = {}) {
  return {
    id: "t1",
    version,
    status: "playing",
    to_move: 0,
    rules: "hugo",
    players: 2,
    seats: [
      { seat: 0, kind: "human", name: "Ann", away: false },
      { seat: 1, kind: "bot", name: null, away: false },
    ],
    ...extra,
  };
}

function position(extra = {}) {
  return { rules: "hugo", phase: "move", roll: 4, to_move: 0, guests: [["G3", "G7"], ["G9"]], hugo: "C10", scores: [10, 10], place_queue: [], ...extra };
}

const MOVES = [
  { from: "G3", to: "G7" },
  { from: "G3", to: "R:chapel" },
  { from: "G7", to: "G11" },
];

function stateMessage(extra = {}) {
  return {
    type: "state",
    table: table(5),
    position: position(),
    seats: [0],
    legal: MOVES,
    effects: [[], [{ type: "room_entered" }], []],
    odds: [{ location: "G3", chance: 0.5 }],
    pending: null,
    log: [
      { index: 0, seat: 0, action: { roll: 2 }, events: [] },
      { index: 1, seat: 0, action: { from: "G1", to: "G3" }, events: [] },
    ],
    ...extra,
  };
}

function update(version, extra = {}) {
  return { type: "update", table: table(version), position: position(), legal: [], odds: [], entry: null, ...extra };
}

test("a state message replaces what the page shows and starts a new generation", () => {
  const before = { ...initialState(), queue: [update(3)], waiting: true, selected: "G3", scores: [1, 2] };
  const after = step(before, stateMessage());
  assert.notEqual(after, before);
  assert.deepEqual(after.held, [0]);
  assert.equal(after.seen, 5);
  assert.deepEqual(after.queue, []);
  assert.equal(after.generation, before.generation + 1);
  assert.equal(after.waiting, false);
  assert.equal(after.selected, null);
  assert.equal(after.scores, null);
  assert.equal(after.log.length, 2);
  // in phase move the die shows the position's roll, not the log's last
  assert.equal(after.die, 4);
  const rolling = step(initialState(), stateMessage({ position: position({ phase: "roll", roll: null }) }));
  assert.equal(rolling.die, 2, "outside phase move: the log's last roll");
});

test("a state of the version shown keeps the guest chosen; a newer one lets it go", () => {
  let state = step(initialState(), stateMessage());
  state = step(state, { type: "select", location: "G3" });
  const again = step(state, stateMessage()); // a catch-up or a reconnect: version 5 again
  assert.equal(again.selected, "G3");
  assert.equal(chosen(again), "G3");
  assert.deepEqual(pick(again, "R:chapel"), { act: { from: "G3", to: "R:chapel" } }, "the next click still moves it");
  const moved = step(state, stateMessage({ table: table(6) }));
  assert.equal(moved.selected, null, "a newer position: the choice is made again");
  const gone = step(state, stateMessage({ legal: [{ from: "G7", to: "G11" }], effects: [[]] }));
  assert.equal(chosen(gone), "G7", "a guest that may no longer move is not the one chosen");
});

test("updates are queued in order; stale ones and repeated actions are dropped", () => {
  let state = step(initialState(), stateMessage());
  const old = update(4, { entry: { index: 1 } });
  assert.ok(isStale(state, old));
  assert.equal(step(state, { type: "received", message: old }), state);
  const repeat = update(5, { entry: { index: 1 } });
  assert.equal(step(state, { type: "received", message: repeat }), state);
  const presence = update(5); // someone came: same version, no entry
  assert.ok(!isStale(state, presence));
  state = step(state, { type: "received", message: presence });
  state = step(state, { type: "received", message: update(6, { entry: { index: 2, action: { roll: 5 } } }) });
  assert.equal(state.queue.length, 2);
  assert.equal(state.seen, 6);
  assert.ok(busy(state));
  assert.ok(skipsVersions(state, update(8)), "a gap: the page asks for the state");
  assert.ok(!skipsVersions(state, update(7)));
});

test("applied shows the queue's first update: its entry joins the log, its roll the die", () => {
  let state = step(initialState(), stateMessage());
  const entry = { index: 2, seat: 0, action: { roll: "hugo" }, events: [] };
  state = step(state, { type: "received", message: update(6, { entry, position: position({ phase: "roll", roll: null }), pending: [3, -3] }) });
  state = step(state, { type: "acted" });
  const after = step(state, { type: "applied" });
  assert.deepEqual(after.queue, []);
  assert.equal(after.table.version, 6);
  assert.deepEqual(after.log.map((e) => e.index), [0, 1, 2]);
  assert.equal(after.die, "hugo");
  assert.deepEqual(after.points, [3, -3], "the server's pending points are shown as they come");
  assert.equal(after.waiting, false);
  assert.equal(step(after, { type: "applied" }), after, "nothing queued: nothing changes");
  // the same entry again (after a state that had it) is not logged twice
  const again = step(after, update(6, { entry }));
  assert.equal(again.log.length, 3);
});

test("animating clears the legal actions and the choice; scores count up on a copy", () => {
  let state = step(initialState(), stateMessage());
  state = step(state, { type: "select", location: "G3" });
  state = step(state, { type: "animating", on: true });
  assert.deepEqual(state.legal, []);
  assert.equal(state.selected, null);
  assert.ok(busy(state) && !interactive(state));
  const scored = step(state, { type: "score", seat: 1, value: 7 });
  assert.deepEqual(scored.scores, [10, 7]);
  assert.deepEqual(state.position.scores, [10, 10]);
  assert.equal(step(scored, { type: "animating", on: false }).animating, false);
});

test("choosing and clicking: one movable guest is chosen at once, a click moves it", () => {
  let state = step(initialState(), stateMessage());
  assert.ok(interactive(state));
  assert.equal(chosen(state), null, "two guests may move: none is chosen yet");
  assert.deepEqual(pick(state, "G3"), { select: "G3" });
  assert.equal(pick(state, "G20"), null, "a square nothing can reach");
  state = step(state, { type: "select", location: "G3" });
  assert.deepEqual(pick(state, "R:chapel"), { act: { from: "G3", to: "R:chapel" } });
  assert.deepEqual(pick(state, "G3"), { select: null }, "a second click lets go");
  const one = step(initialState(), stateMessage({ legal: [{ from: "G7", to: "G11" }], effects: [[]] }));
  assert.equal(chosen(one), "G7");
  assert.deepEqual(pick(one, "G11"), { act: { from: "G7", to: "G11" } });
  const sent = step(state, { type: "acted" });
  assert.ok(sent.waiting && sent.acted && !interactive(sent));
  assert.equal(pick(sent, "R:chapel"), null, "nothing while an action is on its way");
  assert.equal(step(sent, { type: "error", code: "stale" }).waiting, false);
});

test("placements come safest first: the squares Hugo reaches last from his entry", () => {
  const place = stateMessage({ position: position({ phase: "place" }), legal: [{ place: "G0" }, { place: "G5" }, { place: "G39" }, { place: "G20" }] });
  const state = step(initialState(), place);
  assert.deepEqual(placements(state, { squares: 40, arrow: "G0" }), ["G39", "G20", "G5", "G0"]);
  assert.deepEqual(placements(state, { squares: 40, arrow: "G20" }), ["G5", "G0", "G39", "G20"]);
  assert.deepEqual(pick(state, "G5"), { act: { place: "G5" } });
  assert.deepEqual(state.legal.map((a) => a.place), ["G0", "G5", "G39", "G20"], "the state's own list is left as it was");
});

test("the odds are shown to the holder of the seat to move once settled", () => {
  const mine = step(initialState(), stateMessage());
  assert.ok(showsOdds(mine));
  assert.ok(!showsOdds(step(initialState(), stateMessage({ seats: [1] }))));
  assert.ok(!showsOdds(step(mine, { type: "animating", on: true })));
});

test("an unknown message is refused with what was expected", () => {
  assert.throws(() => reduce(initialState(), { type: "nonsense" }), /unknown message type "nonsense"; expected one of state, update/);
});

test("a replay is the same reducer over the recorded steps", () => {
  const start = { rules: "hugo", phase: "place", guests: [[], []], hugo: "START", scores: [10, 10], place_queue: [0, 1], to_move: 0 };
  const data = {
    record: { start, actions: [{ place: "G3" }, { place: "G9" }, { roll: 5 }, { pass: true }, { from: "G9", to: "C8" }] },
    pending: [0, 0],
    steps: [
      { seat: 0, events: [{ type: "placed" }], changes: { guests: [["G3"], []], place_queue: [1], to_move: 1 } },
      { seat: 1, events: [{ type: "placed" }], changes: { guests: [["G3"], ["G9"]], place_queue: [], to_move: 0, phase: "roll" } },
      { seat: 0, events: [{ type: "rolled" }], changes: { phase: "move", roll: 5 }, pending: [1, 2] },
      { seat: 0, events: [{ type: "passed" }], changes: { phase: "roll", roll: null } },
      { seat: 1, events: [{ type: "game_over" }], changes: { phase: "over" }, pending: null },
    ],
  };
  const tableAt = (p) => ({ status: p.phase === "over" ? "over" : "playing", to_move: p.to_move, seats: [] });
  const messages = replayMessages(deepFreeze(data), tableAt);
  assert.deepEqual(messages.map((m) => m.type), ["state", "update", "update", "update", "update", "update"]);
  const states = replayStates(data, tableAt);
  assert.equal(states.length, 6);
  assert.deepEqual(states[0].position, start);
  assert.equal(states[0].die, null);
  assert.deepEqual(states[2].position.guests, [["G3"], ["G9"]]);
  assert.equal(states[2].position.phase, "roll");
  assert.equal(states[2].position.hugo, "START", "what a step does not change stays");
  assert.equal(states[3].die, 5);
  assert.deepEqual(states[0].points, [0, 0]);
  assert.deepEqual(states[2].points, [0, 0], "a step without pending keeps the points before it");
  assert.deepEqual(states[3].points, [1, 2]);
  assert.deepEqual(states[4].points, [1, 2]);
  assert.equal(states[5].points, null, "over: nothing pending");
  assert.equal(states[4].die, 5, "a pass keeps the die's last face");
  assert.deepEqual(states[3].log.map((e) => [e.index, e.seat, e.action]), [
    [0, 0, { place: "G3" }],
    [1, 1, { place: "G9" }],
    [2, 0, { roll: 5 }],
  ]);
  assert.deepEqual(states[5].held, [], "a replay holds no seat: nothing is clickable");
  assert.ok(!interactive(states[3]));
});
