"""Hand-built positions for the analysis tests."""

from __future__ import annotations

from typing import Any


def hugo_position(**changes: Any) -> dict[str, Any]:
    """A ``hugo-position/1`` of two players before seat 0's roll (clock 24:00, Hugo on
    G10), with ``changes`` laid over it."""
    data: dict[str, Any] = {
        "format": "hugo-position/1",
        "rules": "hugo",
        "players": 2,
        "first_player": 0,
        "round": 1,
        "phase": "roll",
        "to_move": 0,
        "roll": None,
        "clock": "24:00",
        "hugo": "G10",
        "scores": [10, 10],
        "round_scores": [],
        "guests": [
            ["G11", "G11", "G20", "G30", "R:tower", "R:library"],
            ["G9", "G12", "G25", "G26", "R:armory", "C9"],
        ],
        "place_queue": [],
        "winners": [],
    }
    data.update(changes)
    return data
