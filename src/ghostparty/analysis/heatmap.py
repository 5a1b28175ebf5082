"""The board as a heat-map of capture probabilities, drawn with matplotlib (PNG and SVG).

The board is laid out as :mod:`.ring` places it and its parts drawn as
:mod:`.board_drawing` draws them. Each square is coloured by the probability that a guest starting there
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
from pathlib import Path
from typing import TYPE_CHECKING

from ghostparty.analysis.board_drawing import (
    CELL,
    INK,
    PAPER,
    ROOM_GAP,
    SHIELD_COLOURS,
    draw_cellar,
    draw_rooms,
    percent,
    shield,
    text_colour,
)
from ghostparty.analysis.ring import RingLayout, ring_layout
from ghostparty.analysis.simulate import Simulation, SquareStat
from ghostparty.rules import ruleset

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: What to tell someone who has no matplotlib.
INSTALL_HINT = "drawing needs matplotlib: pip install 'ghostparty[analysis]'"


def matplotlib_available() -> bool:
    """Whether matplotlib can be imported (without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


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
        colour = "#555555" if thin else text_colour(face)
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
            shown = "–" if stat.samples == 0 else percent(stat.capture_probability)
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
                percent(stat.capture_probability),
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
            color=text_colour(cmap(norm(stats[0].capture_probability))) if stats[0].samples >= min_samples else INK,
            linewidth=1.5,
            zorder=7,
        )
    )

    draw_rooms(ax, board, layout, depth_side, depth_tb, width_tb)
    draw_cellar(ax, board, layout)
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


def _draw_notes(ax: Axes, layout: RingLayout, min_samples: int, rules: str) -> None:
    """A small key inside the ring: direction, shields, thin squares."""
    from matplotlib.patches import FancyBboxPatch

    x = layout.width - 0.85
    y = layout.height - 0.9
    ax.text(x, y, "clockwise  ↻", ha="right", va="center", fontsize=9, color="#6b6255", zorder=5)
    red = "+1 point on entering" if rules == "hugo" else "+1 point at the round's end"
    green = "−3 points on entering" if rules == "hugo" else "−3 points at the round's end"
    rows = [("red", f"red shield: Hugo junior, {red}"), ("green", f"green shield: lucky room, {green}")]
    for k, (kind, text) in enumerate(rows):
        yy = y - 0.55 - 0.45 * k
        shield(ax, x - 4.95, yy, 0.36, SHIELD_COLOURS[kind], "")
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
        return ",  ".join(f"{s.square}: {percent(s.capture_probability)}" for s in chosen)

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
