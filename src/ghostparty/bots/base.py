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


def make_bot(spec: str) -> Bot:
    """A new bot from a spec: a registered name, optionally with options.

    ``"greedy"``, ``"expectimax:depth=3"``, ``"mcts:iterations=2000,exploration=0.5"``.
    Option values are read as int, float or text, and passed to the bot's constructor.

    :raises ValueError: for an unknown name or an option the bot does not take.
    """
    name, _, options = spec.partition(":")
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(bot_names())}")
    kwargs: dict[str, object] = {}
    for item in filter(None, options.split(",")):
        key, equals, text = item.partition("=")
        if not equals or not key.isidentifier():
            raise ValueError(f"bad bot option {item!r} in {spec!r}: expected name=value")
        kwargs[key] = _option_value(text)
    try:
        return factory(**kwargs)
    except TypeError as error:
        raise ValueError(f"bad options for bot {name!r} in {spec!r}: {error}") from None


def _option_value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"none": None, "true": True, "false": False}.get(text.lower(), text)
