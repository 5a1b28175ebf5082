"""The bounded solver against a plain recursive expectimax, on late positions of random games."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from random import Random

import pytest

from ghostparty.analysis.review.evaluator import Evaluator
from ghostparty.analysis.review.solver import Solver, shares
from ghostparty.rules import DIE, MOVE, OVER, ROLL, Position, apply, legal_actions

from .review_games import late_positions

Leaf = Callable[[Position], tuple[float, ...]]


def plain(position: Position, rolls: int, leaf: Leaf) -> tuple[float, ...]:
    """Max-n expectimax with no table and no bounds: open lines after ``rolls`` rolls are worth ``leaf``;
    the mover takes the first action of highest value for itself."""
    if position.phase == OVER:
        return shares(position)
    if position.phase not in (ROLL, MOVE) or (rolls == 0 and position.phase == ROLL):
        return leaf(position)
    if position.phase == ROLL:
        total = [0.0] * position.players
        for roll, p in DIE:
            for seat, v in enumerate(plain(apply(position, roll), rolls - 1, leaf)):
                total[seat] += float(p) * v
        return tuple(total)
    best: tuple[float, ...] | None = None
    for action in legal_actions(position):
        value = plain(apply(position, action), rolls, leaf)
        if best is None or value[position.to_move] > best[position.to_move]:
            best = value
    assert best is not None
    return best


def pessimist(seat: int) -> Leaf:
    """Open lines: a loss for ``seat``, a win for the other (two players)."""
    return lambda position: tuple(0.0 if s == seat else 1.0 for s in range(position.players))


def optimist(seat: int) -> Leaf:
    return lambda position: tuple(1.0 if s == seat else 0.0 for s in range(position.players))


def random_leaf(seed: int) -> Leaf:
    """Open lines worth random shares (the same for the same position)."""

    def leaf(position: Position) -> tuple[float, ...]:
        rng = Random(f"{seed}/{hash(position)}")
        raw = [rng.random() for _ in range(position.players)]
        return tuple(v / sum(raw) for v in raw)

    return leaf


TWO = late_positions("hugo", 2, range(6)) + late_positions("midnight-party", 2, range(6), last=3)
MANY = late_positions("hugo", 4, range(4), last=4) + late_positions("midnight-party", 3, range(4), last=3)


@pytest.mark.parametrize("rolls", [0, 1, 2])
def test_two_player_bounds_are_the_plain_expectimax_counting_open_lines_as_loss_or_win(rolls: int) -> None:
    solver = Solver(horizon=rolls, budget=10**6)
    assert len(TWO) > 20
    for position in TWO:
        bounds = solver.bounds(position)
        assert bounds is not None
        for seat in (0, 1):
            assert bounds.low[seat] == pytest.approx(plain(position, rolls, pessimist(seat))[seat], abs=1e-12)
            assert bounds.high[seat] == pytest.approx(plain(position, rolls, optimist(seat))[seat], abs=1e-12)


@pytest.mark.parametrize("rolls", [1, 2])
def test_any_value_of_the_open_lines_lies_within_the_bounds(rolls: int) -> None:
    solver = Solver(horizon=rolls, budget=10**6)
    for position, seed in itertools.product(MANY + TWO[::3], range(3)):
        bounds = solver.bounds(position)
        assert bounds is not None
        value = plain(position, rolls, random_leaf(seed))
        assert bounds.contains(value, slack=1e-12), (position.describe(), bounds, value)


def test_a_longer_horizon_narrows_the_bounds_inside_the_shorter_ones() -> None:
    short, long = Solver(horizon=1, budget=10**6), Solver(horizon=2, budget=10**6)
    for position in MANY + TWO:
        outer, inner = short.bounds(position), long.bounds(position)
        assert outer is not None and inner is not None
        for seat in range(position.players):
            assert outer.low[seat] - 1e-12 <= inner.low[seat] <= inner.high[seat] <= outer.high[seat] + 1e-12


def test_where_the_horizon_covers_every_line_the_bounds_close_on_the_exact_value() -> None:
    closed = 0
    solver = Solver(horizon=2, budget=10**6)
    for position in MANY + TWO:
        bounds = solver.bounds(position)
        assert bounds is not None
        if bounds.width < 1e-12:
            closed += 1
            assert plain(position, 2, random_leaf(1)) == pytest.approx(bounds.low, abs=1e-12)
    assert closed > 0, "no late position closed: the test would prove nothing"


def test_the_budget_stops_a_large_search() -> None:
    position = MANY[0]
    assert Solver(horizon=3, budget=1).bounds(position) is None


def test_the_evaluators_values_lie_within_their_proven_bounds() -> None:
    evaluator = Evaluator(depth=1, horizon=2, budget=10**5)
    for position in MANY + TWO:
        value = evaluator.value(position)
        assert value.bounds.contains(value.win), (position.describe(), value)
    assert evaluator.stats["solver_calls"] > 0


def test_bad_settings_say_what_was_expected() -> None:
    with pytest.raises(ValueError, match="horizon must be"):
        Solver(horizon=-1)
    with pytest.raises(ValueError, match="budget must be"):
        Solver(budget=0)
