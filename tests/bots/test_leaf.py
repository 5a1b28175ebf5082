"""The cached learned evaluation (:class:`~ghostparty.bots.leaf.LearnedLeaf`) gives exactly
the floats of the plain one, on random positions of both rule sets and 2-8 players."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostparty.bots.leaf import LearnedLeaf
from ghostparty.bots.learned import learned_estimates
from ghostparty.rules import OVER, RULESETS, Position, apply, legal_actions, start_position


def positions_of(rules: str, players: int, seed: int) -> list[Position]:
    """A random game's positions, and every position one action away from each of them:
    the siblings a search evaluates one after the other."""
    rng = random.Random(seed)
    position = start_position(RULESETS[rules], players, rng.randrange(players))
    found = [position]
    while position.phase != OVER:
        actions = legal_actions(position)
        found.extend(apply(position, action) for action in actions)
        position = apply(position, rng.choice(actions))
    return found


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RULESETS)), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_the_cached_leaf_equals_the_plain_evaluation(rules: str, players: int, seed: int) -> None:
    leaf = LearnedLeaf()
    for position in positions_of(rules, players, seed):
        assert leaf(position) == learned_estimates(position), position.describe()
    assert leaf.reused > 0  # the cache was used, not only filled


def test_a_full_cache_starts_afresh_and_stays_exact() -> None:
    leaf = LearnedLeaf(capacity=50)
    for position in positions_of("hugo", 4, 7):
        assert leaf(position) == learned_estimates(position)
        assert len(leaf._seats) <= 50
