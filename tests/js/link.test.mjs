// The analysis board's links (src/ghostparty/web/static/js/analysis/link.js): a position
// goes into an address's hash and comes back the same, names and all.

import assert from "node:assert/strict";
import { test } from "node:test";

import { analysisUrl, encodePosition, positionFromHash } from "../../src/ghostparty/web/static/js/analysis/link.js";

const POSITION = {
  format: "hugo-position/1",
  rules: "hugo",
  players: 2,
  first_player: 0,
  round: 1,
  phase: "roll",
  to_move: 0,
  roll: null,
  clock: "23:45",
  hugo: "START",
  scores: [10, 10],
  round_scores: [],
  guests: [["G1", "R:chapel"], ["G2", "C10"]],
  place_queue: [],
  winners: [],
};

test("a position comes back from its link unchanged", () => {
  const url = analysisUrl(POSITION);
  assert.match(url, /^\/analysis#p=[A-Za-z0-9_-]+$/);
  assert.deepEqual(positionFromHash(url.slice(url.indexOf("#"))), POSITION);
});

test("text beyond ASCII survives, and padding is accepted", () => {
  const odd = { note: "Schloßgespenst ✓" };
  const text = encodePosition(odd);
  assert.deepEqual(positionFromHash(`#p=${text}`), odd);
  assert.deepEqual(positionFromHash(`#p=${text}${"=".repeat((4 - (text.length % 4)) % 4)}`), odd);
});

test("no position in the hash is null; a broken one is a SyntaxError", () => {
  assert.equal(positionFromHash(""), null);
  assert.equal(positionFromHash("#x=1"), null);
  assert.throws(() => positionFromHash("#p=***"), SyntaxError);
  assert.throws(() => positionFromHash(`#p=${encodePosition([1, 2])}`), SyntaxError);
  assert.throws(() => positionFromHash(`#p=${btoa("{not json")}`), SyntaxError);
});
