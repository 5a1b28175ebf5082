"""Tables and seats as plain values, the way the store keeps them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

SeatKind = Literal["human", "bot"]
Status = Literal["open", "playing", "over", "closed"]

OPEN: Status = "open"
PLAYING: Status = "playing"
OVER: Status = "over"
#: An open table nobody started in time; kept, but no longer listed.
CLOSED: Status = "closed"
#: Tables with at least this many seconds per decision are turn-based: a game over days,
#: whose people close the page between moves (only running out of time hands a seat to
#: the bot).
TURN_BASED_FROM = 3600


def now() -> datetime:
    """The current time in UTC, to the second: one object per second (a change reads the
    clock two or three times, and the update's time texts are kept by it, :func:`ghostparty.server.wire.codec.time_text`)."""
    second = int(time.time())
    last = _LAST[0]
    if second != last[0]:
        last = _LAST[0] = (second, datetime.fromtimestamp(second, UTC))
    return last[1]


#: The second last read, and its time.
_LAST: list[tuple[int, datetime]] = [(-1, datetime.fromtimestamp(0, UTC))]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table: a person (with a name once joined) or a bot of a level."""

    seat: int
    kind: SeatKind
    bot: str | None = None
    name: str | None = None
    #: SHA-256 of the seat's secret token, hex; ``None`` while nobody holds the seat.
    token_hash: str | None = None
    #: A person who ran out of time or left: a bot plays for them meanwhile.
    away: bool = False
    #: An away person came back: they play again from their next turn on.
    back: bool = False
    #: After the game: this person said "Play again".
    again: bool = False
    #: The registered player in the seat (their account's name is ``name``), or the rated
    #: bot level's player; ``None`` for guests and the bots of unrated tables.
    player_id: int | None = None
    #: Seconds left in the person's time bank at the start of their current (or next)
    #: decision; ``None`` for a full bank, or where the table has none (:mod:`ghostparty.server.common.timebank`).
    bank: int | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.name is not None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.away


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
    #: Seconds a person has for each decision or roll, or ``None`` for no limit.
    turn_seconds: int | None = None
    #: The bot level that plays for an away person.
    absent_bot: str = "greedy"
    #: Whether the game's result changes the players' ratings (seats of registered
    #: players and bots only).
    rated: bool = False
    #: A series of games played again by the same people: the first table's id (``None``
    #: for a first game), this game's number in it, and the next game's table once made.
    series: str | None = None
    series_index: int = 1
    rematch: str | None = None
    #: Who fills the seat of a person who doesn't play again: a bot or nobody (an open seat).
    rematch_fill: str = "bot"
    #: A duplicate deal's die seed (a bot ladder's table, :mod:`ghostparty.server.tournaments.runner`): the
    #: die then rolls the deal's sequence (:func:`~ghostparty.server.tables.play.die`) and no seat has a time
    #: bank. Secret like :attr:`seed`; ``None`` for every other table.
    deal: int | None = None
    created: datetime = field(default_factory=now)
    updated: datetime = field(default_factory=now)

    @property
    def turn_based(self) -> bool:
        return self.turn_seconds is not None and self.turn_seconds >= TURN_BASED_FROM

    def with_seat(self, seat: Seat) -> Table:
        seats = list(self.seats)
        seats[seat.seat] = seat
        return replace(self, seats=tuple(seats))

    def closed(self, moment: datetime) -> Table:
        """The table closed at ``moment`` (its next version): nobody may join or act."""
        return replace(self, status=CLOSED, to_move=None, version=self.version + 1, updated=moment)

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.kind == "human")


def needs_keeper(table: Table) -> bool:
    """Whether ``table`` has work for its keeper (:mod:`ghostparty.server.tables.keeping`): a status other than
    under way with a person to move, a turn timer, a bot's (or an away person's) seat,
    someone back. ``Store.under_way`` reads the same of the stored rows."""
    if table.status != PLAYING or table.to_move is None:
        return True
    if table.turn_seconds is not None:
        return True
    return any(seat.played_by_bot or seat.back for seat in table.seats)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a game."""

    seat: int
    player_id: int | None
    points: int
    #: 1 for the fewest points, who win (RULES.md §7, §8.7); seats with equal points share
    #: a place, and the next place counts them (1, 1, 3): the ratings' reading of the scores.
    place: int
    won: bool
    #: A person who left the game to a bot: away (out of time, or every page of theirs
    #: closed past the deadline) at its end and not back. Counted against their
    #: reliability (:func:`~ghostparty.server.tables.standings.reliability`).
    left: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's result, kept (and rated) with the game's last action."""

    rules: str
    rated: bool
    seats: tuple[SeatResult, ...]
    ended: datetime


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a table's chat: a text, or a quick phrase's key (each reader's page
    shows it in their language)."""

    table_id: str
    channel: str  # "players" or "spectators"
    seat: int | None
    name: str
    text: str | None
    phrase: str | None
    during_game: bool
    sent: datetime
    id: int = 0
    #: The account that wrote it (a seat's player, a logged-in spectator), else None.
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One :meth:`Store.save`: the table's new row, the version it must still have, the
    actions to append, whether its seats changed, and the game's result if it ended."""

    table: Table
    expected_version: int
    new_actions: tuple[ActionRow, ...] = ()
    with_seats: bool = True
    #: Kept (and the players' ratings changed, if rated) in the same transaction.
    result: GameResult | None = None
