"""The review's cheaper paths: the same review as the plain computation where they claim so."""

from __future__ import annotations

import pytest

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.bots.learned import learned_estimates

from .review_games import random_record


def _plain(evaluator: Evaluator) -> Evaluator:
    evaluator._learned = learned_estimates  # type: ignore[assignment]
    return evaluator


def _json(review: object) -> dict[str, object]:
    data = review.as_dict()  # type: ignore[attr-defined]
    data["stats"].pop("cpu_seconds")
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 3, 11), ("midnight-party", 5, 12)])
def test_the_cached_leaf_leaves_a_review_unchanged(rules: str, players: int, seed: int) -> None:
    record = random_record(rules, players, seed, limit=60)
    fast = review_game(record, evaluator=Evaluator(depth=1))
    plain = review_game(record, evaluator=_plain(Evaluator(depth=1)))
    assert _json(fast) == _json(plain)
    assert fast.stats["leaves"] > 100
