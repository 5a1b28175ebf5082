"""The bound that spares ``capture_odds`` from moving Hugo for nothing (``odds._out_of_reach``).

It must be sound — never call a square out of reach that Hugo's real moves land on
within that many moves (§5.1 his path and speed, §5.3 the clock raising it once he steps
onto G0) — and it should be tight where the arithmetic is plain, or the odds would be
right but slow.
"""

from __future__ import annotations

import random

import pytest

from ghostparty import Game
from ghostparty.rules import Roll, apply, position_from_dict
from ghostparty.rules.odds import _out_of_reach
from ghostparty.rules.position import Position

from .builders import hugo_pos, mp_pos

HUGO_ROLL = Roll("hugo")


def _positions(rules: str, players: int, seed: int) -> list[Position]:
    """Every position of phase "roll" of a seeded random game."""
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    while not game.is_over:
        if game.state.phase == "roll":
            found.append(game.state)
            game.roll()
        else:
            game.push(rng.choice(game.actions()))
    return found


def _landings(position: Position, moves: int) -> list[set[int]]:
    """``[m]``: the gallery squares Hugo's next m+1 moves in a row end on."""
    landed: set[int] = set()
    found = []
    for _ in range(moves):
        if position.phase != "roll":
            break
        position = apply(position, HUGO_ROLL)
        if position.hugo < position.ruleset.board.squares:
            landed.add(position.hugo)
        found.append(set(landed))
    return found


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 3, 21), ("hugo", 5, 22), ("midnight-party", 4, 23)])
def test_the_bound_is_sound(rules: str, players: int, seed: int) -> None:
    checked = 0
    for position in _positions(rules, players, seed)[::3]:
        for m, landed in enumerate(_landings(position, 3), start=1):
            for square in landed:
                assert not _out_of_reach(position, {square}, m), (position.describe(), square, m)
                assert not _out_of_reach(position, {square, (square + 20) % 40}, m)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    ("data", "squares", "moves", "expected"),
    [
        # on the gallery, clock 24:00 (speed 3, then 4 from 1:00 on, §5.3)
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {23}, 1, False),  # exactly 3 steps
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {24}, 1, True),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {24, 23}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {26}, 2, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {27}, 2, True),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {19}, 5, True),  # behind him: 39 steps
        # his own square: once round, past G0, so up to 7 a move (40 steps)
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {20}, 6, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G20"), {20}, 5, True),
        # square 0 is reached before the clock can strike: his speed now
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G37"), {0}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G36"), {0}, 1, True),
        # past square 0 the clock may raise his speed: up to 7 a move from 24:00
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G36"), {5}, 2, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G36"), {1}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G36"), {12}, 1, True),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G39", clock="4:00"), {6}, 1, False),  # 7 steps at 7
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="G39", clock="4:00"), {7}, 1, True),
        # in the cellar (§1.3): START, eight steps, then G0 at speed 3 (23:45); past G0 the
        # clock may have raised it to 7
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="START", clock="23:45"), {0}, 3, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="START", clock="23:45"), {0}, 2, True),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {0}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {2}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {7}, 1, True),  # 1 + 7 steps
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {6}, 1, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {13}, 2, False),
        (hugo_pos([["G1"] * 6, ["G2"] * 6], hugo="C3", clock="23:45"), {14}, 2, True),
        # midnight-party: no clock, the speed is the round's
        (mp_pos([["G1"] * 6, ["G2"] * 6], hugo="G10"), {13}, 1, False),
        (mp_pos([["G1"] * 6, ["G2"] * 6], hugo="G10"), {14}, 1, True),
        (mp_pos([["G1"] * 6, ["G2"] * 6], hugo="C3"), {0}, 1, False),  # C3, C2, then G0
        (mp_pos([["G1"] * 6, ["G2"] * 6], hugo="C3"), {1}, 1, False),
        (mp_pos([["G1"] * 6, ["G2"] * 6], hugo="C3"), {2}, 1, True),
    ],
)
def test_the_bound_is_tight_where_the_arithmetic_is_plain(
    data: dict, squares: set[int], moves: int, expected: bool
) -> None:
    assert _out_of_reach(position_from_dict(data), squares, moves) is expected
