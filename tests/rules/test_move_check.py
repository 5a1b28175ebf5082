"""``apply`` checks a guest move with :func:`movegen.move_error`, a few table look-ups
instead of generating every move: it must accept exactly the moves ``legal_actions``
lists, for every pair of locations, in reachable and unreachable positions."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings

from ghostparty.rules import (
    MOVE,
    OVER,
    ROLL,
    IllegalAction,
    Move,
    Position,
    apply,
    legal_actions,
    position_from_dict,
    ruleset,
    start_position,
)
from ghostparty.rules.actions import DIE_FACES
from ghostparty.rules.movegen import TABLES, move_error

from .builders import examples, playout
from .test_properties import any_positions


def check_every_pair(position: Position) -> int:
    """Compare move_error with legal_actions on every (source, target); the number of legal moves."""
    board = position.ruleset.board
    legal = {a for a in legal_actions(position) if type(a) is Move}
    moves = TABLES[position.ruleset].moves
    for source in range(board.size):
        for target in range(board.size):
            why = move_error(position, source, target)
            assert (why == "") == (moves[source][target] in legal), (position.describe(), source, target, why)
    return len(legal)


@pytest.mark.parametrize(("rules", "players"), [("hugo", 4), ("hugo", 2), ("midnight-party", 3), ("midnight-party", 8)])
def test_every_pair_in_random_games(rules: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        game = playout(rules, players, seed)
        for position in game.positions:
            if position.phase == MOVE:
                checked += check_every_pair(position) > 0
    assert checked > 50


@settings(max_examples=examples(60))
@given(any_positions())
def test_every_pair_in_arbitrary_positions(pos: dict[str, Any]) -> None:
    """Crowded cellars, full rooms, Hugo in the cellar: the corners random games rarely reach."""
    position = position_from_dict(pos)
    if position.phase == MOVE:
        check_every_pair(position)


def test_apply_accepts_exactly_the_listed_moves() -> None:
    rng = random.Random(3)
    refused = 0
    for position in playout("hugo", 4, 11).positions:
        if position.phase != MOVE:
            continue
        legal = legal_actions(position)
        names = position.ruleset.board.names
        for _ in range(20):
            move = Move(rng.choice(names), rng.choice(names))
            if move in legal:
                apply(position, move)
            else:
                with pytest.raises(IllegalAction, match="is not legal"):
                    apply(position, move)
                refused += 1
    assert refused > 500


def test_threads_share_nothing_but_constants() -> None:
    """Threads generating and applying moves at once play the same games as one thread
    alone: nothing is remembered between calls (the old memo of the last moves is gone)."""

    def play(seed: int) -> list[Position]:
        rng = random.Random(seed)
        position = start_position(ruleset("hugo"), 4)
        seen = [position]
        while position.phase != OVER:
            actions = DIE_FACES if position.phase == ROLL else legal_actions(position)
            position = apply(position, actions[int(rng.random() * len(actions))])
            seen.append(position)
        return seen

    seeds = range(24)
    alone = [play(seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(play, seeds))
    assert together == alone
