"""The board as a heat-map of capture probabilities, drawn with matplotlib (PNG and SVG).

The gallery's squares form a rounded rectangle, numbered clockwise; its offset is chosen
from the board's data so that the red rooms' doors lie on the top side and the green
rooms' doors on the bottom side (RULES.md §1.2: "the armory at the top, the lucky rooms
at the bottom"), with the arrow square 0 on the left side. The rooms are boxes outside
their door squares, with their names and shields; the cellar steps climb inside the
ring to square 0. Each square is coloured by the probability that a guest starting there
is captured, and shows its number, that probability and the mean spooky points its
captures cost. Squares with fewer than ``min_samples`` samples are hatched grey instead
of coloured: their numbers are too uncertain to be shown as if they were known.

matplotlib is an optional dependency (``pip install 'ghostparty[analysis]'``) and is
imported only when drawing; figures are rendered with the Agg canvas, never pyplot.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ghostparty.analysis.simulate import Simulation, SquareStat
from ghostparty.rules import Board, ruleset

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Side = Literal["top", "right", "bottom", "left"]

#: What to tell someone who has no matplotlib.
INSTALL_HINT = "drawing needs matplotlib: pip install 'ghostparty[analysis]'"

CELL = 0.92  # a square's size; squares are 1 apart
ROOM_GAP = 0.28  # from a square's edge to its room's box
SHIELD_COLOURS = {"red": "#c62828", "green": "#2e7d32", "neutral": "#8d8d8d"}
PAPER = "#fbf8f1"
INK = "#2b2b2b"


def matplotlib_available() -> bool:
    """Whether matplotlib can be imported (without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


# -- layout ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """Where one square is drawn: its centre and the side of the ring it is on."""

    x: float
    y: float
    side: Side


@dataclass(frozen=True)
class RingLayout:
    """The squares of a board on a rectangle: ``long`` squares on top and bottom, ``short`` per side."""

    long: int
    short: int
    #: The square drawn in the top-left corner.
    offset: int
    slots: tuple[Slot, ...]

    @property
    def width(self) -> int:
        return self.long - 1

    @property
    def height(self) -> int:
        return self.short + 1


def _ring_slots(long: int, short: int) -> list[Slot]:
    """Slots clockwise from the top-left corner (corners belong to the top and bottom rows)."""
    top = short + 1
    slots = [Slot(float(i), float(top), "top") for i in range(long)]
    slots += [Slot(float(long - 1), float(top - 1 - i), "right") for i in range(short)]
    slots += [Slot(float(long - 1 - i), 0.0, "bottom") for i in range(long)]
    slots += [Slot(0.0, float(1 + i), "left") for i in range(short)]
    return slots


def ring_layout(board: Board) -> RingLayout:
    """The board's squares on a rectangle, turned so its red doors are on top, green below.

    Among the turns that place the most red doors on the top side and green doors on the
    bottom side, the one with square 0 nearest the middle of the left side is chosen.
    """
    n = board.squares
    long = round(n * 0.35)
    short = (n - 2 * long) // 2
    if n % 2 or short < 1:
        raise ValueError(f"the heat-map draws boards with an even number of squares, at least 8; got {n}")
    base = _ring_slots(long, short)
    red = [room.door for room in board.rooms if room.shield == "red"]
    green = [room.door for room in board.rooms if room.shield == "green"]
    middle = (short + 1) / 2

    def score(offset: int) -> tuple[int, float]:
        def side(square: int) -> Side:
            return base[(square - offset) % n].side

        fit = sum(side(d) == "top" for d in red) + sum(side(d) == "bottom" for d in green)
        zero = base[(0 - offset) % n]
        away = abs(zero.y - middle) + (0 if zero.side == "left" else 100)
        return fit, -away

    offset = max(range(n), key=score)
    slots = tuple(base[(sq - offset) % n] for sq in range(n))
    return RingLayout(long, short, offset, slots)


def _outward(side: Side) -> tuple[float, float]:
    return {"top": (0.0, 1.0), "right": (1.0, 0.0), "bottom": (0.0, -1.0), "left": (-1.0, 0.0)}[side]


def _spread(centres: list[float], width: float, gap: float) -> list[float]:
    """Move boxes of ``width`` along a line apart, as little as possible, keeping their order."""
    if not centres:
        return []
    order = sorted(range(len(centres)), key=lambda i: centres[i])
    placed = [centres[i] for i in order]
    for _ in range(50):  # push apart, then re-centre each cluster on its wishes
        moved = False
        for k in range(1, len(placed)):
            need = placed[k - 1] + width + gap
            if placed[k] < need - 1e-9:
                placed[k] = need
                moved = True
        clusters: list[list[int]] = [[0]]
        for k in range(1, len(placed)):
            if placed[k] - placed[k - 1] <= width + gap + 1e-9:
                clusters[-1].append(k)
            else:
                clusters.append([k])
        for cluster in clusters:
            shift = sum(centres[order[k]] - placed[k] for k in cluster) / len(cluster)
            for k in cluster:
                placed[k] += shift
        if not moved:
            break
    result = [0.0] * len(centres)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


# -- drawing -----------------------------------------------------------------------------------


def _text_colour(rgba: tuple[float, float, float, float]) -> str:
    r, g, b, _ = rgba
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _percent(p: float) -> str:
    if math.isnan(p):
        return "–"
    return f"{p * 100:.0f}%" if p < 0.995 or p == 1 else ">99%"


def _shield(ax: Axes, x: float, y: float, size: float, colour: str, text: str) -> None:
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


def draw_heatmap(
    simulation: Simulation,
    min_samples: int = 30,
    title: str | None = None,
) -> Figure:
    """The heat-map of a simulation's starting squares, as a matplotlib ``Figure``.

    :raises ModuleNotFoundError: without matplotlib (see :data:`INSTALL_HINT`).
    :raises ValueError: for a board :func:`ring_layout` cannot draw.
    """
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.ticker import PercentFormatter

    settings = simulation.settings
    rules = ruleset(settings.rules)
    board = rules.board
    layout = ring_layout(board)
    stats = simulation.squares()
    solid = [s for s in stats if s.samples >= min_samples]
    values = [s.capture_probability for s in solid]
    low = min(values) if values else 0.0
    high = max(values) if values else 1.0
    low, high = math.floor(low * 20) / 20, math.ceil(high * 20) / 20
    if high - low < 0.05:
        low, high = max(0.0, high - 0.05), max(high, 0.05)
    cmap = colormaps["YlOrRd"]
    norm = Normalize(vmin=low, vmax=high)

    depth_side, depth_tb, width_tb = 2.4, 0.9, 2.15
    x_min = -0.5 - ROOM_GAP - depth_side - 0.2
    x_max = layout.width + 0.5 + ROOM_GAP + depth_side + 0.2
    y_min = -0.5 - ROOM_GAP - depth_tb - 0.15
    y_max = layout.height + 0.5 + ROOM_GAP + depth_tb + 0.15
    unit = 0.78  # inches per square
    fig_w = (x_max - x_min) * unit + 1.5
    fig_h = (y_max - y_min) * unit + 1.55
    fig = Figure(figsize=(fig_w, fig_h), facecolor="white")
    FigureCanvasAgg(fig)
    left = 0.25 / fig_w
    ax = fig.add_axes((left, 0.55 / fig_h, (x_max - x_min) * unit / fig_w, (y_max - y_min) * unit / fig_h))
    ax.set_xlim(x_min, x_max)
    ax.set_ylim(y_min, y_max)
    ax.set_aspect("equal")
    ax.axis("off")

    # The castle's floor inside the ring, and the ring's backing.
    ax.add_patch(
        FancyBboxPatch(
            (-0.62, -0.62),
            layout.width + 1.24,
            layout.height + 1.24,
            boxstyle="round,pad=0,rounding_size=0.55",
            facecolor="#ece6da",
            edgecolor="#b9ae98",
            linewidth=1.2,
            zorder=0,
        )
    )
    ax.add_patch(
        FancyBboxPatch(
            (0.55, 0.55),
            layout.width - 1.1,
            layout.height - 1.1,
            boxstyle="round,pad=0,rounding_size=0.3",
            facecolor=PAPER,
            edgecolor="#cfc5b0",
            linewidth=0.8,
            zorder=1,
        )
    )

    # The squares.
    for stat in stats:
        slot = layout.slots[stat.square]
        thin = stat.samples < min_samples
        face = (0.86, 0.86, 0.86, 1.0) if thin else cmap(norm(stat.capture_probability))
        box = FancyBboxPatch(
            (slot.x - CELL / 2, slot.y - CELL / 2),
            CELL,
            CELL,
            boxstyle="round,pad=0,rounding_size=0.1",
            facecolor=face,
            edgecolor="#6d6457" if not thin else "#9a9a9a",
            linewidth=0.8,
            hatch="////" if thin else None,
            zorder=3,
        )
        ax.add_patch(box)
        colour = "#555555" if thin else _text_colour(face)
        ax.text(
            slot.x - CELL / 2 + 0.07,
            slot.y + CELL / 2 - 0.07,
            str(stat.square),
            ha="left",
            va="top",
            fontsize=7,
            color=colour,
            zorder=5,
        )
        if thin:
            shown = "–" if stat.samples == 0 else _percent(stat.capture_probability)
            ax.text(
                slot.x,
                slot.y + 0.02,
                shown,
                ha="center",
                va="center",
                fontsize=10,
                color=colour,
                style="italic",
                zorder=5,
            )
            ax.text(
                slot.x,
                slot.y - 0.27,
                f"n={stat.samples}",
                ha="center",
                va="center",
                fontsize=6.5,
                color=colour,
                zorder=5,
            )
        else:
            ax.text(
                slot.x,
                slot.y + 0.0,
                _percent(stat.capture_probability),
                ha="center",
                va="center",
                fontsize=11,
                weight="bold",
                color=colour,
                zorder=5,
            )
            ax.text(
                slot.x,
                slot.y - 0.27,
                f"{stat.mean_capture_points:.1f} pts",
                ha="center",
                va="center",
                fontsize=6.5,
                color=colour,
                zorder=5,
            )

    # Square 0: the arrow square at the top of the cellar stairs.
    zero = layout.slots[0]
    nxt = layout.slots[1 % board.squares]
    ax.add_patch(
        FancyBboxPatch(
            (zero.x - CELL / 2 - 0.04, zero.y - CELL / 2 - 0.04),
            CELL + 0.08,
            CELL + 0.08,
            boxstyle="round,pad=0,rounding_size=0.12",
            facecolor="none",
            edgecolor=INK,
            linewidth=2.4,
            zorder=6,
        )
    )
    dx, dy = nxt.x - zero.x, nxt.y - zero.y  # clockwise, towards square 1
    tip_x, tip_y = zero.x + CELL * 0.3, zero.y + CELL * 0.26
    ax.add_patch(
        FancyArrowPatch(
            (tip_x - dx * 0.14, tip_y - dy * 0.14),
            (tip_x + dx * 0.16, tip_y + dy * 0.16),
            arrowstyle="-|>,head_length=3.5,head_width=2.2",
            color=_text_colour(cmap(norm(stats[0].capture_probability))) if stats[0].samples >= min_samples else INK,
            linewidth=1.5,
            zorder=7,
        )
    )

    _draw_rooms(ax, board, layout, depth_side, depth_tb, width_tb)
    _draw_cellar(ax, board, layout)
    _draw_notes(ax, layout, min_samples, settings.rules)
    _draw_extremes(ax, layout, stats, min_samples)

    # Colour bar, title and the facts of the run.
    board_right = left + (layout.width + 0.5 + ROOM_GAP + depth_side + 0.2 - x_min) * unit / fig_w
    cax = fig.add_axes((board_right + 0.25 / fig_w, 0.95 / fig_h, 0.2 / fig_w, 1 - 2.6 / fig_h))
    bar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=cax)
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    bar.set_label("probability of being captured", fontsize=10)
    bar.ax.tick_params(labelsize=8)
    bar.outline.set_linewidth(0.6)

    rules_name = rules.name
    heading = title or f"How dangerous is each starting square?  {rules_name}, {settings.players} players"
    fig.text(left + 0.01, 1 - 0.32 / fig_h, heading, fontsize=16, weight="bold", color=INK, va="top")
    horizon = _horizon_text(settings.rules, settings.horizon)
    placement = "placed uniformly at random" if settings.placement == "uniform" else f"placed by the {settings.bot} bot"
    fig.text(
        left + 0.01,
        1 - 0.72 / fig_h,
        f"A guest {placement} on the square at the start; every seat plays the {settings.bot} bot. "
        f"Colour and %: probability Hugo captures it {horizon}; pts: mean spooky points of its captures.",
        fontsize=9.5,
        color="#4a4a4a",
        va="top",
    )
    samples = [s.samples for s in stats]
    worst = max((s.ci_high - s.ci_low) / 2 for s in solid) if solid else math.nan
    fig.text(
        left + 0.01,
        0.22 / fig_h,
        f"{settings.games:,} simulated games, seed {settings.seed}; {min(samples):,}–{max(samples):,} "
        f"guests per square; 95% intervals within ±{worst * 100:.1f} percentage points. "
        f"ghostparty analyze squares --rules {settings.rules} --players {settings.players} --bot {settings.bot} "
        f"--placement {settings.placement} --games {settings.games} --seed {settings.seed}"
        + (f" --horizon {settings.horizon}" if settings.rules != "hugo" else ""),
        fontsize=7.5,
        color="#777777",
        va="bottom",
    )
    return fig


def _horizon_text(rules: str, horizon: str) -> str:
    if rules == "hugo" or horizon == "game":
        return "at least once before the game ends"
    return "during round 1"


def _draw_rooms(
    ax: Axes, board: Board, layout: RingLayout, depth_side: float, depth_tb: float, width_tb: float
) -> None:
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
        placed = _spread(along, size, 0.12)
        ox, oy = _outward(side)
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
                _shield(ax, cx - w / 2 + 0.3, cy, 0.5, colour, _shield_text(room.shield))


def _shield_text(shield: str) -> str:
    return "+1" if shield == "red" else "−3"


def _draw_cellar(ax: Axes, board: Board, layout: RingLayout) -> None:
    """The cellar steps, climbing inside the ring to square 0, Hugo's start below them."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    zero = layout.slots[0]
    ox, _ = _outward(zero.side)
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


def _draw_notes(ax: Axes, layout: RingLayout, min_samples: int, rules: str) -> None:
    """A small key inside the ring: direction, shields, thin squares."""
    from matplotlib.patches import FancyBboxPatch

    x = layout.width - 0.85
    y = layout.height - 0.9
    ax.text(x, y, "clockwise  ↻", ha="right", va="center", fontsize=9, color="#6b6255", zorder=5)
    red = "+1 point on entering" if rules == "hugo" else "+1 point at the round's end"
    green = "−3 points on entering" if rules == "hugo" else "−3 points at the round's end"
    rows = [("red", f"red shield: Hugo junior, {red}"), ("green", f"green shield: lucky room, {green}")]
    for k, (shield, text) in enumerate(rows):
        yy = y - 0.55 - 0.45 * k
        _shield(ax, x - 4.95, yy, 0.36, SHIELD_COLOURS[shield], "")
        ax.text(x - 4.7, yy, text, ha="left", va="center", fontsize=7.5, color="#4a4a4a", zorder=5)
    yy = y - 0.55 - 0.9
    ax.add_patch(
        FancyBboxPatch(
            (x - 5.1, yy - 0.16),
            0.32,
            0.32,
            boxstyle="round,pad=0,rounding_size=0.04",
            facecolor=(0.86, 0.86, 0.86, 1.0),
            edgecolor="#9a9a9a",
            hatch="////",
            linewidth=0.6,
            zorder=5,
        )
    )
    ax.text(
        x - 4.7,
        yy,
        f"fewer than {min_samples} samples: too uncertain to colour",
        ha="left",
        va="center",
        fontsize=7.5,
        color="#4a4a4a",
        zorder=5,
    )
    ax.text(
        x - 5.1,
        yy - 0.42,
        "square 0 (thick frame): the arrow square",
        ha="left",
        va="center",
        fontsize=7.5,
        color="#4a4a4a",
        zorder=5,
    )


def _draw_extremes(ax: Axes, layout: RingLayout, stats: Sequence[SquareStat], min_samples: int) -> None:
    """The most and the least dangerous squares, in words, inside the ring."""
    worst = top_squares(stats, 5, min_samples)
    best = top_squares(stats, 5, min_samples, safest=True)
    if not worst:
        return
    x, y = 0.95, layout.height - 0.9

    def line(chosen: list[SquareStat]) -> str:
        return ",  ".join(f"{s.square}: {_percent(s.capture_probability)}" for s in chosen)

    ax.text(x, y, "most dangerous", ha="left", va="center", fontsize=8, weight="bold", color="#8e1b1b", zorder=5)
    ax.text(x, y - 0.32, line(worst), ha="left", va="center", fontsize=8, color="#4a4a4a", zorder=5)
    ax.text(x, y - 0.75, "safest", ha="left", va="center", fontsize=8, weight="bold", color="#6b5a12", zorder=5)
    ax.text(x, y - 1.07, line(best), ha="left", va="center", fontsize=8, color="#4a4a4a", zorder=5)


def heatmap_paths(out: str | None, png: str | None, svg: str | None) -> list[Path]:
    """The files to write: ``out`` without a suffix means ``out.png`` and ``out.svg``.

    ``out`` with a ``.png`` or ``.svg`` suffix means that file alone; ``png`` and ``svg``
    name files of that format.

    :raises ValueError: for an ``out`` with another suffix.
    """
    paths: list[Path] = []
    if out is not None:
        path = Path(out)
        suffix = path.suffix.lower()
        if suffix in (".png", ".svg"):
            paths.append(path)
        elif suffix == "":
            paths += [path.with_name(path.name + ".png"), path.with_name(path.name + ".svg")]
        else:
            raise ValueError(f"--out {out}: expected no suffix (both formats), .png or .svg")
    if png is not None:
        paths.append(Path(png))
    if svg is not None:
        paths.append(Path(svg))
    return list(dict.fromkeys(paths))


def save_heatmap(simulation: Simulation, paths: Sequence[Path], min_samples: int = 30, dpi: int = 150) -> list[Path]:
    """Draw the heat-map and write it to each path (PNG or SVG by suffix); the paths written.

    SVG output is reproducible: no date, and fixed ids for the same picture.
    """
    import matplotlib

    fig = draw_heatmap(simulation, min_samples=min_samples)
    written = []
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".svg":
            with matplotlib.rc_context({"svg.hashsalt": "ghostparty", "svg.fonttype": "path"}):
                fig.savefig(path, format="svg", metadata={"Date": None})
        else:
            fig.savefig(path, format="png", dpi=dpi, metadata={"Software": "ghostparty analyze (matplotlib)"})
        written.append(path)
    return written


def top_squares(stats: Sequence[SquareStat], count: int, min_samples: int, safest: bool = False) -> list[SquareStat]:
    """The ``count`` most (or least) dangerous squares with enough samples."""
    solid = [s for s in stats if s.samples >= min_samples]
    solid.sort(key=lambda s: (s.capture_probability, s.mean_capture_points), reverse=not safest)
    return solid[:count]
