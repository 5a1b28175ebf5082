"""Actions: one die roll or one decision, as small immutable values.

Each of :class:`Roll`, :class:`Place`, :class:`Move` and :class:`Pass` is a type of its
own whose fields use FORMAT.md's location names, so actions are independent of the
board, and print as code you can paste back::

    >>> Move("G8", "R:fireplace")
    Move(source='G8', target='R:fireplace')
    >>> Roll(HUGO)
    Roll(face='hugo')
    >>> Place("G12") == Roll("G12"), Pass() == ()
    (False, False)

Actions are **interned**: constructing one with the same fields (of the same types)
twice gives the same object, so equality and hashing are by identity — the cheapest
there is, done in C, with no cross-type equality — and still mean "same type, equal
fields". Pickling and copying keep that (an action unpickles to the interned one).
Actions do not order: sort them by a key (e.g. their index in
:func:`~ghostparty.rules.legal_actions`).

Actions naming locations of the built-in boards (and the die's faces) are kept for the
life of the process, a few thousand objects at most; any other action (a typo, a
custom board) is held only while something refers to it, so reading actions from
untrusted input cannot grow memory without bound.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, Literal, NoReturn, TypeVar, final

from ghostparty.rules.board import HUGO_BOARD, MIDNIGHT_PARTY_BOARD

#: The die face that moves Hugo (RULES.md §1.4).
HUGO: Literal["hugo"] = "hugo"

Face = int | Literal["hugo"]

_A = TypeVar("_A", bound="_Action")

# Location names of the built-in boards: actions made only of these are kept for good.
_NAMES = frozenset(HUGO_BOARD.names + MIDNIGHT_PARTY_BOARD.names)
_FACES = frozenset((1, 2, 4, 5, HUGO))
# Interned actions by their class and fields: ``_KEPT`` for good, ``_HELD`` while in use.
_KEPT: dict[Hashable, Any] = {}
_HELD: weakref.WeakValueDictionary[Hashable, Any] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()


def _intern(cls: type[_A], key: Hashable, keep: bool, values: tuple[object, ...]) -> _A:
    """The one ``cls(*values)`` for ``key``, made the first time it is asked for (thread-safe)."""
    table: Any = _KEPT if keep else _HELD
    try:
        found = table.get(key)
    except TypeError:  # an unhashable field: a value of its own, equal only to itself
        return _make(cls, values)
    if found is None:
        with _LOCK:  # two threads must not each make an equal action
            found = table.get(key)
            if found is None:
                found = table[key] = _make(cls, values)
    return found  # type: ignore[no-any-return]


def _make(cls: type[_A], values: tuple[object, ...]) -> _A:
    action = object.__new__(cls)
    for name, value in zip(cls.__slots__, values, strict=True):
        object.__setattr__(action, name, value)
    return action


class _Action:
    """What the four action types share: immutable, slotted, interned."""

    __slots__ = ("__weakref__",)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __copy__(self: _A) -> _A:
        return self

    def __deepcopy__(self: _A, memo: object) -> _A:
        return self


@final
class Roll(_Action):
    """The die's outcome: 1, 2, 4, 5 or :data:`HUGO` (phase ``"roll"``)."""

    __slots__ = ("face",)
    __match_args__ = ("face",)
    face: Face

    def __new__(cls, face: Face) -> Roll:
        # The type is part of the key: Roll(True) and Roll(4.0) are not Roll(1), Roll(4).
        kind = type(face)
        keep = (kind is int or kind is str) and face in _FACES
        return _intern(Roll, (Roll, kind, face), keep, (face,))

    def __repr__(self) -> str:
        return f"Roll(face={self.face!r})"

    def __reduce__(self) -> tuple[type[Roll], tuple[Face]]:
        return Roll, (self.face,)


@final
class Place(_Action):
    """Place a waiting guest on an empty gallery square (phase ``"place"``, RULES.md §2.2)."""

    __slots__ = ("square",)
    __match_args__ = ("square",)
    square: str

    def __new__(cls, square: str) -> Place:
        kind = type(square)
        return _intern(Place, (Place, kind, square), kind is str and square in _NAMES, (square,))

    def __repr__(self) -> str:
        return f"Place(square={self.square!r})"

    def __reduce__(self) -> tuple[type[Place], tuple[str]]:
        return Place, (self.square,)


@final
class Move(_Action):
    """Move one guest from ``source`` to ``target`` (phase ``"move"``, RULES.md §4.6)."""

    __slots__ = ("source", "target")
    __match_args__ = ("source", "target")
    source: str
    target: str

    def __new__(cls, source: str, target: str) -> Move:
        if type(source) is str and type(target) is str:
            found: Move | None = _KEPT.get((source, target))
            if found is not None:
                return found
            if source in _NAMES and target in _NAMES:
                return _intern(Move, (source, target), True, (source, target))
        return _intern(Move, (Move, type(source), source, type(target), target), False, (source, target))

    def __repr__(self) -> str:
        return f"Move(source={self.source!r}, target={self.target!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[str, str]]:
        return Move, (self.source, self.target)


@final
class Pass(_Action):
    """Decline to move the only guest on the gallery (``midnight-party``, RULES.md §8.3)."""

    __slots__ = ()
    __match_args__ = ()

    def __new__(cls) -> Pass:
        return _intern(Pass, Pass, True, ())

    def __repr__(self) -> str:
        return "Pass()"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return Pass, ()


Action = Roll | Place | Move | Pass


def known_move(source: str, target: str) -> Move | None:
    """The interned ``Move(source, target)`` if it names two built-in board locations and was
    made before (the move tables make all of a board's); else ``None``. A fast path for readers."""
    return _KEPT.get((source, target))  # type: ignore[no-any-return]


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
