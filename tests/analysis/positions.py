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


def ballroom_placement(*, covered: bool = False) -> dict[str, Any]:
    """Midnight Party, round 2, four players level on 9 (so seat 0 moves first, RULES.md
    §8.6.4), every room taken but the ballroom (green, door G25): whoever enters it ends the
    round (§8.4). Seat 0 places its last guest; its guests on G21, G22 and G24 enter it with
    an exact 5, 4 or 2 (§4.2), and Hugo on G20 sweeps G21–G23 with his next move (§5.2).
    Only G25 adds the missing face, 1, so that seat 0's first number ends the round with
    its guests safe: G25 is clearly the best placement.

    ``covered``: three players, seat 0 already on G25 too, every face covered; the guest
    placed goes to the wine cellar whenever the round ends (§8.4), so the squares Hugo
    cannot reach first are worth exactly the same."""
    if covered:
        guests = [
            ["G21", "G22", "G24", "G25"],
            ["R:library", "R:fireplace", "R:chapel", "R:abandoned-room", "R:tower"],
            ["R:armory", "R:portrait-hall", "R:banquet-hall", "R:bedchamber", "R:music-room"],
        ]
    else:
        guests = [
            ["G21", "G22", "G24"],
            ["R:library", "R:fireplace", "R:chapel", "C3"],
            ["R:abandoned-room", "R:tower", "R:armory", "C4"],
            ["R:portrait-hall", "R:banquet-hall", "R:bedchamber", "R:music-room"],
        ]
    players = len(guests)
    return hugo_position(
        rules="midnight-party",
        players=players,
        round=2,
        phase="place",
        clock=None,
        hugo="G20",
        scores=[9] * players,
        round_scores=[[9] * players],
        guests=guests,
        place_queue=[0],
    )
