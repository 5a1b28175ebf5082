"""The review's accounting over random games of both rule sets and 2-8 players (hypothesis):
each seat's terms add up to its result, every roll's luck averages 0 over the die, and the
results with average dice add up, over the seats, to the results."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.rules import DIE, ROLL, apply

from .review_games import random_record

games = st.tuples(st.sampled_from(["hugo", "midnight-party"]), st.integers(2, 8), st.integers(0, 10_000))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_seats_terms_add_up_and_luck_averages_zero_per_roll(game: tuple[str, int, int]) -> None:
    rules, players, seed = game
    record = random_record(rules, players, seed, limit=90)
    evaluator = Evaluator(depth=1, horizon=0)
    review = review_game(record, evaluator=evaluator)
    wins = review.wins()
    for s in review.summaries:
        terms = s.start + s.skill + s.skill_of_others + s.luck + s.luck_from_others + s.drift
        assert terms == pytest.approx(s.result, abs=1e-9)
        assert s.result == wins[-1][s.seat]
        assert s.luck_adjusted == pytest.approx(s.start + s.skill + s.skill_of_others, abs=1e-9)
    assert sum(s.luck_adjusted for s in review.summaries) == pytest.approx(
        sum(s.result for s in review.summaries), abs=1e-9
    )
    positions = record.replay()
    for step in review.steps:
        if step.kind != "roll":
            continue
        position = positions[step.index]
        assert position.phase == ROLL
        mean = [0.0] * players
        for face, p in DIE:
            luck = evaluator.luck(position, apply(position, face))[0]
            for seat in range(players):
                mean[seat] += float(p) * luck[seat]
        assert mean == pytest.approx([0.0] * players, abs=1e-9)
