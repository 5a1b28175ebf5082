"""Perft: the number of distinct action sequences of a given length from fixed positions.

Die outcomes count as actions (5 per roll node). Small counts are worked out by hand;
larger ones come from :mod:`.refmodel`, an independent brute force over FORMAT.md's
dicts that shares no code with the engine, and are pinned so that a change in either
shows up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghostparty.rules import Position, apply, legal_actions, position_from_dict

from . import refmodel
from .builders import hugo_pos, mp_pos

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "scenarios"
SHARED = ROOT.parent / "shared" / "scenarios"


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    actions = legal_actions(position)
    if depth == 1:
        return len(actions)
    return sum(perft(apply(position, action), depth - 1) for action in actions)


def perft_json(pos: dict, depth: int) -> int:
    return perft(position_from_dict(pos), depth)


# -- by hand ----------------------------------------------------------------------------------

# Hugo on START, every guest of a seat on one step: one source, no room (§4.2.1).
CELLAR = hugo_pos([["C10"] * 6, ["C9"] * 6], clock="23:45", hugo="START")
# Midnight Party, seat 0's only gallery guest G5 rolled 4: G9, the chapel (step 3), or pass.
SINGLE = mp_pos([["G5", "R:library", "R:tower", "C10", "C9", "C8"], ["G31"] * 6], roll=4)
# The last guest to place: 40 squares less the 11 taken.
LAST_PLACE = hugo_pos(
    [["G0", "G2", "G4", "G6", "G8", "G10"], ["G1", "G3", "G5", "G7", "G9"]],
    phase="place",
    to_move=1,
    clock="23:45",
    hugo="START",
    place_queue=[1],
)


@pytest.mark.parametrize(
    ("pos", "depth", "count"),
    [
        (CELLAR, 1, 5),  # the five outcomes
        (CELLAR, 2, 9),  # each number: one move (C10 -> G n-1); HUGO: seat 1's five outcomes
        # number, move, seat 1's 5 outcomes: 4 x 5 = 20; HUGO, then seat 1: 4 numbers x 1 move + HUGO x 5 = 9
        (CELLAR, 3, 29),
        (SINGLE, 1, 3),
        (SINGLE, 2, 15),  # whichever of the 3, seat 1 rolls next (the round goes on: G31 stays)
        (LAST_PLACE, 1, 29),
        (LAST_PLACE, 2, 145),  # then the first player rolls: 29 x 5
    ],
    ids=["cellar-1", "cellar-2", "cellar-3", "single-1", "single-2", "place-1", "place-2"],
)
def test_perft_by_hand(pos: dict, depth: int, count: int) -> None:
    assert perft_json(pos, depth) == count
    assert refmodel.perft(pos, depth) == count


def test_perft_clock_five_by_hand() -> None:
    """Own scenario 02 (seat 1 to roll at 4:00, Hugo on G33): HUGO ends the game (0 continuations);
    a 1 gives 4 moves, a 2 gives 5 (G1 enters seat 0's library exactly), a 4 gives 7, a 5 gives 6."""
    pos = json.loads((OWN / "02-hugo-clock-five-on-last-point.json").read_text(encoding="utf-8"))["position"]
    assert perft_json(pos, 2) == 4 + 5 + 7 + 6


# -- against the reference brute force ---------------------------------------------------------

PINNED = {
    "01-hugo-red-room-reaches-46": 619,
    "03-hugo-capture-on-arrow-ends-game-clock-stays": 886,
    "04-hugo-expel-green-room-both-ways": 1313,
    "05-hugo-pass-own-room-enter-next": 1110,
    "06-hugo-cellar-entry-expel-onto-hugo-freed-step": 1173,
    "07-mp-single-guest-pass-versus-forced-move": 158,
    "08-mp-round-ends-mid-hugo-move": 192,
    "09-mp-7p-speed-two-no-clock": 228,
    "10-hugo-expel-capture-46-then-green-shield": 626,
    "11-hugo-leave-room-onto-hugo": 937,
    "12-mp-last-guest-onto-hugo-round-ends-overflow-tie": 75299,
}


@pytest.mark.parametrize(("name", "count"), sorted(PINNED.items()))
def test_perft_depth_4_own_positions(name: str, count: int) -> None:
    pos = json.loads((OWN / f"{name}.json").read_text(encoding="utf-8"))["position"]
    assert refmodel.perft(pos, 4) == count
    assert perft_json(pos, 4) == count


def _shared_positions() -> list:
    files = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{SHARED} is absent"))]
    out = []
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        if {"invalid": True} not in data["steps"]:
            out.append(pytest.param(data["position"], id=path.stem))
    return out


@pytest.mark.parametrize("pos", _shared_positions())
def test_perft_depth_3_shared_positions(pos: dict) -> None:
    assert perft_json(pos, 3) == refmodel.perft(pos, 3)
