"""The game review: its accounting identity, luck's zero mean, the marks and the ratings."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.analysis.review.judge import decision_accuracy, game_accuracy, mark, performance_rating
from ghostparty.rules import OVER

from .review_games import random_record

GAMES = [("hugo", 4, 1), ("midnight-party", 2, 2), ("hugo", 2, 3)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-seed{g[2]}")
def reviewed(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    rules, players, seed = request.param
    record = random_record(rules, players, seed)
    calls: list[tuple[int, int]] = []
    review = review_game(record, evaluator=Evaluator(depth=1, horizon=2), progress=lambda d, t: calls.append((d, t)))
    return record, review, calls


def test_luck_skill_and_drift_add_up_to_each_seats_change_of_win_chance(reviewed) -> None:  # type: ignore[no-untyped-def]
    _, review, _ = reviewed
    wins = review.wins()
    for summary in review.summaries:
        seat = summary.seat
        parts = summary.luck + summary.luck_from_others + summary.skill + summary.skill_of_others + summary.drift
        assert wins[-1][seat] - wins[0][seat] == pytest.approx(parts, abs=1e-9)
        assert summary.result == wins[-1][seat]
        assert summary.luck_adjusted == pytest.approx(summary.start + summary.skill + summary.skill_of_others, abs=1e-9)


def test_a_moves_change_for_its_mover_is_minus_its_loss_and_a_forced_one_changes_nothing(reviewed) -> None:  # type: ignore[no-untyped-def]
    _, review, _ = reviewed
    moves = [step for step in review.steps if step.kind == "move"]
    assert any(step.judged for step in moves)
    for step in moves:
        assert step.change[step.seat] == pytest.approx(-step.loss, abs=1e-9)
        assert step.loss >= 0.0
        if not step.judged:
            assert step.change == pytest.approx((0.0,) * len(step.change), abs=1e-12)
            assert step.mark is None


def test_a_finished_game_ends_on_its_shares_and_values_stay_within_their_bounds(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, review, _ = reviewed
    final = record.final()
    assert final.phase == OVER and review.finished
    assert review.wins()[-1] == tuple(
        1 / len(final.winners) if s in final.winners else 0.0 for s in range(final.players)
    )
    for step in review.steps:
        assert step.after.bounds.contains(step.after.win)
        assert math.isclose(sum(step.after.win), 1.0, abs_tol=1e-6)


def test_the_review_is_json_and_reports_progress(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, review, calls = reviewed
    data = json.loads(json.dumps(review.as_dict()))
    assert data["format"] == "ghostparty-review/1"
    assert len(data["steps"]) == len(record.actions) and len(data["win_chances"]) == len(record.actions) + 1
    assert calls[-1] == (len(record.actions), len(record.actions)) and len(calls) == len(record.actions)
    marked = [s for s in data["steps"] if s.get("mark")]
    assert all(s["loss"] >= 0.05 and "best_label" in s for s in marked)


def test_luck_averages_to_zero_over_many_random_games() -> None:
    """Each roll's luck has mean 0 over the die; over ~1,500 rolls of random games the
    mean lies within 3.5 standard errors of 0 (a biased luck, e.g. measured at another
    depth than the average it is taken from, misses by 10 or more)."""
    lucks: list[float] = []
    for seed in range(12):
        review = review_game(random_record("midnight-party", 2, 100 + seed), evaluator=Evaluator(depth=1, horizon=0))
        lucks += [step.luck[step.seat] for step in review.steps if step.luck is not None]
    assert len(lucks) > 1000
    mean = statistics.fmean(lucks)
    error = statistics.stdev(lucks) / math.sqrt(len(lucks))
    assert abs(mean) < 3.5 * error, (mean, error)


def test_marks_follow_the_thresholds() -> None:
    assert [mark(x) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15, 0.6)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip


def test_accuracy_is_lichess_s_and_one_blunder_is_not_hidden_by_easy_moves() -> None:
    assert decision_accuracy(0.0) == 100.0
    assert decision_accuracy(0.10) == pytest.approx(
        103.1668100711649 * math.exp(-0.4354415386753951) - 3.166924740191411 + 1
    )
    assert decision_accuracy(1.0) == 0.0
    perfect = game_accuracy([0.0] * 20, [0.5] * 20)
    one_blunder = game_accuracy([0.0] * 20 + [0.5], [0.5] * 21)
    assert perfect is not None and one_blunder is not None
    assert perfect == pytest.approx(100.0, abs=1e-3)
    arithmetic = statistics.fmean(decision_accuracy(x) for x in [0.0] * 20 + [0.5])
    assert one_blunder < arithmetic - 10
    assert game_accuracy([], []) is None


def test_pr_is_500_times_the_mean_loss() -> None:
    assert performance_rating([0.01, 0.03]) == pytest.approx(10.0)
    assert performance_rating([]) is None


def test_a_depth_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="depth must be"):
        Evaluator(depth=0)


def test_a_decisions_skill_is_the_chosen_value_minus_the_best_and_drift_is_zero_for_moves(reviewed) -> None:  # type: ignore[no-untyped-def]
    _, review, _ = reviewed
    for step in review.steps:
        if step.kind == "roll":
            assert step.skill == (0.0,) * review.players
            continue
        assert step.skill[step.seat] == pytest.approx(-step.loss, abs=1e-9)
        assert [s + d for s, d in zip(step.skill, step.drift, strict=True)] == pytest.approx(
            list(step.change), abs=1e-9
        )
        if step.kind == "move":
            assert step.drift == pytest.approx((0.0,) * review.players, abs=1e-9)
