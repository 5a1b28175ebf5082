"""The errors the engine raises. All are :class:`ValueError` subclasses."""

from __future__ import annotations


class GhostPartyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPosition(GhostPartyError):
    """A position (FORMAT.md ``hugo-position/1``) is malformed or impossible.

    ``field`` names the offending field, e.g. ``"guests[1][0]"``.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class IllegalAction(GhostPartyError):
    """An action is not legal in the current position; the game is left unchanged."""


class InvalidAction(IllegalAction):
    """An action is malformed: not an action at all, or naming no such location."""


class InvalidRecord(GhostPartyError):
    """A game record is malformed or does not replay.

    ``index`` is the position of the first bad action in the record's action list,
    or ``None`` when the record's header or start position is wrong.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message if index is None else f"action {index}: {message}")
        self.index = index
