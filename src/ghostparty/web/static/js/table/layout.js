// Board geometry: where every square, room, cellar step and token goes in the SVG.
// Boards are data (GET /api/boards/{rules}); nothing here knows a door or a shield.
//
// The gallery is a rectangular ring run clockwise. The ring's size and where G0 sits
// on it are chosen so that no door falls on a corner, red rooms sit at the top and
// green ones at the bottom (RULES.md §1.2), and G0 — the arrow square at the top of
// the cellar stairs — is on the left with the stairs running from it into the castle.
//
// A phone held upright gets a portrait ring instead ({portrait: true}): 8 squares wide and
// 14 high, with the rooms inside the ring, so that the whole board fits the phone's
// screen above the dock (390 × 844: about 676 px high) and every square, room and step
// is at least 44 px each way. G0 then sits on the top side, with the stairs running down
// from it between the rooms; the die, the clock and the title stand beside and below the
// stairs. Doors never fall on a corner, and no two rooms (nor a room and the stairs) meet;
// the shields can't all face their side there, so red rooms are only drawn towards the
// top, green ones the bottom. Both rings are chosen by one algorithm (chooseRing and
// ringScore, with each shape's preferences in SHAPES); only the rooms' boxes differ.

export const S = 64; // gallery square size
// How far the rooms reach out from the gallery, and the margin round the ring. On a phone
// held upright the rooms reach into the ring, one square deep less the gaps, and the
// margin is small: 8 × 64 + 2 × 6 units on 390 px make a square 47.6 px and a room 44.7 px.
const ROOM_DEPTH = 96;
const PORTRAIT_ROOM_DEPTH = S - 4;
const PORTRAIT_MARGIN = 6;
const GAP = 14;
const LANDSCAPE_COLS = 14; // the ring's preferred width, in squares
const PORTRAIT_COLS = 8; // … and on a phone held upright
const SIDES = ["top", "right", "bottom", "left"];
const OUTWARD = { top: [0, -1], right: [1, 0], bottom: [0, 1], left: [-1, 0] };

function ringCell(p, w, h) {
  // Perimeter index p (0 = top-left corner, clockwise) -> [col, row, side].
  const right = w - 1;
  const bottom = right + h - 1;
  const left = bottom + w - 1;
  if (p === 0 || p === right || p === bottom || p === left) {
    const corner = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]][[0, right, bottom, left].indexOf(p)];
    return [corner[0], corner[1], "corner"];
  }
  if (p < right) return [p, 0, "top"];
  if (p < bottom) return [w - 1, p - right, "right"];
  if (p < left) return [w - 1 - (p - bottom), h - 1, "bottom"];
  return [0, h - 1 - (p - left), "left"];
}

function squareIndex(name) {
  return Number(name.slice(1));
}

/**
 * The two shapes of the ring: what each prefers. `cols`: its width in squares (each
 * square off costs `perCol`); `arrowSide`: the side G0 sits on, its stairs running
 * inward from there; `inside`: whether the rooms are drawn inside the ring.
 */
const SHAPES = {
  landscape: { cols: LANDSCAPE_COLS, perCol: 3, arrowSide: "left", inside: false },
  portrait: { cols: PORTRAIT_COLS, perCol: 200, arrowSide: "top", inside: true },
};
const INWARD = { left: [1, 0], right: [-1, 0], top: [0, 1], bottom: [0, -1] };

/**
 * The ring size and offset that suit this board best (deterministic): {w, h, off, score}.
 * One algorithm for both shapes: every ring of the shape's proportions and every offset
 * of G0 on it is scored by ringScore, the lowest wins.
 * portrait: a tall ring (few squares wide, many high) with G0 on the top side.
 */
export function chooseRing(board, { portrait = false } = {}) {
  const shape = portrait ? SHAPES.portrait : SHAPES.landscape;
  const n = board.squares;
  const half = n / 2 + 2;
  // Landscape: at least as wide as high; portrait: at most as wide as high.
  const [lo, hi] = portrait ? [Math.min(4, Math.floor(half / 2)), Math.floor(half / 2)] : [Math.ceil(half / 2), half - 5];
  let best = null;
  for (let w = lo; w <= hi; w++) {
    const h = half - w;
    for (let off = 0; off < n; off++) {
      const score = ringScore(board, w, h, off, shape);
      if (best === null || score < best.score) best = { w, h, off, score };
    }
  }
  return best;
}

/**
 * How badly a ring w × h with G0 at perimeter index `off` suits the board (lower is
 * better): the shape's width; G0 on the shape's side, centred along it; a door on a
 * corner; red rooms away from the top, green ones away from the bottom; rooms that
 * run into each other or into the stairs.
 */
function ringScore(board, w, h, off, shape) {
  const n = board.squares;
  let score = Math.abs(w - shape.cols) * shape.perCol;
  const [arrowCol, arrowRow, arrowSide] = ringCell(off % n, w, h);
  if (arrowSide !== shape.arrowSide) score += 500;
  score += Math.abs(INWARD[shape.arrowSide][0] ? arrowRow - (h - 1) / 2 : arrowCol - (w - 1) / 2) * 0.5;
  const [dx, dy] = INWARD[arrowSide] ?? INWARD.left;
  const cells = board.steps.length + (board.start ? 1 : 0);
  const stairs = { x: (arrowCol + Math.min(dx, 0) * cells + dx) * S, y: (arrowRow + Math.min(dy, 0) * cells + dy) * S, w: (dx ? cells : 1) * S, h: (dy ? cells : 1) * S };
  const boxes = [stairs];
  for (const room of board.rooms) {
    const [col, row, side] = ringCell((squareIndex(room.door) + off) % n, w, h);
    if (side === "corner") {
      score += 1000;
      continue;
    }
    // How far a red room is from the top (0 to 1), a green one from the bottom; more
    // when it is not on that side at all.
    const depth = row / Math.max(1, h - 1);
    const away = { red: [depth, "top"], green: [1 - depth, "bottom"] }[room.shield];
    if (away) score += away[0] * 4 + (side === away[1] ? 0 : 20);
    if (shape.inside) boxes.push(insideRoom(room, { x: col * S, y: row * S, side }, PORTRAIT_ROOM_DEPTH));
  }
  // The rooms inside the ring must not run into each other or into the stairs.
  const meet = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) if (meet(a, b)) score += 1000;
  });
  return score;
}

/**
 * The whole geometry of a board:
 * {width, height, portrait, squares: {G0: cell}, rooms: {"R:x": box}, steps: {C10: box},
 *  start, inside, pieces: {title, sub, die, centre, stairsLabel}}
 * where a cell/box is {x, y, w, h, ...} and a piece {x, y} (its centre) in SVG units.
 * portrait: the tall ring of chooseRing, for a phone held upright.
 */
export function makeLayout(board, { portrait = false } = {}) {
  const { w, h, off } = chooseRing(board, { portrait });
  const n = board.squares;
  const ROOM = portrait ? PORTRAIT_ROOM_DEPTH : ROOM_DEPTH;
  const MARGIN = portrait ? PORTRAIT_MARGIN : ROOM + GAP;
  const width = w * S + 2 * MARGIN;
  const height = h * S + 2 * MARGIN;
  const squares = {};
  const grid = {};
  for (let sq = 0; sq < n; sq++) {
    const [col, row, side] = ringCell((sq + off) % n, w, h);
    const name = `G${sq}`;
    squares[name] = { name, col, row, side, x: MARGIN + col * S, y: MARGIN + row * S, w: S, h: S };
    grid[`${col},${row}`] = name;
  }

  const rooms = {};
  for (const room of board.rooms) {
    const door = squares[room.door];
    if (portrait) {
      rooms[room.location] = insideRoom(room, door, ROOM);
      continue;
    }
    const [dx, dy] = OUTWARD[door.side] ?? [0, -1];
    const gap = 8;
    const box = { ...room, side: door.side, doorSquare: room.door };
    if (dx === 0) {
      // As wide as the neighbouring doors on this side allow, for the room's name.
      const apart = board.rooms
        .map((other) => squares[other.door])
        .filter((other) => other !== door && other.side === door.side)
        .map((other) => Math.abs(other.col - door.col));
      const nearest = apart.length ? Math.min(...apart) : 4;
      box.w = Math.max(S - 6, Math.min(Math.round(S * 1.75), nearest * S - 10));
      box.h = ROOM;
      box.x = door.x + S / 2 - box.w / 2;
      box.y = dy < 0 ? door.y - gap - ROOM : door.y + S + gap;
    } else {
      box.w = ROOM;
      box.h = S - 6;
      box.y = door.y + 3;
      box.x = dx < 0 ? door.x - gap - ROOM : door.x + S + gap;
    }
    // Where the room's guest stands: below the name and shield.
    box.anchor = dx === 0 ? { x: box.x + box.w / 2, y: box.y + box.h - 22, r: 16 } : { x: box.x + box.w / 2 + 14, y: box.y + 37, r: 14 };
    rooms[room.location] = box;
  }

  // The stairs run inward from the arrow square, top step first, START last.
  const arrow = squares[board.arrow];
  const inward = INWARD[arrow.side] ?? INWARD.left;
  const flights = [...board.steps].reverse(); // top step (next to G0) first
  const cells = flights.map((step) => ({ ...step, kind: "step" }));
  if (board.start) cells.push({ location: board.start, value: null, kind: "start" });
  const room = (inward[0] !== 0 ? w - 2 : h - 2) * S;
  const size = Math.min(S, Math.floor(room / (cells.length + 1)));
  const steps = {};
  let start = null;
  cells.forEach((cell, i) => {
    const box = {
      ...cell,
      w: inward[0] !== 0 ? size : S,
      h: inward[0] !== 0 ? S : size,
      depth: i,
    };
    box.x = inward[0] > 0 ? arrow.x + S + i * size : inward[0] < 0 ? arrow.x - (i + 1) * size : arrow.x;
    box.y = inward[1] > 0 ? arrow.y + S + i * size : inward[1] < 0 ? arrow.y - (i + 1) * size : arrow.y;
    if (cell.kind === "start") start = box;
    else steps[cell.location] = box;
  });

  // The free inside of the castle for the clock, the die and the title (on a phone held
  // upright, less the rooms' bands along the sides).
  const inside = { x: MARGIN + S, y: MARGIN + S, w: (w - 2) * S, h: (h - 2) * S };
  const vertical = inward[0] === 0;
  const free = portrait ? { x: inside.x + S, y: inside.y, w: inside.w - 2 * S, h: inside.h - S } : inside;
  const pieces =
    portrait && vertical && cells.length ? portraitPieces(free, arrow, inward[1] > 0, cells.length * size, steps) : landscapePieces(inside, steps);
  return {
    width,
    height,
    portrait,
    cols: w,
    rows: h,
    squares,
    rooms,
    steps,
    start,
    inside,
    pieces,
    arrowSide: arrow.side,
    stepCount: cells.length,
  };
}

/**
 * A room inside the ring (a phone held upright): one square deep less the gaps, a square
 * wide less a gap, across the gallery from its door. Its `side` is where it lies from
 * the door (the doorway is drawn on that side), the opposite of the door's side.
 */
function insideRoom(room, door, depth) {
  const inward = { top: "bottom", bottom: "top", left: "right", right: "left" }[door.side] ?? "bottom";
  const gap = (S - depth) / 2;
  const box = { ...room, side: inward, doorSquare: room.door };
  if (inward === "top" || inward === "bottom") {
    box.w = S - 4;
    box.h = depth;
    box.x = door.x + 2;
    box.y = inward === "bottom" ? door.y + S + gap : door.y - gap - depth;
    box.anchor = { x: box.x + box.w / 2, y: box.y + box.h - 20, r: 14 };
  } else {
    box.w = depth;
    box.h = S - 4;
    box.y = door.y + 2;
    box.x = inward === "right" ? door.x + S + gap : door.x - gap - depth;
    box.anchor = { x: box.x + box.w / 2 + 12, y: box.y + 38, r: 13 };
  }
  return box;
}

/** Title, die and clock along the top of the inside; the stairs' name above them. */
function landscapePieces(inside, steps) {
  const first = Object.values(steps)[0];
  return {
    title: { x: inside.x + inside.w / 2, y: inside.y + 34 },
    sub: { x: inside.x + inside.w / 2, y: inside.y + 56 },
    centre: { x: inside.x + inside.w - 110, y: inside.y + 70 },
    die: { x: inside.x + 60, y: inside.y + 60 },
    stairsLabel: first ? { x: first.x + 2, y: first.y - 8, anchor: "start" } : null,
  };
}

/**
 * Stairs running up or down a narrow inside: the stairs' name, the die and the clock
 * stacked beside them on the wider side, the title in the band the stairs leave free.
 */
function portraitPieces(inside, arrow, down, length, steps) {
  const left = arrow.x - inside.x;
  const right = inside.x + inside.w - (arrow.x + S);
  const onRight = right >= left;
  const sideX = onRight ? arrow.x + S + right / 2 : inside.x + left / 2;
  const top = down ? inside.y : inside.y + inside.h - length; // the stairs' upper end
  const band = down ? { y: top + length, h: inside.y + inside.h - top - length } : { y: inside.y, h: top - inside.y };
  const titleY = band.y + Math.max(34, band.h / 2 - 8);
  // The stairs' name beside the second step: the first is beside the rooms that hang
  // into the ring from the top side.
  const first = Object.values(steps)[1] ?? Object.values(steps)[0];
  return {
    title: { x: inside.x + inside.w / 2, y: titleY },
    sub: { x: inside.x + inside.w / 2, y: titleY + 22 },
    die: { x: sideX, y: top + 200 },
    centre: { x: sideX, y: top + 360 },
    stairsLabel: first ? { x: onRight ? first.x + first.w + 8 : first.x - 8, y: first.y + first.h / 2 + 4, anchor: onRight ? "start" : "end" } : null,
  };
}

/** The box of any location name. */
export function boxOf(layout, location) {
  if (location.startsWith("G")) return layout.squares[location];
  if (location.startsWith("R:")) return layout.rooms[location];
  if (location === "START") return layout.start;
  return layout.steps[location];
}

/**
 * Where the i-th of n tokens on a location stands: {x, y, r}.
 * One token sits in the middle; more share the box in a small grid.
 */
export function slot(layout, location, i, n) {
  const box = boxOf(layout, location);
  if (!box) return { x: 0, y: 0, r: 10 };
  if (box.anchor && n <= 1) return { ...box.anchor };
  const cx = box.anchor?.x ?? box.x + box.w / 2;
  const cy = box.anchor?.y ?? box.y + box.h / 2;
  const span = box.anchor ? box.anchor.r * 2.4 : Math.min(box.w, box.h);
  if (n <= 1) return { x: cx, y: cy, r: Math.min(17, span * 0.3) };
  const per = n <= 4 ? 2 : n <= 9 ? 3 : 4;
  const cell = span / per;
  const rows = Math.ceil(n / per);
  const col = i % per;
  const row = Math.floor(i / per);
  const inRow = row === rows - 1 ? n - row * per : per;
  return {
    x: cx + (col - (inRow - 1) / 2) * cell,
    y: cy + (row - (rows - 1) / 2) * cell,
    r: Math.min(17, cell * 0.44),
  };
}

/** Pixels a character of a room's name takes at 11px, as the board's estimates count. */
export const CHAR_WIDTH = 6.1;

/**
 * A room's name as at most `maxLines` lines for a room `width` pixels wide: words filled
 * greedily line by line (by CHAR_WIDTH), every word kept — what does not fit by then goes
 * on the last line, which the board shrinks to fit (no word is ever cut off).
 */
export function nameLines(name, width, maxLines) {
  const words = name.split(/\s+/).filter(Boolean);
  if (name.length * CHAR_WIDTH <= width || words.length <= 1 || maxLines <= 1) return [words.join(" ")];
  const lines = [];
  let line = "";
  for (const [i, word] of words.entries()) {
    if (lines.length === maxLines - 1) {
      lines.push([line, ...words.slice(i)].filter(Boolean).join(" "));
      return lines;
    }
    const longer = line ? `${line} ${word}` : word;
    if (line && longer.length * CHAR_WIDTH > width) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  if (line) lines.push(line);
  return lines;
}

export { SIDES };
