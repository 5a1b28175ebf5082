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


def register(name: str, factory: Callable[[], Bot]) -> None:
    """Make a bot available by ``name`` (to ``make_bot`` and the command line)."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """The registered bot names, in registration order (weakest first)."""
    return list(_REGISTRY)


def make_bot(name: str) -> Bot:
    """A new bot of the kind registered as ``name``.

    :raises ValueError: for an unknown name.
    """
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(_REGISTRY)}") from None
