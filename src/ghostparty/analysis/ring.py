"""Where the board's squares, rooms and cellar are drawn in a figure: the gallery as a
rounded rectangle, numbered clockwise, its offset chosen from the board's data so that
the red rooms' doors lie on the top side and the green rooms' doors on the bottom side
(RULES.md §1.2: "the armory at the top, the lucky rooms at the bottom"), with the arrow
square 0 on the left side. Geometry only: no matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ghostparty.rules import Board

Side = Literal["top", "right", "bottom", "left"]


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


def ring_slots(long: int, short: int) -> list[Slot]:
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
    base = ring_slots(long, short)
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


def outward(side: Side) -> tuple[float, float]:
    return {"top": (0.0, 1.0), "right": (1.0, 0.0), "bottom": (0.0, -1.0), "left": (-1.0, 0.0)}[side]


def spread(centres: list[float], width: float, gap: float) -> list[float]:
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
