"""The Bot API: bot accounts, their event stream and invitations (docs/PROTOCOL.md).

An account that never held a seat may make itself a bot account, for good (as lichess
does): it then plays through an API token with the ``bot:play`` scope. Its program
follows ``GET /api/bot/stream``, one JSON object a line (ndjson):

* ``{"type": "game_start", "table", "seat", "token", "rules"}`` for every seat the
  account holds in a running game — those under way when the stream opens too, which is
  how a program resumes after a restart. Each ``token`` is a fresh seat token (the
  previous one stops working); the program then plays that seat through the table
  WebSocket exactly as a person's page does (``hello`` with the token, ``act`` with the
  version), under the same turn timer;
* ``{"type": "game_finish", "table", "seat"}`` once that game is over (or closed);
* ``{"type": "invitation", "table", "seat", "rules", "rated", "players", "from"}`` when
  someone invites the bot to a seat of an open table (:meth:`BotApi.invite`; the
  friends' invitations call the same hook). The program answers with ``accept`` (it is
  seated; ``game_start`` follows when the game starts) or ``decline``.

A blank line every :data:`KEEP_ALIVE` seconds keeps proxies from closing a quiet stream.
Seats are read from the database every :data:`POLL` seconds, and at once when a game of
the account starts (:meth:`BotApi.poke`, through the pub/sub); invitations travel on the pub/sub channel :func:`bot_channel`
(Redis across instances). One stream per account on an instance (a second would take
the first one's seat tokens): a second is refused with ``stream_open`` (409).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from ghostparty.server import outbound
from ghostparty.server.bot_store import SqlBots
from ghostparty.server.envelope import BotInvitation, Poke
from ghostparty.server.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.lobby import Lobby
from ghostparty.server.names import name_key
from ghostparty.server.pubsub import Message, PubSub

log = logging.getLogger("ghostparty.server")

#: Seconds between two reads of a bot's seats.
POLL = 1.0
#: Seconds between keep-alive lines of a quiet stream.
KEEP_ALIVE = 20.0


def bot_channel(player_id: int) -> str:
    """The pub/sub channel of a bot account's events (invitations)."""
    return f"bot-events:{player_id}"


class BotApi:
    """Bot accounts and their streams over a :class:`~.bot_store.SqlBots`."""

    def __init__(
        self, store: SqlBots, lobby: Lobby, pubsub: PubSub, *, poll: float = POLL, keep_alive: float = KEEP_ALIVE
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.pubsub = pubsub
        self.poll = poll
        self.keep_alive = keep_alive
        #: Accounts whose stream is open on this instance.
        self.streaming: set[int] = set()

    async def is_bot(self, player_id: int) -> bool:
        return await in_thread(self.store.is_bot, player_id)

    async def make_bot(self, player_id: int) -> None:
        """Make the account a bot account; ``has_games`` (409) if it ever held a seat."""
        if not await in_thread(self.store.make_bot, player_id):
            raise ServiceError(
                ErrorCode.HAS_GAMES,
                "only an account that never sat at a table can become a bot account: make a new account for the bot",
            )

    async def require_bot(self, player_id: int) -> None:
        if not await self.is_bot(player_id):
            raise ServiceError(
                ErrorCode.NOT_A_BOT,
                "this route is for bot accounts: make the account one first (POST /api/account/bot)",
            )

    async def bot_named(self, key: str) -> tuple[int, str]:
        found = await in_thread(self.store.bot_named, key)
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_BOT, "there is no bot account of that name")
        return found

    async def bot_names(self, names: list[str]) -> list[str]:
        """Those of ``names`` that are bot accounts (a page tags them BOT)."""
        found = await in_thread(self.store.bot_keys, [name_key(name) for name in names])
        return [name for name in names if name_key(name) in found]

    async def open_seats_of(self, player_id: int) -> set[str]:
        """The open tables (not started yet) the account sits at."""
        held = await in_thread(self.store.held_seats, player_id)
        return {table for table, _seat, status, _rules in held if status == "open"}

    async def poke(self, player_ids: Sequence[int]) -> None:
        """A game with these accounts started (on this instance): their streams, on any
        instance, read their seats at once instead of at the next poll. A failed publish
        only delays ``game_start`` until the poll."""
        for player_id in player_ids:
            try:
                await self.pubsub.publish(bot_channel(player_id), Poke())
            except Exception as error:  # Redis away: the poll still finds the game
                log.warning("telling bot streams of a game start failed: %s", error)

    async def invite(self, bot_id: int, event: dict[str, Any]) -> None:
        """Tell the bot's stream (on any instance) of an invitation to a seat: the hook
        the table's seat list and the friends' invitations use."""
        await self.pubsub.publish(bot_channel(bot_id), BotInvitation(event))

    def events(self, player_id: int, *, gone: asyncio.Event | None = None) -> AsyncIterator[bytes]:
        """The bot's stream, line by line (each ending in a newline), until ``gone`` is
        set (the token was revoked or expired) or the client leaves; ``stream_open``
        (409) if the account has one open on this instance."""
        if player_id in self.streaming:
            raise ServiceError(ErrorCode.STREAM_OPEN, "this bot account has a stream open already: close it first")
        return self._lines(player_id, gone or asyncio.Event())

    async def _lines(self, player_id: int, gone: asyncio.Event) -> AsyncIterator[bytes]:
        waiting: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=100)  # a line, or None: a poke

        async def heard(message: Message) -> None:
            if waiting.full():
                return
            if isinstance(message, BotInvitation):
                waiting.put_nowait(json.dumps(outbound.invitation(message.event)).encode())
            elif isinstance(message, Poke):
                waiting.put_nowait(None)

        started: dict[tuple[str, int], str] = {}  # (table, seat) → rules, of games told
        loop = asyncio.get_running_loop()
        quiet_since = loop.time()
        self.streaming.add(player_id)
        try:
            async with self.pubsub.listen(bot_channel(player_id), heard):
                while not gone.is_set():
                    lines = await self._seat_events(player_id, started)
                    if not lines:  # else they go out first, and the seats are read again
                        with contextlib.suppress(TimeoutError):
                            heard_line = await asyncio.wait_for(waiting.get(), timeout=self.poll)
                            if heard_line is not None:  # a poke only makes the next read come now
                                lines.append(heard_line)
                    if not lines and loop.time() - quiet_since >= self.keep_alive:
                        lines = [b""]
                    for line in lines:
                        quiet_since = loop.time()
                        yield line + b"\n"
        finally:
            self.streaming.discard(player_id)

    async def _seat_events(self, player_id: int, started: dict[tuple[str, int], str]) -> list[bytes]:
        held = await in_thread(self.store.held_seats, player_id)
        lines = []
        running = {(table, seat): rules for table, seat, status, rules in held if status == "playing"}
        for (table, seat), rules in running.items():
            if (table, seat) in started:
                continue
            token = await self.lobby.reissue(table, seat, player_id)
            if token is None:
                continue
            started[(table, seat)] = rules
            lines.append(json.dumps(outbound.game_start(table, seat, token, rules)).encode())
        for table, seat in [key for key in started if key not in running]:
            del started[(table, seat)]
            lines.append(json.dumps(outbound.game_finish(table, seat)).encode())
        return lines
