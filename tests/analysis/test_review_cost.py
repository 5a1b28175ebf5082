"""The review's cheaper paths: the same review as the plain computation where they claim so."""

from __future__ import annotations

import pytest

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.bots.learned import learned_estimates
from ghostparty.rules import MOVE, Position, apply, legal_actions

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
    fast = review_game(record, evaluator=Evaluator(depth=2, horizon=0))
    plain = review_game(record, evaluator=_plain(Evaluator(depth=2, horizon=0)))
    assert _json(fast) == _json(plain)
    assert fast.stats["leaves"] > 100


def _decisions(rules: str, players: int, seed: int) -> list[Position]:
    positions = random_record(rules, players, seed, limit=90).replay()
    return [p for p in positions if p.phase == MOVE and len(legal_actions(p)) > 2][:6]


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 4, 21), ("midnight-party", 2, 22)])
def test_screened_options_are_clearly_worse_and_the_best_and_the_played_are_full(
    rules: str, players: int, seed: int
) -> None:
    evaluator = Evaluator(horizon=0)
    full = Evaluator(horizon=0, screen=None)
    for position in _decisions(rules, players, seed):
        mover = position.to_move
        played = legal_actions(position)[-1]
        options = evaluator.actions(position, played)
        best, _ = evaluator.best(position, options)
        top = max(evaluator._screened(apply(position, action)).win[mover] for action, _ in options)
        shallow = 0
        for action, value in options:
            child = apply(position, action)
            if value == full.value(child):
                continue
            shallow += 1
            assert action not in (best, played)
            assert value == evaluator._screened(child)
            assert value.win[mover] < top - evaluator.screen + 1e-12
        assert shallow < len(options) - 1


def test_the_gap_only_drops_what_the_beam_would_search() -> None:
    position = _decisions("hugo", 3, 23)[0]
    child = apply(position, legal_actions(position)[0])
    wide = Evaluator(horizon=0, gap=1.0)
    assert wide.search(child, 2) == Evaluator(horizon=0, gap=None).search(child, 2)
    narrow = Evaluator(horizon=0, gap=0.0)
    narrow.search(child, 2)
    assert narrow.stats["leaves"] < wide.stats["leaves"]
