"""Hand-built positions for the analysis tests."""

from __future__ import annotations

from typing import Any

from tests.rules.builders import Pos, hugo_pos

#: Seat 0's guests and seat 1's in :func:`hugo_position`.
GUESTS = [
    ["G11", "G11", "G20", "G30", "R:tower", "R:library"],
    ["G9", "G12", "G25", "G26", "R:armory", "C9"],
]


def hugo_position(**changes: Any) -> Pos:
    """A ``hugo-position/1`` of two players before seat 0's roll (clock 24:00, Hugo on
    G10), with ``changes`` laid over it."""
    return {**hugo_pos([list(seat) for seat in GUESTS], hugo="G10"), **changes}
