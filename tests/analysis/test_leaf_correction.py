"""The review's leaf correction: its file, how it shifts margins, and that the evaluator uses it."""

from __future__ import annotations

import pytest

from ghostparty.analysis.review import Evaluator
from ghostparty.analysis.review.calibration import softmax_chances
from ghostparty.analysis.review.correction import Correction, load_correction, parse_correction
from ghostparty.bots.leaf import LearnedLeaf
from ghostparty.rules import ROLL, ruleset, start_position

from .review_games import random_record


def _roll_position(rules: str, players: int):  # type: ignore[no-untyped-def]
    """A roll of a random game where the seat to move is not seat 0."""
    record = random_record(rules, players, seed=3)
    return next(p for p in record.replay() if p.phase == ROLL and p.to_move != 0)


def test_the_shipped_file_covers_every_rule_set_and_player_count() -> None:
    correction = load_correction()
    for rules in ("hugo", "midnight-party"):
        for players in range(2, 9):
            for phase in ("roll", "place"):
                shift = correction.shifts[rules, players, phase]
                assert len(shift) == players
                assert abs(sum(shift)) < 1e-3  # a shift common to every seat would change no win chance


def test_a_shift_follows_the_seat_to_move() -> None:
    position = _roll_position("hugo", 4)
    correction = Correction({("hugo", 4, "roll"): (1.0, 2.0, 3.0, 4.0)})
    shifted = correction.apply(position, [0.0] * 4)
    assert shifted[position.to_move] == 1.0
    assert shifted[(position.to_move + 1) % 4] == 2.0
    assert shifted[(position.to_move - 1) % 4] == 4.0
    assert Correction().apply(position, [0.5] * 4) == (0.5,) * 4


def test_the_evaluator_s_leaf_is_the_softmax_of_the_corrected_margins() -> None:
    position = _roll_position("midnight-party", 2)
    correction = Correction({("midnight-party", 2, "roll"): (-0.5, 0.5)})
    evaluator = Evaluator(correction=correction)
    raw = LearnedLeaf()(position)
    expected = [m + (-0.5 if seat == position.to_move else 0.5) for seat, m in enumerate(raw)]
    win, margin = evaluator.leaf(position)
    assert margin == pytest.approx(expected)
    beta = evaluator.calibration.beta("midnight-party", 2)
    assert win == pytest.approx(softmax_chances(expected, beta))
    assert Evaluator(correction=Correction()).leaf(position)[1] == pytest.approx(raw)


def test_a_finished_game_is_not_corrected() -> None:
    record = random_record("hugo", 2, seed=5)
    last = record.replay()[-1]
    correction = Correction({("hugo", 2, phase): (-9.0, 9.0) for phase in ("roll", "place")})
    assert Evaluator(correction=correction).leaf(last) == Evaluator(correction=Correction()).leaf(last)


@pytest.mark.parametrize(
    ("document", "complaint"),
    [
        ({"betas": {}}, "'shifts'"),
        ({"shifts": {"hugo": {"2": {"move": [0, 0]}}}}, "phase"),
        ({"shifts": {"hugo": {"2": {"roll": [0, 0, 0]}}}}, "list of 2"),
        ({"shifts": {"hugo": {"2": {"roll": [0, True]}}}}, "numbers"),
    ],
)
def test_a_malformed_file_is_refused_with_what_was_expected(document: object, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        parse_correction(document)


def test_a_placement_leaf_is_corrected_with_its_own_shifts() -> None:
    start = start_position(ruleset("hugo"), 2)
    assert start.phase == "place"
    correction = Correction({("hugo", 2, "place"): (-1.0, 1.0), ("hugo", 2, "roll"): (0.0, 0.0)})
    raw = LearnedLeaf()(start)
    margin = Evaluator(correction=correction).leaf(start)[1]
    assert margin[start.to_move] == pytest.approx(raw[start.to_move] - 1.0)
    assert margin[1 - start.to_move] == pytest.approx(raw[1 - start.to_move] + 1.0)


@pytest.mark.parametrize(("rules", "players"), [("hugo", 2), ("midnight-party", 7)])
def test_the_review_s_evaluator_uses_the_shipped_correction_unless_given_another(rules: str, players: int) -> None:
    position = _roll_position(rules, players)
    raw = LearnedLeaf()(position)
    assert Evaluator().leaf(position)[1] == pytest.approx(load_correction().apply(position, raw))
    assert Evaluator().leaf(position)[1] != pytest.approx(raw)
    assert Evaluator(correction=Correction()).leaf(position)[1] == pytest.approx(raw)
