"""RULES.md §1.4: the die as an explicit chance step."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from random import Random

import pytest

from ghostparty import Game, Roll
from ghostparty.rules import DIE, HUGO, chance_outcomes, legal_actions, sample_roll

from .builders import hugo_pos, mp_pos


def test_die_outcomes_and_probabilities() -> None:
    """Faces 1, 2, HUGO, 4, 5, HUGO, each equally likely: P(HUGO) = 1/3, each number 1/6."""
    pos = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6])).state
    outcomes = dict(chance_outcomes(pos))
    assert outcomes == {
        Roll(1): Fraction(1, 6),
        Roll(2): Fraction(1, 6),
        Roll(4): Fraction(1, 6),
        Roll(5): Fraction(1, 6),
        Roll(HUGO): Fraction(1, 3),
    }
    assert sum(outcomes.values()) == 1
    assert all(isinstance(p, Fraction) for p in outcomes.values())
    # the chance outcomes are exactly the legal actions of the roll phase
    assert [roll for roll, _ in chance_outcomes(pos)] == legal_actions(pos)
    assert chance_outcomes(pos) == DIE


def test_only_the_roll_phase_is_a_chance_node() -> None:
    placing = Game("hugo", players=2).state
    moving = Game.from_position(mp_pos([["G1"] * 6, ["G2"] * 6], roll=4)).state
    assert chance_outcomes(placing) == ()
    assert chance_outcomes(moving) == ()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sample_roll_frequencies(seed: int) -> None:
    """60000 seeded draws: a chi-square test against 1/6, 1/6, 1/6, 1/6, 1/3 (4 degrees of freedom).

    18.47 is the 0.1% critical value; the seeds are fixed, so the test is deterministic.
    """
    rng = Random(seed)
    n = 60000
    counts = Counter(sample_roll(rng) for _ in range(n))
    expected = {roll: n * p for roll, p in DIE}
    assert set(counts) == set(expected)
    chi2 = sum((counts[roll] - e) ** 2 / e for roll, e in expected.items())
    assert chi2 < 18.47, (chi2, counts)
    assert abs(counts[Roll(HUGO)] / n - 1 / 3) < 0.01


def test_sample_roll_uses_only_the_given_source() -> None:
    a = [sample_roll(Random(42)) for _ in range(3)]
    b = [sample_roll(Random(42)) for _ in range(3)]
    assert a == b
    draws = [sample_roll(r) for r in [Random(7)] for _ in range(200)]
    assert len(set(draws)) == 5


def test_game_roll_follows_its_seed() -> None:
    def rolls(seed: int) -> list[Roll]:
        game = Game.from_position(hugo_pos([["G30"] * 6, ["G31"] * 6], hugo="G5"), seed=seed)
        out = []
        while len(out) < 30 and not game.is_over:
            out.append(game.roll())
            if game.state.phase == "move":
                game.push(game.actions()[0])
        return out

    assert rolls(1) == rolls(1)
    assert rolls(1) != rolls(2)
    rng = Random(1)
    assert rolls(1) == [sample_roll(rng) for _ in range(len(rolls(1)))]
    assert len(rolls(1)) > 10
