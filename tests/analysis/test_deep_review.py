"""The deep review: decisions judged by rollouts, the accounting still exact."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from ghostparty.analysis.deep import analyze
from ghostparty.analysis.review import Evaluator, GameReview, review_game
from ghostparty.analysis.review.deep_review import DeepJudge, deep_review_game
from ghostparty.analysis.review.judge import mark
from ghostparty.rules import MOVE, GameRecord, legal_actions

from .review_games import random_record

GAMES = [("hugo", 4, 1), ("midnight-party", 2, 2)]
# Small budgets: the folder must stay fast on a loaded 2-core machine.
CHEAP: dict[str, Any] = {"rollouts": 4, "cut": 2, "width": 2}


@cache
def reviewed(rules: str, players: int, seed: int) -> tuple[GameRecord, GameReview, list[tuple[int, int]]]:
    record = random_record(rules, players, seed)
    calls: list[tuple[int, int]] = []
    review = deep_review_game(
        record, **CHEAP, seed=5, evaluator=Evaluator(depth=1), progress=lambda d, t: calls.append((d, t))
    )
    return record, review, calls


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-seed{g[2]}")
def test_the_accounting_holds_exactly_for_the_deep_document(game: tuple[str, int, int]) -> None:
    _, review, _ = reviewed(*game)
    wins = review.wins()
    for summary in review.summaries:
        seat = summary.seat
        parts = summary.luck + summary.luck_from_others + summary.skill + summary.skill_of_others + summary.drift
        assert wins[-1][seat] - wins[0][seat] == pytest.approx(parts, abs=1e-9)
        assert summary.luck_adjusted == pytest.approx(summary.start + summary.skill + summary.skill_of_others, abs=1e-9)
    for step in review.steps:
        own = step.luck if step.luck is not None else step.skill
        assert [s + d for s, d in zip(own, step.drift, strict=True)] == pytest.approx(list(step.change), abs=1e-9)
        if step.kind != "roll":
            assert step.skill[step.seat] == pytest.approx(-step.loss, abs=1e-12)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-seed{g[2]}")
def test_every_move_decision_is_judged_by_rollouts_of_the_chosen_action(game: tuple[str, int, int]) -> None:
    record, review, calls = reviewed(*game)
    positions = record.replay()
    judged_moves = [step for step in review.steps if step.kind == "move" and step.judged]
    assert judged_moves and all(step.rollouts == CHEAP["rollouts"] for step in judged_moves)
    for step in judged_moves:
        assert step.loss >= 0.0 and step.mark == mark(step.loss)
        assert (step.loss == 0.0) == (step.loss_se == 0.0) or step.best == step.action
        assert sum(step.skill) == pytest.approx(0.0, abs=1e-9)  # the seats' win chances still add up to 1
        assert step.best in legal_actions(positions[step.index])
    assert calls[-1] == (len(record.actions), len(record.actions)) and len(calls) == len(record.actions)


def test_the_document_says_it_was_judged_deep_and_with_what() -> None:
    record, review, _ = reviewed("midnight-party", 2, 2)
    data = json.loads(json.dumps(review.as_dict()))
    assert data["format"] == "ghostparty-review/1" and data["judge"] == "deep"
    assert data["settings"]["deep"] == {**CHEAP, "policy": "learned", "seed": 5}
    deep_steps = [s for s in data["steps"] if "rollouts" in s]
    assert deep_steps and all("loss_se" in s and "best" in s for s in deep_steps)
    fast = review_game(record, evaluator=Evaluator(depth=1)).as_dict()
    assert fast["judge"] == "fast" and "deep" not in fast["settings"]
    assert not any("rollouts" in s for s in fast["steps"])


def test_the_same_seed_gives_the_same_review_and_another_seed_other_rollouts() -> None:
    record = random_record("hugo", 2, 3)

    def run(seed: int) -> dict[str, Any]:
        data = deep_review_game(record, **CHEAP, seed=seed, evaluator=Evaluator(depth=1)).as_dict()
        data["stats"].pop("cpu_seconds")
        return data

    first = run(1)
    assert run(1) == first
    assert run(2)["steps"] != first["steps"]


def test_the_action_played_is_rolled_out_even_where_the_width_would_prune_it() -> None:
    positions = [p for p in random_record("hugo", 2, 3).replay() if p.phase == MOVE and len(legal_actions(p)) >= 4]
    position = positions[0]
    ranked = analyze(position, rollouts=2, cut=1, width=None)
    worst = ranked.options[-1].action
    pruned = analyze(position, rollouts=2, cut=1, width=1)
    assert worst in pruned.pruned
    kept = analyze(position, rollouts=2, cut=1, width=1, include=(worst,))
    assert [o.action for o in kept.options].count(worst) == 1 and worst not in kept.pruned
    assert len(kept.options) == 2
    assert all(sum(o.seats) == pytest.approx(1.0) for o in kept.options)


def test_every_placement_with_a_choice_is_judged_by_its_rollouts() -> None:
    """Placements are rolled out as moves are (RULES.md §8.6: every round of midnight-party
    starts with them), the square played among the candidates."""
    record = random_record("midnight-party", 2, 2)
    deep = deep_review_game(record, **CHEAP, evaluator=Evaluator(depth=1))
    places = [step for step in deep.steps if step.kind == "place" and step.judged]
    assert places
    assert all(step.rollouts == CHEAP["rollouts"] for step in places)
    assert all(step.best is not None and step.loss >= 0.0 for step in places)


def test_bad_rollout_settings_say_what_was_expected() -> None:
    with pytest.raises(ValueError, match="rollouts must be"):
        DeepJudge(rollouts=0)
    with pytest.raises(ValueError, match="unknown bot"):
        DeepJudge(policy="no-such-bot")
