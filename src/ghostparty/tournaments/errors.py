"""The one error the tournament engine raises on bad input or an impossible event."""

from __future__ import annotations


class TournamentError(ValueError):
    """A tournament setting or event is malformed or impossible in the current state.

    ``field`` names what was wrong (``"table_size"``, ``"places[2]"``, ``"seats"``), so a
    server can answer with a 400 that points at it; the state is left unchanged.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
