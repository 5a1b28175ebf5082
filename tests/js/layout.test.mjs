// The board's layout (src/ghostparty/web/static/js/table/layout.js): one algorithm chooses the
// ring for both shapes, landscape and a phone's portrait. The boards are the server's
// GET /api/boards/{rules}, which tests/test_js.py writes to $GHOSTPARTY_BOARDS.

import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";

import { CHAR_WIDTH, boxOf, chooseRing, makeLayout, nameLines } from "../../src/ghostparty/web/static/js/table/layout.js";

const file = process.env.GHOSTPARTY_BOARDS;
const boards = file ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
const skip = boards ? false : "GHOSTPARTY_BOARDS is not set: run these through tests/test_js.py, which writes the server's boards";

const meet = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

function everyBoard(check) {
  for (const [rules, board] of Object.entries(boards)) for (const portrait of [false, true]) check(rules, board, portrait);
}

test("the ring holds every square once, round the edge of its grid", { skip }, () => {
  everyBoard((rules, board, portrait) => {
    const { w, h } = chooseRing(board, { portrait });
    assert.equal(2 * (w + h) - 4, board.squares, `${rules}: ${w} × ${h}`);
    const layout = makeLayout(board, { portrait });
    const cells = Object.values(layout.squares).map((c) => `${c.col},${c.row}`);
    assert.equal(new Set(cells).size, board.squares);
    for (const cell of Object.values(layout.squares)) assert.ok(cell.col === 0 || cell.row === 0 || cell.col === w - 1 || cell.row === h - 1);
  });
});

test("each shape: its width, G0 on its side, no door on a corner", { skip }, () => {
  everyBoard((rules, board, portrait) => {
    const layout = makeLayout(board, { portrait });
    assert.equal(layout.portrait, portrait);
    assert.equal(layout.arrowSide, portrait ? "top" : "left", rules);
    if (portrait) assert.equal(layout.cols, 8, rules);
    for (const room of board.rooms) assert.notEqual(layout.squares[room.door].side, "corner", `${rules}: ${room.door}`);
  });
});

test("landscape: red rooms at the top, green ones at the bottom (RULES.md §1.2)", { skip }, () => {
  for (const [rules, board] of Object.entries(boards)) {
    const layout = makeLayout(board);
    for (const room of board.rooms) {
      const side = layout.squares[room.door].side;
      if (room.shield === "red") assert.equal(side, "top", `${rules}: ${room.id}`);
      if (room.shield === "green") assert.equal(side, "bottom", `${rules}: ${room.id}`);
    }
  }
});

test("no room runs into another, into the stairs or onto the gallery", { skip }, () => {
  everyBoard((rules, board, portrait) => {
    const layout = makeLayout(board, { portrait });
    const rooms = Object.values(layout.rooms);
    const stairs = [...Object.values(layout.steps), layout.start].filter(Boolean);
    rooms.forEach((room, i) => {
      for (const other of rooms.slice(i + 1)) assert.ok(!meet(room, other), `${rules} ${portrait}: ${room.id} meets ${other.id}`);
      for (const step of stairs) assert.ok(!meet(room, step), `${rules} ${portrait}: ${room.id} meets ${step.location}`);
      for (const square of Object.values(layout.squares)) assert.ok(!meet(room, square), `${rules} ${portrait}: ${room.id} on ${square.name}`);
    });
  });
});

test("every location has a box inside the board, big enough to tap on a phone", { skip }, () => {
  everyBoard((rules, board, portrait) => {
    const layout = makeLayout(board, { portrait });
    const names = [...Object.keys(layout.squares), ...board.rooms.map((r) => r.location), ...board.steps.map((s) => s.location)];
    if (board.start) names.push(board.start);
    for (const name of names) {
      const box = boxOf(layout, name);
      assert.ok(box, `${rules}: ${name} has no box`);
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.w <= layout.width && box.y + box.h <= layout.height, `${rules}: ${name} off the board`);
      // a 390 px wide phone draws the portrait board at 390 / layout.width px per unit
      if (portrait) assert.ok(Math.min(box.w, box.h) * (390 / layout.width) >= 44, `${rules}: ${name} is under 44 px`);
    }
  });
});

test("a room's name is wrapped into the lines it may take, and no word is dropped", () => {
  const narrow = 10 * CHAR_WIDTH; // ten characters a line
  assert.deepEqual(nameLines("Hall", narrow, 2), ["Hall"]);
  assert.deepEqual(nameLines("salle des portraits", narrow, 3), ["salle des", "portraits"]);
  assert.deepEqual(nameLines("salle des portraits", 6 * CHAR_WIDTH, 2), ["salle", "des portraits"]);
  assert.deepEqual(nameLines("a b c d e f g h", 3 * CHAR_WIDTH, 2), ["a b", "c d e f g h"]);
  for (const name of ["Sala dei ritratti di famiglia", "Rittersaal", "Salón  de   los espejos", "x"]) {
    for (const lines of [1, 2, 3]) {
      const wrapped = nameLines(name, narrow, lines);
      assert.ok(wrapped.length <= lines, `${name} in ${lines} lines: ${JSON.stringify(wrapped)}`);
      assert.equal(wrapped.join(" "), name.split(/\s+/).join(" "));
    }
  }
});
