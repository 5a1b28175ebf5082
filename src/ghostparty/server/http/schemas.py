"""What clients may send, as pydantic models (docs/PROTOCOL.md).

Every model forbids unknown fields and takes JSON's types as they are (no ``"1"`` for
``1``). :func:`problem` turns a validation error into one sentence naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]
SeatNumber = Annotated[int, Field(ge=0, le=7)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SeatIn(Model):
    kind: Literal["human", "bot"]
    bot: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None


class CreateTable(Model):
    rules: Literal["hugo", "midnight-party"]
    seats: Annotated[list[SeatIn], Field(min_length=2, max_length=8)]
    first_player: SeatNumber | None = None
    #: Seconds per decision: a real-time table (up to minutes) or turn-based (an hour or more).
    turn_seconds: Annotated[int, Field(ge=5, le=3 * 86400)] | None = None
    absent_bot: Annotated[str, StringConstraints(min_length=1, max_length=64)] = "greedy"
    rated: bool = False
    #: Who takes the seat of a person who doesn't play again: the table's bot, or nobody.
    rematch_fill: Literal["bot", "empty"] = "bot"


class Join(Model):
    seat: SeatNumber
    #: A guest's name; a logged-in player sits under their account's name.
    name: Annotated[str, StringConstraints(max_length=200)] | None = None


class SeatToken(Model):
    seat: SeatNumber
    token: Token


class Act(Model):
    seat: SeatNumber
    token: Token
    version: Annotated[int, Field(ge=0)]
    action: dict[str, Any]


class CloseTable(Model):
    """An operator closing a table (``ghostparty admin close``): why, for the log."""

    reason: Annotated[str, StringConstraints(min_length=1, max_length=500)]


# -- WebSocket messages -------------------------------------------------------------------


class Hello(Model):
    type: Literal["hello"]
    tokens: Annotated[dict[Annotated[str, StringConstraints(pattern=r"^[0-7]$")], Token], Field(max_length=8)] = {}
    #: Whether this client shows the odds of the seat to move (bots and other programs
    #: that don't, say false: the server then need not compute them for it).
    odds: bool = True
    #: Whether this client shows the table's chat (its log follows the state; a program
    #: that doesn't, says false: no chat is read or sent to it).
    chat: bool = True

    def seat_tokens(self) -> dict[int, str]:
        return {int(seat): token for seat, token in self.tokens.items()}


class WsAct(Model):
    type: Literal["act"]
    seat: SeatNumber
    version: Annotated[int, Field(ge=0)]
    action: dict[str, Any]


class Sync(Model):
    type: Literal["sync"]


class Ping(Model):
    type: Literal["ping"]


class SyncChat(Model):
    """Read the reader's blocks again and send the chat again (after blocking someone)."""

    type: Literal["chat_sync"]


class Say(Model):
    """A chat line: a text or a quick phrase's key; a spectator may give a name."""

    type: Literal["chat"]
    channel: Literal["players", "spectators"] = "players"
    text: Annotated[str, StringConstraints(max_length=1000)] | None = None
    phrase: Annotated[str, StringConstraints(max_length=32)] | None = None
    name: Annotated[str, StringConstraints(max_length=200)] | None = None


ClientMessage = Annotated[Hello | WsAct | Sync | Ping | Say | SyncChat, Field(discriminator="type")]
client_message: TypeAdapter[Hello | WsAct | Sync | Ping | Say | SyncChat] = TypeAdapter(ClientMessage)


def problem(error: ValidationError, root: str = "body") -> str:
    """The first problem of a validation error, e.g. ``"seats.0.kind: Input should be …"``;
    ``root`` names the whole input when the problem is with it."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or root
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


# -- accounts -----------------------------------------------------------------------------

Text = Annotated[str, StringConstraints(max_length=1000)]


class HeldSeat(Model):
    """A guest seat this browser holds, to become an account's."""

    table: Annotated[str, StringConstraints(min_length=1, max_length=16)]
    seat: SeatNumber
    token: Token


class Credentials(Model):
    name: Text
    password: Text
    seats: Annotated[list[HeldSeat], Field(max_length=64)] = []


class NewPassword(Model):
    old: Text
    new: Text


class Password(Model):
    password: Text


class NewToken(Model):
    """A personal API token to make (:mod:`ghostparty.server.accounts.tokens` checks the name and the scopes)."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    scopes: Annotated[list[Annotated[str, StringConstraints(max_length=16)]], Field(min_length=1, max_length=8)]
    #: Days until it expires (1–366); ``None``: never.
    days: Annotated[int, Field(ge=1, le=366)] | None = None


class HeldSeats(Model):
    seats: Annotated[list[HeldSeat], Field(max_length=64)]


class OpenDataChoice(Model):
    """Whether the player's name is kept out of the open game data."""

    opt_out: bool


class LanguageChoice(Model):
    """The language a player chose: a code of ``GET /api/languages``, or ``None`` to forget it."""

    language: Annotated[str, StringConstraints(min_length=2, max_length=16)] | None


# -- quick-match --------------------------------------------------------------------------


class MatchRequest(Model):
    rules: Literal["hugo", "midnight-party"]
    #: ``None``: any number (2 to 4).
    players: Annotated[int, Field(ge=2, le=8)] | None = None
    rated: bool = False
    #: Seconds to wait before bots fill the empty seats; ``None``: never.
    bots_after: Annotated[int, Field(ge=0, le=3600)] | None = 60
    #: A guest's name (a logged-in player plays under their account's).
    name: Annotated[str, StringConstraints(max_length=200)] | None = None
    #: Whether bot accounts (the Bot API) may be seated with this player.
    allow_bots: bool = False


class MatchTicket(Model):
    ticket: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class Again(Model):
    seat: SeatNumber
    token: Token
    #: Go on with those who said yes, without waiting for the others.
    now: bool = False


class BecomeBot(Model):
    """Making one's account a bot account, which can't be undone: the client says so."""

    irreversible: Literal[True]


class BotInvitation(Model):
    """Inviting a bot account to an empty seat of an open table one sits at."""

    table: Annotated[str, StringConstraints(min_length=1, max_length=16)]
    seat: SeatNumber


class BotAnswer(Model):
    """A bot's answer to an invitation: the seat it was offered."""

    seat: SeatNumber


class CreateTournament(Model):
    kind: Literal["arena", "swiss", "ladder"]
    rules: Literal["hugo", "midnight-party"]
    table_size: int
    #: ISO 8601 with a time zone: "2026-11-26T20:00:00Z".
    starts: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    rated: bool = False
    turn_seconds: int = 60
    #: An arena's length; a Swiss's rounds; a ladder's deals.
    minutes: int | None = None
    rounds: int | None = None
    bots: bool = False
    #: A ladder's house bots (the server's levels; default greedy, expectimax, mcts).
    house: Annotated[list[Annotated[str, StringConstraints(max_length=32)]], Field(max_length=5)] | None = None


class TournamentJoin(Model):
    #: A guest's name (a logged-in player enters under their account's).
    name: Annotated[str, StringConstraints(max_length=200)] | None = None
    #: A guest's entry secret from joining before: they come back as the same entrant.
    entry: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None


class TournamentEntry(Model):
    #: A guest's entry secret, as :class:`TournamentJoin`'s answer gave it.
    entry: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None


class TournamentCancel(Model):
    reason: Annotated[str, StringConstraints(max_length=400)]
