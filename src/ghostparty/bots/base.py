"""The bot interface and a registry of bots by name."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from ghostparty.rules import Action, Position


class Bot(Protocol):
    """A player: given a position where it must decide, returns one legal action.

    ``choose`` is called in phases ``"place"`` and ``"move"`` (never for die rolls) and
    must be deterministic for a given position and random source state.
    """

    name: str

    def choose(self, position: Position, rng: Random) -> Action: ...


_REGISTRY: dict[str, Callable[[], Bot]] = {}
_LEVELS: dict[str, int] = {}


def register(name: str, factory: Callable[[], Bot], level: int = 0) -> None:
    """Make a bot available by ``name`` (to ``make_bot`` and the command line).

    ``level`` orders the bots from weakest to strongest in :func:`bot_names`.
    """
    _REGISTRY[name] = factory
    _LEVELS[name] = level


def bot_names() -> list[str]:
    """The registered bot names, weakest first."""
    return sorted(_REGISTRY, key=lambda name: (_LEVELS.get(name, 0), name))


def make_bot(name: str) -> Bot:
    """A new bot of the kind registered as ``name``.

    :raises ValueError: for an unknown name.
    """
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(_REGISTRY)}") from None
