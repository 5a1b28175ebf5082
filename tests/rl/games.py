"""Random games for the RL tests: every position of a seeded game, decisions and rolls."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from ghostparty.rules import OVER, ROLL, Position, apply, legal_actions, ruleset, sample_roll, start_position


def positions(rules: str, players: int, seed: int, first_player: int = 0) -> Iterator[Position]:
    """Every position of one random game (uniform decisions, the real die), the last one over."""
    rng = Random(seed)
    position = start_position(ruleset(rules), players, first_player % players)
    while True:
        yield position
        if position.phase == OVER:
            return
        if position.phase == ROLL:
            position = apply(position, sample_roll(rng))
        else:
            actions = legal_actions(position)
            position = apply(position, actions[int(rng.random() * len(actions))])
