"""The die as an explicit chance step (RULES.md §1.4).

The rules never roll: in phase ``"roll"`` the die's outcome is an action like any
other. :func:`chance_outcomes` lists the outcomes with exact probabilities for search;
:func:`sample_roll` draws one from a random source the caller owns and seeds.
"""

from __future__ import annotations

from fractions import Fraction
from random import Random

from ghostparty.rules.actions import DIE, DIE_FACES, Roll
from ghostparty.rules.position import ROLL, Position


def chance_outcomes(position: Position) -> tuple[tuple[Roll, Fraction], ...]:
    """``((Roll(1), 1/6), (Roll(2), 1/6), (Roll(4), 1/6), (Roll(5), 1/6), (Roll(HUGO), 1/3))``
    in phase ``"roll"``; empty otherwise (the position is not a chance node)."""
    return DIE if position.phase == ROLL else ()


def sample_roll(rng: Random) -> Roll:
    """One roll of the die, each of its six faces equally likely."""
    return DIE_FACES[int(rng.random() * 6)]
