"""Seeded random games for the review's tests, played by the rules core alone."""

from __future__ import annotations

from random import Random

from ghostparty.rules import OVER, ROLL, GameRecord, Position, legal_actions, ruleset, sample_roll, start_position
from ghostparty.rules import apply as apply_action


def random_record(rules: str, players: int, seed: int, limit: int = 2000) -> GameRecord:
    """A game where every decision is a random legal action (at most ``limit`` actions)."""
    rng = Random(seed)
    position = start_position(ruleset(rules), players)
    start = position
    actions = []
    while position.phase != OVER and len(actions) < limit:
        action = sample_roll(rng) if position.phase == ROLL else rng.choice(legal_actions(position))
        actions.append(action)
        position = apply_action(position, action)
    return GameRecord(start=start, actions=tuple(actions), seed=seed)


def late_positions(rules: str, players: int, seeds: range, last: int = 6) -> list[Position]:
    """Positions of phase roll or move among the ``last`` before each game's end."""
    found = []
    for seed in seeds:
        positions = random_record(rules, players, seed).replay()
        found += [p for p in positions[-last - 1 : -1] if p.phase in ("roll", "move")]
    return found
