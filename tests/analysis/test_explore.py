"""The analysis board's engine over random positions of both rule sets and 2-8 players
(hypothesis): the options are exactly the legal actions, each leads where the rules say,
the best is the mover's highest, the numbers before a roll add up, and a finished game is
worth its exact shares (RULES.md §7)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostparty.analysis.explore import explore
from ghostparty.analysis.review import Evaluator
from ghostparty.analysis.review.solver import shares
from ghostparty.rules import DIE, MOVE, OVER, PLACE, ROLL, apply, legal_actions

from .review_games import random_record

positions = st.tuples(
    st.sampled_from(["hugo", "midnight-party"]), st.integers(2, 8), st.integers(0, 10_000), st.floats(0, 1)
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_the_options_are_the_legal_actions_valued_for_the_mover(drawn: tuple[str, int, int, float]) -> None:
    rules, players, seed, where = drawn
    played = random_record(rules, players, seed, limit=150).replay()
    position = played[min(int(where * len(played)), len(played) - 1)]
    found = explore(position, evaluator=Evaluator(depth=1, horizon=0))
    assert sum(found.win) == pytest.approx(1, abs=1e-9)
    if position.phase == OVER:
        assert found.options == () and found.win == shares(position)
        return
    legal = legal_actions(position)
    assert sorted(map(repr, (o.action for o in found.options))) == sorted(map(repr, legal))
    for option in found.options:
        assert option.after == apply(position, option.action)
        assert 0 <= option.win <= 1
    if position.phase == ROLL:
        chance = {roll: float(p) for roll, p in DIE}
        assert [o.probability for o in found.options] == [chance[o.action] for o in found.options]
        assert found.best is None
        mover = position.to_move
        assert found.win[mover] == pytest.approx(sum(o.probability * o.win for o in found.options), abs=1e-9)  # type: ignore[operator]
    else:
        assert position.phase in (MOVE, PLACE)
        wins = [o.win for o in found.options]
        assert wins == sorted(wins, reverse=True)
        assert [o.best for o in found.options] == [True] + [False] * (len(wins) - 1)
        assert found.win[position.to_move] == pytest.approx(wins[0], abs=1e-9)


def test_deep_rolls_out_every_move_of_a_decision_and_ranks_by_it() -> None:
    rng = Random(5)
    record = random_record("hugo", 3, 5, limit=60)
    decisions = [p for p in record.replay() if p.phase == MOVE and len(legal_actions(p)) > 2]
    position = rng.choice(decisions)
    fast = explore(position)
    deep = explore(position, deep=True, rollouts=12, cut=3, seed=1)
    assert deep.deep == (12, 3) and fast.deep is None
    assert all(o.deep is not None for o in deep.options) and all(o.deep is None for o in fast.options)
    assert [o.deep[0] for o in deep.options] == sorted((o.deep[0] for o in deep.options), reverse=True)  # type: ignore[index]
    assert deep.best is deep.options[0]
    # The fast values are the same with or without the deep look.
    assert {repr(o.action): o.win for o in deep.options} == {repr(o.action): o.win for o in fast.options}
    assert explore(position, deep=True, rollouts=12, cut=3, seed=1) == deep  # a pure function of its inputs


def test_deep_rolls_out_every_placement_too() -> None:
    """A placement (RULES.md §2.2) is judged as a move is: every square rolled out."""
    record = random_record("midnight-party", 2, 3, limit=14)
    position = [p for p in record.replay() if p.phase == PLACE][-1]
    deep = explore(position, deep=True, rollouts=6, cut=2, seed=1)
    assert deep.deep == (6, 2) and len(deep.options) == len(legal_actions(position))
    assert all(o.deep is not None for o in deep.options) and deep.best is deep.options[0]
    assert [o.deep[0] for o in deep.options] == sorted((o.deep[0] for o in deep.options), reverse=True)  # type: ignore[index]
    assert {repr(o.action): o.win for o in deep.options} == {repr(o.action): o.win for o in explore(position).options}


def test_bad_deep_settings_say_what_was_expected() -> None:
    position = random_record("hugo", 2, 1, limit=20).replay()[-1]
    with pytest.raises(ValueError, match="rollouts must be a whole number"):
        explore(position, deep=True, rollouts=0)


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_a_finished_game_has_no_options_and_its_exact_shares(rules: str) -> None:
    end = random_record(rules, 4, 3).replay()[-1]
    assert end.phase == OVER
    found = explore(end)
    assert found.options == () and found.best is None and found.win == shares(end)
    assert found.to_dict()["options"] == [] and found.to_dict()["phase"] == OVER
