"""Small builders for positions in FORMAT.md's dict form, shared by the rules tests.

Every test states the fields that matter to it; :func:`hugo_pos` and :func:`mp_pos`
fill in the rest with values that make a valid position.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

from ghostparty import Game

Pos = dict[str, Any]


def examples(count: int) -> int:
    """A property test's number of examples: ``count``, or a sixth of it (at least 5) under
    the ``mutation`` hypothesis profile, which runs the rules tests once per mutant."""
    return max(5, count // 6) if os.environ.get("HYPOTHESIS_PROFILE") == "mutation" else count


GUESTS_PER_PLAYER = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}  # RULES.md §1.5


def hugo_pos(guests: list[list[str]], **fields: Any) -> Pos:
    """A ``hugo`` position, by default seat 0 to roll, clock 24:00, Hugo on G20, scores 10."""
    players = len(guests)
    pos: Pos = {
        "format": "hugo-position/1",
        "rules": "hugo",
        "players": players,
        "first_player": 0,
        "round": 1,
        "phase": "roll",
        "to_move": 0,
        "roll": None,
        "clock": "24:00",
        "hugo": "G20",
        "scores": [10] * players,
        "round_scores": [],
        "guests": guests,
        "place_queue": [],
        "winners": [],
    }
    pos.update(fields)
    if fields.get("roll") is not None and "phase" not in fields:
        pos["phase"] = "move"
    return pos


def mp_pos(guests: list[list[str]], **fields: Any) -> Pos:
    """A ``midnight-party`` position, by default round 1, seat 0 to roll, Hugo on G20."""
    players = len(guests)
    pos: Pos = {
        "format": "hugo-position/1",
        "rules": "midnight-party",
        "players": players,
        "first_player": 0,
        "round": 1,
        "phase": "roll",
        "to_move": 0,
        "roll": None,
        "clock": None,
        "hugo": "G20",
        "scores": [0] * players,
        "round_scores": [],
        "guests": guests,
        "place_queue": [],
        "winners": [],
    }
    pos.update(fields)
    if fields.get("roll") is not None and "phase" not in fields:
        pos["phase"] = "move"
    return pos


def game(pos: Pos, seed: int | None = None) -> Game:
    return Game.from_position(copy.deepcopy(pos), seed=seed)


def moves(pos: Pos) -> list[dict[str, Any]]:
    """The legal actions of ``pos`` as dicts."""
    return game(pos).legal_actions()


def move_set(pos: Pos) -> set[tuple[str, str]]:
    """The legal guest moves of ``pos`` as a set of (from, to) pairs (passes left out)."""
    return {(a["from"], a["to"]) for a in moves(pos) if "from" in a}


def after(pos: Pos, *actions: dict[str, Any]) -> Pos:
    """The position dict after applying ``actions`` in order."""
    g = game(pos)
    for action in actions:
        g.apply(action)
    return g.position()


def multiset(guests: list[list[str]]) -> list[list[str]]:
    return [sorted(g) for g in guests]


def playout(rules: str, players: int, seed: int, first_player: int = 0, limit: int = 5000) -> Game:
    """A whole game with uniformly random decisions and the game's own seeded die."""
    g = Game(rules, players=players, seed=seed, first_player=first_player)
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_over:
            return g
        if g.state.phase == "roll":
            g.roll()
        else:
            g.push(rng.choice(g.actions()))
    raise AssertionError(f"{rules} {players}p seed {seed}: no end after {limit} actions")
