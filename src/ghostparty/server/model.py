"""Tables and seats as plain values, the way the store keeps them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

SeatKind = Literal["human", "bot"]
Status = Literal["open", "playing", "over"]

OPEN: Status = "open"
PLAYING: Status = "playing"
OVER: Status = "over"


def now() -> datetime:
    """The current time in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table: a person (with a name once joined) or a bot of a level."""

    seat: int
    kind: SeatKind
    bot: str | None = None
    name: str | None = None
    #: SHA-256 of the seat's secret token, hex; ``None`` while nobody holds the seat.
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.name is not None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One applied action of a game: its index, the seat that took it, FORMAT.md's dict."""

    index: int
    seat: int
    action: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Table:
    """A table from the lobby to the end of its game.

    ``version`` goes up by one with every change; a change is saved only if the stored
    version is still the one it was made from (see :meth:`Store.save`).
    """

    id: str
    rules: str
    players: int
    seats: tuple[Seat, ...]
    #: The secret seed of the table's die and bots; never sent to clients.
    seed: int
    status: Status = OPEN
    version: int = 0
    first_player: int | None = None
    to_move: int | None = None
    winners: tuple[int, ...] = ()
    created: datetime = field(default_factory=now)
    updated: datetime = field(default_factory=now)

    def with_seat(self, seat: Seat) -> Table:
        seats = list(self.seats)
        seats[seat.seat] = seat
        return replace(self, seats=tuple(seats))

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.kind == "human")
