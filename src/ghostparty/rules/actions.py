"""Actions: one die roll or one decision, as small immutable values.

Each action is a :class:`~typing.NamedTuple` whose fields use FORMAT.md's location
names, so actions are independent of the board, hashable, cheap and print as code you
can paste back::

    >>> Move("G8", "R:fireplace")
    Move(source='G8', target='R:fireplace')
    >>> Roll(HUGO)
    Roll(face='hugo')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, NamedTuple

#: The die face that moves Hugo (RULES.md §1.4).
HUGO: Literal["hugo"] = "hugo"

Face = int | Literal["hugo"]


class Roll(NamedTuple):
    """The die's outcome: 1, 2, 4, 5 or :data:`HUGO` (phase ``"roll"``)."""

    face: Face


class Place(NamedTuple):
    """Place a waiting guest on an empty gallery square (phase ``"place"``, RULES.md §2.2)."""

    square: str


class Move(NamedTuple):
    """Move one guest from ``source`` to ``target`` (phase ``"move"``, RULES.md §4.6)."""

    source: str
    target: str


class Pass(NamedTuple):
    """Decline to move the only guest on the gallery (``midnight-party``, RULES.md §8.3)."""


Action = Roll | Place | Move | Pass

#: The die (RULES.md §1.4): every chance outcome with its probability.
DIE: tuple[tuple[Roll, Fraction], ...] = (
    (Roll(1), Fraction(1, 6)),
    (Roll(2), Fraction(1, 6)),
    (Roll(4), Fraction(1, 6)),
    (Roll(5), Fraction(1, 6)),
    (Roll(HUGO), Fraction(1, 3)),
)
#: The six faces, each equally likely, for sampling.
DIE_FACES: tuple[Roll, ...] = (Roll(1), Roll(2), Roll(HUGO), Roll(4), Roll(5), Roll(HUGO))
ROLLS: tuple[Roll, ...] = tuple(roll for roll, _ in DIE)
PASS = Pass()
