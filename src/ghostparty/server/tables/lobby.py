"""The lobby: tables are created, seats taken and given back, games started."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import Any

from ghostparty.bots import make_bot
from ghostparty.rules import Game, ruleset
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.model import CLOSED, OPEN, PLAYING, Seat, Table
from ghostparty.server.common.ratings import BOT_LEVELS, bot_player_name
from ghostparty.server.common.text import clean_name, skeleton
from ghostparty.server.tables.core import Core
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.transaction import Draft, check_token, hash_token, seat_of
from ghostparty.server.wire.protocol import Message

#: The shortest and longest turn time a table may have, in seconds (3 days: turn-based).
MIN_TURN, MAX_TURN = 5, 3 * 86400
#: Why seats can't change at a table that isn't open.
STARTED = "the game has started: seats can't change now"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for at a table's creation."""

    kind: str
    bot: str | None = None


__all__ = ["Lobby", "SeatSpec", "check_token", "hash_token", "seat_of"]


class Lobby:
    """Tables before their games: creation, seats, the start."""

    def __init__(self, core: Core, rng: Random | None = None) -> None:
        self.core = core
        self._random = rng
        #: The player id of a rated bot level (given where the store keeps accounts).
        self.bot_player: Callable[[str], Awaitable[int]] | None = None
        #: Whether an account's name reads as this skeleton (:func:`ghostparty.server.common.text.skeleton`).
        self.account_named: Callable[[str], Awaitable[bool]] | None = None
        #: Told the account ids seated at a game that just started (the Bot API's streams
        #: wake at once: :meth:`ghostparty.server.botapi.api.BotApi.poke`).
        self.started: Callable[[Sequence[int]], Awaitable[None]] | None = None
        #: Raises why an account may not play rated games now (a moderator's ban:
        #: :meth:`ghostparty.server.community.blocks.Community.check_rated`), where the store keeps accounts.
        self.rated_refusal: Callable[[int], Awaitable[None]] | None = None

    async def may_sit(self, player_id: int | None, *, rated: bool) -> None:
        """The one check every way of seating an account passes: a table's join (and so
        a bot's or a friend's invitation accepted), the quick-match queue, a tournament's
        entry, the next game of a series. At a rated table: ``rated_banned`` (403) while
        a moderator keeps the account out of rated play. Guests (``None``) pass; rated
        tables seat no guests anyway."""
        if player_id is not None and rated and self.rated_refusal is not None:
            await self.rated_refusal(player_id)

    async def create_table(
        self,
        rules: str,
        seats: Sequence[SeatSpec],
        first_player: int | None = None,
        *,
        turn_seconds: int | None = None,
        absent_bot: str = "greedy",
        rated: bool = False,
        rematch_fill: str = "bot",
    ) -> Message:
        """A new open table; a table of bots only starts at once. A ``rated`` table's
        people must be registered players (:meth:`join`) and its bots plain levels,
        which are rated players too."""
        try:
            ruleset(rules)
        except (KeyError, ValueError):
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"unknown rules {rules!r}: expected 'hugo' or 'midnight-party'"
            ) from None
        if not 2 <= len(seats) <= 8:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"a table has 2 to 8 seats, not {len(seats)}")
        if first_player is not None and not 0 <= first_player < len(seats):
            raise ServiceError(
                ErrorCode.BAD_SEAT, f"first_player must be a seat, 0 to {len(seats) - 1}, not {first_player}"
            )
        if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"turn_seconds must be {MIN_TURN} to {MAX_TURN}, not {turn_seconds}"
            )
        try:
            make_bot(absent_bot)
        except ValueError as error:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"absent_bot: {error}") from None
        if rated:
            if self.bot_player is None:
                raise ServiceError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts: its tables can't be rated")
            if not any(spec.kind == "human" for spec in seats):
                raise ServiceError(ErrorCode.BAD_REQUEST, "a rated table needs at least one person's seat")
            plain = [spec.bot for spec in seats if spec.kind == "bot" and (spec.bot or "greedy") not in BOT_LEVELS]
            if plain:
                levels = ", ".join(BOT_LEVELS)
                raise ServiceError(
                    ErrorCode.BAD_REQUEST, f"a rated table's bots are plain levels ({levels}), not {plain[0]!r}"
                )
        table_seats = []
        for i, spec in enumerate(seats):
            if spec.kind == "bot":
                level = spec.bot or "greedy"
                try:
                    make_bot(level)
                except ValueError as error:
                    raise ServiceError(ErrorCode.BAD_REQUEST, f"seat {i}: {error}") from None
                table_seats.append(await self.bot_seat(i, level, rated=rated))
            elif spec.kind == "human":
                table_seats.append(Seat(i, "human"))
            else:
                raise ServiceError(ErrorCode.BAD_REQUEST, f"seat {i}: kind must be 'human' or 'bot', not {spec.kind!r}")
        if rematch_fill not in ("bot", "empty"):
            raise ServiceError(ErrorCode.BAD_REQUEST, f"rematch_fill must be 'bot' or 'empty', not {rematch_fill!r}")
        live = await self.insert(
            rules,
            tuple(table_seats),
            first_player,
            turn_seconds=turn_seconds,
            absent_bot=absent_bot,
            rated=rated,
            rematch_fill=rematch_fill,
        )
        if not live.table.humans:
            await self.start_seated(live)
        return await self.core.view(live.table)

    async def insert(
        self,
        rules: str,
        seats: tuple[Seat, ...],
        first_player: int | None,
        *,
        turn_seconds: int | None = None,
        absent_bot: str = "greedy",
        rated: bool = False,
        **more: Any,
    ) -> LiveTable:
        """Keep a new open table with a free id (``more``: other :class:`Table` fields)."""
        stamp = self.core.clock()
        tables = self.core.tables
        for _attempt in range(8):
            table = Table(
                id=self._table_id(),
                rules=rules,
                players=len(seats),
                seats=seats,
                seed=self._randbits(62),
                first_player=first_player,
                turn_seconds=turn_seconds,
                absent_bot=absent_bot,
                rated=rated,
                created=stamp,
                updated=stamp,
                **more,
            )
            if await tables.read(tables.store.create, table):
                break
        else:
            raise ServiceError(ErrorCode.SERVER_BUSY, "could not find a free table id; try again")
        return tables.remember(LiveTable(table, None))

    async def create_seated(
        self,
        rules: str,
        people: Sequence[tuple[str, int | None]],
        *,
        bots: int,
        bot_level: str,
        rated: bool,
        turn_seconds: int | None = None,
    ) -> tuple[LiveTable, list[tuple[int, str]]]:
        """An open table with ``people`` (name, player id) seated in a random order and
        bots of ``bot_level`` in the other seats (quick-match); returns it and each
        person's seat and token. :meth:`start_seated` starts it."""
        players = len(people) + bots
        order = list(range(players))
        Random(self._randbits(62)).shuffle(order)
        seats: list[Seat | None] = [None] * players
        given = []
        for (name, player_id), seat in zip(people, order, strict=False):
            token = self._token(18)
            seats[seat] = Seat(seat, "human", name=name, token_hash=hash_token(token), player_id=player_id)
            given.append((seat, token))
        for seat in order[len(people) :]:
            seats[seat] = await self.bot_seat(seat, bot_level, rated=rated)
        assert all(seat is not None for seat in seats)
        live = await self.insert(
            rules, tuple(s for s in seats if s is not None), None, rated=rated, turn_seconds=turn_seconds
        )
        return live, given

    async def start_seated(self, live: LiveTable) -> None:
        """Start a table just made (:meth:`insert`, :meth:`create_seated`)."""
        async with self.core.change(live.table.id, expect=OPEN) as draft:
            self.begin(draft)

    async def give_up(self, live: LiveTable) -> None:
        """Close a table made but never started, quietly: nobody watches it yet (a
        quick-match, tournament or next table another instance made first)."""
        async with self.core.change(live.table.id, quiet=True) as draft:
            draft.table = replace(draft.table, status=CLOSED)
            draft.touch = False

    async def bot_seat(self, seat: int, level: str, *, rated: bool) -> Seat:
        """A bot's seat: at a rated table the level's player (``greedy-bot``), else a
        bot named by its level."""
        if rated:
            if self.bot_player is None:
                raise ServiceError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts: its tables can't be rated")
            player = await self.bot_player(level)
            return Seat(seat, "bot", bot=level, name=bot_player_name(level), player_id=player)
        return Seat(seat, "bot", bot=level, name=f"{level.split(':', maxsplit=1)[0].capitalize()} bot")

    async def guest_name(self, name: str | None) -> str:
        """A guest's name as shown, if no account's reads like it (else ``bad_name``)."""
        name = clean_name(name or "")
        if self.account_named is not None and await self.account_named(skeleton(name)):
            raise ServiceError(ErrorCode.BAD_NAME, f"{name!r} reads like a registered player's name: choose another")
        return name

    async def join(
        self, table_id: str, seat: int, name: str | None, player: tuple[int, str] | None = None
    ) -> tuple[str, Message]:
        """Take an empty human seat; returns its secret token (given out only here).

        A registered ``player`` (id, name) sits under their account's name and the seat
        is theirs (their history, their rating), if :meth:`may_sit`; a rated table seats
        only them, once each.
        """
        if player is None:
            name = await self.guest_name(name)
        # read fresh: another instance may have changed it
        async with self.core.change(table_id, expect=OPEN, refusal=STARTED, fresh=True) as draft:
            table = draft.table
            current = seat_of(table, seat)
            if current.taken:
                raise ServiceError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken; choose an empty human seat")
            player_id = None
            if player is not None:
                await self.may_sit(player[0], rated=table.rated)
                seated = any(s.player_id == player[0] for s in table.seats)
                if seated and table.rated:
                    raise ServiceError(ErrorCode.SEAT_TAKEN, "you already have a seat at this rated table")
                name = player[1]
                player_id = None if seated else player[0]  # a second seat is a guest's
            elif table.rated:
                raise ServiceError(ErrorCode.REGISTERED_ONLY, "a rated table seats registered players: log in to join")
            token = self._token(18)
            joined = replace(current, name=name, token_hash=hash_token(token), player_id=player_id)
            draft.table = table.with_seat(joined)
        return token, await self.core.view(draft.live.table)

    async def leave(self, table_id: str, seat: int, token: str) -> Message:
        """Give a seat back before the game starts."""
        async with self.core.change(table_id, seat, token, expect=OPEN, refusal=STARTED, fresh=True) as draft:
            empty = replace(draft.table.seats[seat], name=None, token_hash=None, player_id=None)
            draft.table = draft.table.with_seat(empty)
        return await self.core.view(draft.live.table)

    async def reissue(self, table_id: str, seat: int, player_id: int) -> str | None:
        """A fresh token for the account's seat at an open or running table (the old one
        stops working): how a bot account resumes its games (:mod:`ghostparty.server.botapi.api`). ``None``
        if the seat isn't the account's, or the game is over."""
        async with self.core.change(table_id, fresh=True) as draft:
            table = draft.table
            held = table.seats[seat] if 0 <= seat < table.players else None
            if (
                held is None
                or held.kind != "human"
                or held.player_id != player_id
                or table.status not in (OPEN, PLAYING)
            ):
                return None
            token = self._token(18)
            draft.table = table.with_seat(replace(held, token_hash=hash_token(token)))
            draft.touch = False  # ``updated`` starts the turn's clock, which a new token mustn't reset
            draft.wake_keeper = True
        return token

    async def start(self, table_id: str, seat: int, token: str) -> LiveTable:
        """Start the game once every human seat has a name (any seated player may)."""
        refusal = "the game has already started"
        async with self.core.change(table_id, seat, token, expect=OPEN, refusal=refusal, fresh=True) as draft:
            empty = [s.seat for s in draft.table.seats if not s.taken]
            if empty:
                raise ServiceError(
                    ErrorCode.SEATS_EMPTY, f"seats {empty} have nobody yet: wait for them or make them bots"
                )
            self.begin(draft)
        return draft.live

    def begin(self, draft: Draft) -> None:
        """Start the open table of ``draft``: its first player drawn, its game made."""
        table = draft.table
        first = table.first_player
        if first is None:
            first = Random(f"{table.seed}:first").randrange(table.players)
        draft.game = Game(table.rules, table.players, first_player=first)
        draft.table = replace(table, status=PLAYING, first_player=first, to_move=draft.game.state.to_move)
        started = self.started
        if started is not None:
            people = [s.player_id for s in table.seats if s.kind == "human" and s.player_id is not None]
            draft.after(lambda: started(people))

    def _table_id(self) -> str:
        """Eight characters of URL-safe base64, never a leading ``-``: a command line
        (``ghostparty admin close ID``) would read such an id as an option."""
        while (found := self._token(6)).startswith("-"):
            pass
        return found

    def _token(self, nbytes: int) -> str:
        if self._random is not None:
            return self._random.randbytes(nbytes).hex()
        return secrets.token_urlsafe(nbytes)

    def _randbits(self, bits: int) -> int:
        return self._random.getrandbits(bits) if self._random is not None else secrets.randbits(bits)
