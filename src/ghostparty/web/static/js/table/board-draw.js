// The board's drawing, once per layout (board.js BoardView.build): the hall with the
// title, the rooms with their shields, the gallery's squares, the cellar stairs, and the
// figures (Hugo, the clock's face). Nothing here changes afterwards; board.js moves the
// tokens, the die and the highlights.

import { svg } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { CHAR_WIDTH, S, nameLines } from "./layout.js";

const SHIELD_FILL = { neutral: "#c9c2b3", red: "#c8352c", green: "#2f9a52" };


function shieldPath(x, y, size) {
  const w = size * 0.8;
  const h = size;
  return [
    `M${x - w / 2},${y - h / 2}`,
    `H${x + w / 2}`,
    `V${y}`,
    `Q${x + w / 2},${y + h * 0.35} ${x},${y + h / 2}`,
    `Q${x - w / 2},${y + h * 0.35} ${x - w / 2},${y}`,
    "Z",
  ].join(" ");
}

function ghostPath(size) {
  // A friendly ghost centred on 0,0: round head, wavy hem.
  const w = size * 0.42;
  const top = -size * 0.5;
  const hem = size * 0.42;
  const waves = 4;
  let d = `M${-w},${hem} V${top + w} A${w},${w} 0 0 1 ${w},${top + w} V${hem}`;
  const step = (2 * w) / waves;
  for (let i = 0; i < waves; i++) {
    const x0 = w - i * step;
    d += ` Q${x0 - step / 2},${hem + (i % 2 ? -size * 0.12 : size * 0.12)} ${x0 - step},${hem}`;
  }
  return `${d} Z`;
}

export function hugoFigure(size) {
  return svg(
    "g",
    { class: "hugo-figure" },
    svg("path", { d: ghostPath(size), class: "hugo-body" }),
    svg("ellipse", { cx: -size * 0.14, cy: -size * 0.16, rx: size * 0.07, ry: size * 0.1, class: "hugo-eye" }),
    svg("ellipse", { cx: size * 0.14, cy: -size * 0.16, rx: size * 0.07, ry: size * 0.1, class: "hugo-eye" }),
    svg("ellipse", { cx: 0, cy: size * 0.08, rx: size * 0.1, ry: size * 0.07, class: "hugo-mouth" }),
  );
}

/**
 * A room's name, shrunk to fit `width` when it is long (German has long words) by an
 * estimate; once the board is on the page, fitLabels makes sure by measuring that it
 * stays inside the room (`room`: the room's width).
 */
function roomLabel(x, y, text, width, room) {
  const label = svg("text", { x, y, class: "room-label", "data-fit": room - 4 }, text);
  const estimate = text.length * CHAR_WIDTH; // at 11px
  if (estimate > width) label.style.fontSize = `${Math.max(7, (11 * width) / estimate).toFixed(1)}px`;
  return label;
}

/** The gradients the board's styles use. */
export function defs(view) {
  const grad = (id, stops, attrs = {}) =>
    svg(
      "linearGradient",
      { id, x1: 0, y1: 0, x2: 0, y2: 1, ...attrs },
      stops.map(([offset, colour]) => svg("stop", { offset, "stop-color": colour })),
    );
  view.root.append(
    svg(
      "defs",
      {},
      grad("gp-stone", [["0", "#5b5563"], ["1", "#3f3a47"]]),
      grad("gp-room", [["0", "#b0703a"], ["1", "#7a4522"]]),
      grad("gp-hall", [["0", "#2b2433"], ["1", "#1d1824"]]),
      grad("gp-arrow", [["0", "#e8c15a"], ["1", "#b98a27"]]),
      svg(
        "radialGradient",
        { id: "gp-candle", cx: "50%", cy: "30%", r: "70%" },
        svg("stop", { offset: "0", "stop-color": "#ffd889", "stop-opacity": "0.55" }),
        svg("stop", { offset: "1", "stop-color": "#ffd889", "stop-opacity": "0" }),
      ),
    ),
  );
}

export function drawInside(view) {
  const { inside, pieces } = view.layout;
  const g = svg("g", { class: "inside" });
  g.append(svg("rect", { x: inside.x - 6, y: inside.y - 6, width: inside.w + 12, height: inside.h + 12, rx: 10, class: "hall" }));
  // Title and the centre pieces: clock or round, and the die.
  const title = svg("text", { x: pieces.title.x, y: pieces.title.y, class: "board-title" }, t("board.title"));
  const sub = svg("text", { x: pieces.sub.x, y: pieces.sub.y, class: "board-sub" }, t(`board.sub.${view.board.rules}`));
  g.append(title, sub);
  view.centre = svg("g", { class: "centre", transform: `translate(${pieces.centre.x},${pieces.centre.y})` });
  view.dieBox = svg("g", { class: "die", "data-testid": "die", "data-face": "", transform: `translate(${pieces.die.x},${pieces.die.y})` });
  g.append(view.centre, view.dieBox);
  view.root.append(g);
}

export function drawRooms(view) {
  const g = svg("g", { class: "rooms" });
  for (const box of Object.values(view.layout.rooms)) {
    const door = view.layout.squares[box.doorSquare];
    const room = svg("g", {
      class: `room shield-${box.shield}`,
      role: "button",
      "data-testid": "room",
      "data-location": box.location,
      "data-shield": box.shield,
      "data-door": box.doorSquare,
    });
    // The doorway between the gallery square and the room.
    const vertical = box.side === "top" || box.side === "bottom";
    const dw = 22;
    const doorway = vertical
      ? { x: door.x + S / 2 - dw / 2, y: box.side === "top" ? box.y + box.h - 2 : door.y + S - 2, width: dw, height: 12 }
      : { x: box.side === "left" ? box.x + box.w - 2 : door.x + S - 2, y: door.y + S / 2 - dw / 2, width: 12, height: dw };
    room.append(svg("rect", { ...doorway, class: "doorway" }));
    room.append(svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, class: "room-box" }));
    room.append(svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, class: "room-glow" }));
    const cx = box.x + box.w / 2;
    const name = t(`room.${box.id}`);
    const shallow = box.h < 90; // a phone's portrait board: the shield goes in a corner
    if (vertical) {
      const lines = nameLines(name, box.w - 6, shallow ? 2 : 3);
      lines.forEach((line, i) => view.textLayer.append(roomLabel(cx, box.y + 15 + i * 12, line, box.w - 6, box.w)));
      room.append(svg("path", { d: shallow ? shieldPath(box.x + 11, box.y + box.h - 14, 15) : shieldPath(cx, box.y + 46, 18), class: "shield" }));
    } else {
      view.textLayer.append(roomLabel(cx, box.y + 15, name, box.w - 8, box.w));
      room.append(svg("path", { d: shieldPath(box.x + 15, box.y + 38, 17), class: "shield" }));
    }
    room.querySelector(".shield").setAttribute("fill", SHIELD_FILL[box.shield] ?? SHIELD_FILL.neutral);
    if (box.shield !== "neutral") {
      const points = view.board.shield_points?.[box.shield] ?? 0; // §4.5/§8.5, from /api/boards
      const mark = points > 0 ? `+${points}` : `−${Math.abs(points)}`;
      const [sx, sy] = vertical ? (shallow ? [box.x + 11, box.y + box.h - 11] : [cx, box.y + 50]) : [box.x + 15, box.y + 42];
      view.textLayer.append(svg("text", { x: sx, y: sy, class: "shield-mark" }, mark));
    }
    room.dataset.name = t("board.room_title", { room: name, shield: t(`shield.${box.shield}`), door: box.doorSquare });
    g.append(room);
  }
  view.root.append(g);
}

export function drawGallery(view) {
  const g = svg("g", { class: "gallery" });
  const doors = new Map(Object.values(view.layout.rooms).map((r) => [r.doorSquare, r]));
  for (const cell of Object.values(view.layout.squares)) {
    const isArrow = cell.name === view.board.arrow;
    const door = doors.get(cell.name);
    const sq = svg("g", {
      class: `square${isArrow ? " arrow" : ""}${door ? " door" : ""}`,
      role: "button",
      "data-testid": "square",
      "data-square": cell.name,
      "data-name": isArrow
        ? t("board.arrow_square", { square: cell.name })
        : door
          ? t("board.door_square", { square: cell.name, room: t(`room.${door.id}`) })
          : cell.name,
    });
    // The whole cell takes a tap or a click, the gaps between the stones too.
    sq.append(svg("rect", { x: cell.x, y: cell.y, width: S, height: S, class: "square-hit" }));
    sq.append(svg("rect", { x: cell.x + 1, y: cell.y + 1, width: S - 2, height: S - 2, rx: 5, class: "square-box" }));
    view.textLayer.append(svg("text", { x: cell.x + 5, y: cell.y + 13, class: `square-num${isArrow ? " on-arrow" : ""}` }, cell.name.slice(1)));
    if (isArrow) sq.append(arrowMark(cell));
    g.append(sq);
  }
  view.root.append(g);
}

function arrowMark(cell) {
  // An arrow pointing clockwise along the gallery from the arrow square.
  const angle = { left: -90, top: 0, right: 90, bottom: 180 }[cell.side] ?? 0;
  const cx = cell.x + S / 2;
  const cy = cell.y + S / 2 + 4;
  return svg("path", {
    d: "M-14,-5 H4 V-13 L17,0 L4,13 V5 H-14 Z",
    transform: `translate(${cx},${cy}) rotate(${angle})`,
    class: "arrow-mark",
  });
}

export function drawStairs(view) {
  const g = svg("g", { class: "stairs" });
  const boxes = Object.values(view.layout.steps);
  const total = view.layout.stepCount;
  for (const box of boxes) {
    const shade = 0.12 + (0.5 * box.depth) / Math.max(1, total - 1);
    const step = svg("g", {
      class: "step",
      role: "button",
      "data-testid": "step",
      "data-location": box.location,
      "data-value": box.value,
      "data-name": t("board.step_title", { value: box.value }),
    });
    step.append(svg("rect", { x: box.x + 1, y: box.y + 1, width: box.w - 2, height: box.h - 2, rx: 3, class: "step-box" }));
    step.append(svg("rect", { x: box.x + 1, y: box.y + 1, width: box.w - 2, height: box.h - 2, rx: 3, class: "step-shade", "fill-opacity": shade.toFixed(2) }));
    view.textLayer.append(svg("text", { x: box.x + box.w / 2, y: box.y + 14, class: "step-value" }, String(box.value)));
    g.append(step);
  }
  const start = view.layout.start;
  if (start) {
    const cell = svg("g", {
      class: "step start",
      role: "button",
      "data-testid": "hugo-start",
      "data-location": start.location,
      "data-name": t("board.start_title"),
    });
    cell.append(svg("rect", { x: start.x + 1, y: start.y + 1, width: start.w - 2, height: start.h - 2, rx: 3, class: "start-box" }));
    view.textLayer.append(svg("text", { x: start.x + start.w / 2, y: start.y + 14, class: "step-value" }, t("board.start")));
    g.append(cell);
  }
  const where = view.layout.pieces.stairsLabel;
  if (where) {
    const label = svg("text", { x: where.x, y: where.y, class: "stairs-label" }, t("board.stairs"));
    if (where.anchor !== "start") label.setAttribute("text-anchor", where.anchor);
    g.append(label);
  }
  view.root.append(g);
}

export function clockFace(time) {
  const [h, m] = time.split(":").map(Number);
  const hourAngle = ((h % 12) + m / 60) * 30;
  const minuteAngle = m * 6;
  const face = svg("g", { class: "clock-face" });
  face.append(svg("circle", { r: 46, class: "clock-disc" }));
  for (let i = 0; i < 12; i++) {
    const a = (i * Math.PI) / 6;
    face.append(
      svg("line", {
        x1: 38 * Math.sin(a),
        y1: -38 * Math.cos(a),
        x2: 43 * Math.sin(a),
        y2: -43 * Math.cos(a),
        class: i % 3 ? "tick" : "tick tick-major",
      }),
    );
  }
  face.append(svg("line", { x1: 0, y1: 4, x2: 0, y2: -24, class: "hand hand-hour", transform: `rotate(${hourAngle})` }));
  face.append(svg("line", { x1: 0, y1: 6, x2: 0, y2: -36, class: "hand hand-minute", transform: `rotate(${minuteAngle})` }));
  face.append(svg("circle", { r: 3.5, class: "clock-pin" }));
  return face;
}

/** Shrink the rooms' names that the estimate let stick out of their room (the fonts differ). */
export function fitLabels(view) {
  for (const label of view.root.querySelectorAll(".room-label")) {
    const width = Number(label.dataset.fit);
    let length = 0;
    try {
      length = label.getComputedTextLength(); // 0 while the board is not shown
    } catch {
      length = 0;
    }
    if (!(length > width)) continue;
    const size = parseFloat(getComputedStyle(label).fontSize) || 11;
    label.style.fontSize = `${Math.max(6, (size * width) / length).toFixed(1)}px`;
  }
}
