// Board geometry: where every square, room, cellar step and token goes in the SVG.
// Boards are data (GET /api/boards/{rules}); nothing here knows a door or a shield.
//
// The gallery is a rectangular ring run clockwise. The ring's size and where G0 sits
// on it are chosen so that no door falls on a corner, red rooms sit at the top and
// green ones at the bottom (RULES.md §1.2), and G0 — the arrow square at the top of
// the cellar stairs — is on the left with the stairs running from it into the castle.

export const S = 64; // gallery square size
const ROOM_DEPTH = 96;
const MARGIN = ROOM_DEPTH + 14;
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

/** The ring size and offset that suit this board best (deterministic). */
export function chooseRing(board) {
  const n = board.squares;
  const half = n / 2 + 2;
  let best = null;
  for (let w = Math.ceil(half / 2); w <= half - 5; w++) {
    const h = half - w;
    for (let off = 0; off < n; off++) {
      let score = Math.abs(w - 14) * 3;
      const side = (sq) => ringCell((sq + off) % n, w, h)[2];
      for (const room of board.rooms) {
        const s = side(squareIndex(room.door));
        if (s === "corner") score += 1000;
        if (room.shield === "red" && s !== "top") score += 20;
        if (room.shield === "green" && s !== "bottom") score += 20;
      }
      const [, row, arrowSide] = ringCell(off % n, w, h);
      if (arrowSide !== "left") score += 500;
      score += Math.abs(row - (h - 1) / 2) * 0.5;
      if (best === null || score < best.score) best = { w, h, off, score };
    }
  }
  return best;
}

/**
 * The whole geometry of a board:
 * {width, height, squares: {G0: cell}, rooms: {"R:x": box}, steps: {C10: box}, start, centre}
 * where a cell/box is {x, y, w, h, ...} in SVG units.
 */
export function makeLayout(board) {
  const { w, h, off } = chooseRing(board);
  const n = board.squares;
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
      box.h = ROOM_DEPTH;
      box.x = door.x + S / 2 - box.w / 2;
      box.y = dy < 0 ? door.y - gap - ROOM_DEPTH : door.y + S + gap;
    } else {
      box.w = ROOM_DEPTH;
      box.h = S - 6;
      box.y = door.y + 3;
      box.x = dx < 0 ? door.x - gap - ROOM_DEPTH : door.x + S + gap;
    }
    // Where the room's guest stands: below the name and shield.
    box.anchor = dx === 0 ? { x: box.x + box.w / 2, y: box.y + box.h - 22, r: 16 } : { x: box.x + box.w / 2 + 14, y: box.y + 37, r: 14 };
    rooms[room.location] = box;
  }

  // The stairs run inward from the arrow square, top step first, START last.
  const arrow = squares[board.arrow];
  const inward = { left: [1, 0], right: [-1, 0], top: [0, 1], bottom: [0, -1] }[arrow.side] ?? [1, 0];
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

  // The free inside of the castle for the clock, the die and the title.
  const inside = { x: MARGIN + S, y: MARGIN + S, w: (w - 2) * S, h: (h - 2) * S };
  return { width, height, cols: w, rows: h, squares, rooms, steps, start, inside, arrowSide: arrow.side, stepCount: cells.length };
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

export { SIDES };
