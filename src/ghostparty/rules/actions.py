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

They are told apart by type, best with ``match``::

    >>> match Move("G8", "R:fireplace"):
    ...     case Move(source, target):
    ...         print(source, "->", target)
    G8 -> R:fireplace

Actions are **interned**: constructing one with the same fields (of the same types)
twice gives the same object, so equality and hashing are by identity — the cheapest
there is, done in C, with no cross-type equality — and still mean "same type, equal
fields". Pickling and copying keep that (an action unpickles to the interned one), in
any process. Hashes are not stable between processes (nor are those of strings): do
not rely on the order of a set of actions. Actions do not order: sort them by a key
(e.g. their index in :func:`~ghostparty.rules.legal_actions`). A field that cannot be
hashed (never a valid one) makes an action equal only to itself.

Actions naming locations of the built-in boards (and the die's faces) are kept for the
life of the process, a few thousand objects at most; any other action (a typo, a
custom board) is held only while something refers to it, so reading actions from
untrusted input cannot grow memory without bound. Interning is thread-safe.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, Final, Literal, NoReturn, TypeVar, final

from ghostparty.rules.board import HUGO_BOARD, MIDNIGHT_PARTY_BOARD

#: The die face that moves Hugo (RULES.md §1.4).
HUGO: Final[Literal["hugo"]] = "hugo"

Face = int | Literal["hugo"]

_A = TypeVar("_A", bound="_Action")

# Location names of the built-in boards: actions made only of these are kept for good.
_NAMES = frozenset(HUGO_BOARD.names + MIDNIGHT_PARTY_BOARD.names)
_FACES = frozenset((1, 2, 4, 5, HUGO))
# Interned actions kept for good, by their fields (all exact ``str`` or ``int``), one
# table per type: the constructors' fast path. Filled under _LOCK; read without it.
_ROLLS: dict[Hashable, Roll] = {}
_PLACES: dict[str, Place] = {}
_MOVES: dict[tuple[str, str], Move] = {}
# Every other action, by its type and fields (with their types), while it is in use.
_HELD: weakref.WeakValueDictionary[Hashable, Any] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()


def _intern(cls: type[_A], table: Any, key: Hashable, values: tuple[object, ...]) -> _A:
    """The one ``cls(*values)`` for ``key`` in ``table``, made the first time it is asked for."""
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
        kind = type(face)
        if (kind is int or kind is str) and face in _FACES:
            found = _ROLLS.get(face)
            return found if found is not None else _intern(Roll, _ROLLS, face, (face,))
        # The type is part of the key: Roll(True) and Roll(4.0) are not Roll(1), Roll(4).
        return _intern(Roll, _HELD, (Roll, kind, face), (face,))

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
        if type(square) is str:
            found = _PLACES.get(square)
            if found is not None:
                return found
            if square in _NAMES:
                return _intern(Place, _PLACES, square, (square,))
        return _intern(Place, _HELD, (Place, type(square), square), (square,))

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
            found = _MOVES.get((source, target))
            if found is not None:
                return found
            if source in _NAMES and target in _NAMES:
                return _intern(Move, _MOVES, (source, target), (source, target))
        return _intern(Move, _HELD, (Move, type(source), source, type(target), target), (source, target))

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
        return PASS

    def __repr__(self) -> str:
        return "Pass()"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return Pass, ()


Action = Roll | Place | Move | Pass

#: The one :class:`Pass`.
PASS: Final[Pass] = _make(Pass, ())


def known_move(source: object, target: object) -> Move | None:
    """``Move(source, target)`` if it was made before from two ``str`` naming locations of
    the built-in boards (the move tables make all of them), else ``None``: a readers'
    fast path that never makes an action."""
    if type(source) is str and type(target) is str:
        return _MOVES.get((source, target))
    return None


def known_roll(face: object) -> Roll | None:
    """``Roll(face)`` for a face of the die given as ``int`` or ``"hugo"``, else ``None``."""
    if type(face) is int or type(face) is str:
        return _ROLLS.get(face)
    return None


def known_place(square: object) -> Place | None:
    """``Place(square)`` if it was made before from a ``str`` naming a built-in board
    location (the move tables make every gallery square's), else ``None``."""
    return _PLACES.get(square) if type(square) is str else None


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
ROLLS: Final[tuple[Roll, ...]] = tuple(roll for roll, _ in DIE)
