"""The board's parts on matplotlib axes, for the heat-map (:mod:`.heatmap`): squares'
colours and labels, shields, the rooms as boxes outside their door squares with their
names and shields, and the cellar steps climbing inside the ring to square 0."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ghostparty.analysis.ring import RingLayout, Side, outward, spread
from ghostparty.rules import Board

if TYPE_CHECKING:
    from matplotlib.axes import Axes

CELL = 0.92  # a square's size; squares are 1 apart
ROOM_GAP = 0.28  # from a square's edge to its room's box
SHIELD_COLOURS = {"red": "#c62828", "green": "#2e7d32", "neutral": "#8d8d8d"}
PAPER = "#fbf8f1"
INK = "#2b2b2b"


def text_colour(rgba: tuple[float, float, float, float]) -> str:
    r, g, b, _ = rgba
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def percent(p: float) -> str:
    if math.isnan(p):
        return "–"
    return f"{p * 100:.0f}%" if p < 0.995 or p == 1 else ">99%"


def shield(ax: Axes, x: float, y: float, size: float, colour: str, text: str) -> None:
    """A heraldic shield centred on (x, y) with ``text`` in it."""
    from matplotlib.patches import Polygon

    w, h = size * 0.8, size
    points = [
        (x - w / 2, y + h / 2),
        (x + w / 2, y + h / 2),
        (x + w / 2, y - h * 0.05),
        (x, y - h / 2),
        (x - w / 2, y - h * 0.05),
    ]
    ax.add_patch(Polygon(points, closed=True, facecolor=colour, edgecolor="white", linewidth=1.0, zorder=6))
    ax.text(x, y + h * 0.08, text, ha="center", va="center", fontsize=6.5, color="white", weight="bold", zorder=7)


def draw_rooms(ax: Axes, board: Board, layout: RingLayout, depth_side: float, depth_tb: float, width_tb: float) -> None:
    """Every room as a box outside its door square, joined to it, with name and shield."""
    from matplotlib.patches import FancyBboxPatch

    by_side: dict[Side, list[int]] = {"top": [], "right": [], "bottom": [], "left": []}
    for i, room in enumerate(board.rooms):
        by_side[layout.slots[room.door].side].append(i)
    for side, indices in by_side.items():
        horizontal = side in ("top", "bottom")
        along = [
            layout.slots[board.rooms[i].door].x if horizontal else layout.slots[board.rooms[i].door].y for i in indices
        ]
        size = width_tb if horizontal else CELL
        placed = spread(along, size, 0.12)
        ox, oy = outward(side)
        for i, centre in zip(indices, placed, strict=True):
            room = board.rooms[i]
            door = layout.slots[room.door]
            depth = depth_tb if horizontal else depth_side
            near = 0.5 + ROOM_GAP  # from the door square's centre to the box
            if horizontal:
                cx, cy = centre, door.y + oy * (near + depth / 2)
                w, h = size, depth
            else:
                cx, cy = door.x + ox * (near + depth / 2), centre
                w, h = depth, size
            colour = SHIELD_COLOURS[room.shield]
            # The doorway: a short band from the square to the box.
            ax.plot(
                [door.x + ox * CELL / 2, cx - ox * w / 2 if not horizontal else cx],
                [door.y + oy * CELL / 2, cy - oy * h / 2 if horizontal else cy],
                color="#8a7f6a",
                linewidth=3.0,
                solid_capstyle="butt",
                zorder=2,
            )
            ax.add_patch(
                FancyBboxPatch(
                    (cx - w / 2, cy - h / 2),
                    w,
                    h,
                    boxstyle="round,pad=0,rounding_size=0.12",
                    facecolor=PAPER,
                    edgecolor=colour if room.shield != "neutral" else "#8a7f6a",
                    linewidth=2.0 if room.shield != "neutral" else 1.0,
                    zorder=4,
                )
            )
            name = room.id.replace("-", " ")
            has_shield = room.shield != "neutral"
            # Text offsets for rooms above/below the gallery and for rooms beside it.
            shift, name_dy, door_dy = (0.28, 0.1, -0.22) if horizontal else (0.25, 0.12, -0.2)
            text_x = cx + (shift if has_shield else 0.0)
            ax.text(text_x, cy + name_dy, name, ha="center", va="center", fontsize=8.5, color=INK, zorder=5)
            ax.text(
                text_x,
                cy + door_dy,
                f"door {room.door}",
                ha="center",
                va="center",
                fontsize=6.5,
                color="#7a7a7a",
                zorder=5,
            )
            if has_shield:
                shield(ax, cx - w / 2 + 0.3, cy, 0.5, colour, shield_text(room.shield))


def shield_text(shield: str) -> str:
    return "+1" if shield == "red" else "−3"


def draw_cellar(ax: Axes, board: Board, layout: RingLayout) -> None:
    """The cellar steps, climbing inside the ring to square 0, Hugo's start below them."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    zero = layout.slots[0]
    ox, _ = outward(zero.side)
    inward = -ox if zero.side in ("left", "right") else 1.0
    steps = list(board.steps)  # from the bottom (highest value) up
    count = len(steps) + (1 if board.has_start else 0)
    width = min(0.78, (layout.width - 2.4) / count)
    top = zero.y + 0.46
    base = zero.y - 0.46
    x = zero.x + inward * 0.62
    path: list[tuple[float, float]] = []
    # Nearest square 0: the top step; then down the stairs, then START.
    for k, value in enumerate(reversed(steps)):
        height = (top - base) * (1 - 0.09 * k)
        cx = x + inward * width / 2
        ax.add_patch(
            FancyBboxPatch(
                (cx - width / 2 + 0.02, base),
                width - 0.04,
                height,
                boxstyle="round,pad=0,rounding_size=0.05",
                facecolor="#d9cfbd" if value != board.overflow else "#cbbfa8",
                edgecolor="#8a7f6a",
                linewidth=0.8,
                zorder=3,
            )
        )
        ax.text(
            cx,
            base + height - 0.16,
            str(value),
            ha="center",
            va="center",
            fontsize=8,
            weight="bold",
            color=INK,
            zorder=5,
        )
        path.append((cx, base + height + 0.08))
        x += inward * width
    if board.has_start:
        cx = x + inward * width / 2 + inward * 0.05
        ax.add_patch(
            FancyBboxPatch(
                (cx - width / 2, base),
                width,
                0.36,
                boxstyle="round,pad=0,rounding_size=0.05",
                facecolor="#5b5346",
                edgecolor="#3b352c",
                linewidth=0.8,
                zorder=3,
            )
        )
        ax.text(cx, base + 0.18, "START", ha="center", va="center", fontsize=6, color="white", weight="bold", zorder=5)
        path.append((cx, base + 0.45))
    first = zero.x + inward * 0.62
    last = x + inward * width if board.has_start else x
    if board.overflow == steps[-1]:
        caption = f"cellar steps (spooky points; step {board.overflow} is the wine cellar)"
    else:
        caption = f"cellar steps (spooky points; when all are taken, step {board.overflow} again)"
    ax.text((first + last) / 2, base - 0.2, caption, ha="center", va="top", fontsize=7.5, color="#6b6255", zorder=5)
    if len(path) >= 2:
        ax.add_patch(
            FancyArrowPatch(
                path[-1],
                (zero.x + inward * (CELL / 2 + 0.05), zero.y + 0.3),
                connectionstyle="arc3,rad=0.12" if inward > 0 else "arc3,rad=-0.12",
                arrowstyle="-|>,head_length=5,head_width=3",
                color="#6b6255",
                linewidth=1.1,
                linestyle=(0, (3, 2)),
                zorder=6,
            )
        )
