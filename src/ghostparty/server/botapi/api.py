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
  someone invites the bot to a seat of an open table (:meth:`BotApi.invite`). The
  program answers with ``accept`` (it is seated; ``game_start`` follows when the game
  starts) or ``decline``. The invitation is kept (:meth:`ghostparty.server.botapi.store.SqlBots.invite`)
  for :data:`INVITATION_MINUTES`, or until it is answered, the table starts or its
  inviter leaves it: the bot may take only a seat it stands for (:meth:`BotApi.invited`),
  ``unknown_invitation`` (404) otherwise.

A blank line every :data:`KEEP_ALIVE` seconds keeps proxies from closing a quiet stream.
Seats are read from the database every :data:`POLL` seconds, and at once when a game of
the account starts (:meth:`BotApi.poke`, through the pub/sub); invitations travel on the pub/sub channel :func:`bot_channel`
(Redis across instances). One stream per account, on every instance (a second would
take the first one's seat tokens): while one is open, another is refused with
``stream_open`` (409) (:mod:`ghostparty.server.botapi.streams`, a lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.botapi.store import BotStore
from ghostparty.server.botapi.streams import StreamLease, StreamLeases
from ghostparty.server.bus.envelope import BotInvitation, Poke
from ghostparty.server.bus.pubsub import Message, PubSub
from ghostparty.server.common import outbound
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.common.names import name_key
from ghostparty.server.tables.lobby import Lobby

log = logging.getLogger("ghostparty.server")

#: Seconds between two reads of a bot's seats.
POLL = 1.0
#: Seconds between keep-alive lines of a quiet stream.
KEEP_ALIVE = 20.0
#: How long an invitation of a bot to a seat stands, at most.
INVITATION_MINUTES = 30
#: How often an instance deletes the invitations that expired a day ago or more.
PRUNE_EVERY = timedelta(hours=1)


def bot_channel(player_id: int) -> str:
    """The pub/sub channel of a bot account's events (invitations)."""
    return f"bot-events:{player_id}"


class BotApi:
    """Bot accounts and their streams over a :class:`~ghostparty.server.botapi.store.BotStore`."""

    def __init__(
        self,
        store: BotStore,
        lobby: Lobby,
        pubsub: PubSub,
        *,
        streams: StreamLeases | None = None,
        clock: Callable[[], datetime] = now,
        poll: float = POLL,
        keep_alive: float = KEEP_ALIVE,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.pubsub = pubsub
        #: The streams' leases: one stream per account (give the instances' shared leases).
        self.streams = streams or StreamLeases()
        self.clock = clock
        self.poll = poll
        self.keep_alive = keep_alive
        self._pruned: datetime | None = None

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

    async def invite(self, bot_id: int, inviter_id: int, event: dict[str, Any]) -> None:
        """Keep ``inviter_id``'s invitation of the bot to ``event``'s table and seat, and
        tell the bot's stream (on any instance) of it."""
        stamp = self.clock()
        if self._pruned is None or stamp - self._pruned >= PRUNE_EVERY:
            self._pruned = stamp
            await in_thread(self.store.prune, stamp - timedelta(days=1))
        expires = stamp + timedelta(minutes=INVITATION_MINUTES)
        await in_thread(self.store.invite, event["table"], event["seat"], bot_id, inviter_id, stamp, expires)
        await self.pubsub.publish(bot_channel(bot_id), BotInvitation(event))

    async def invited(self, bot_id: int, table_id: str, seat: int) -> None:
        """``unknown_invitation`` (404) unless an invitation of the bot to ``seat`` of
        ``table_id`` stands (not answered, not expired, its table open and its inviter
        seated there)."""
        if not await in_thread(self.store.invited, table_id, seat, bot_id, self.clock()):
            raise ServiceError(
                ErrorCode.UNKNOWN_INVITATION,
                f"no open invitation of this bot to seat {seat} of table {table_id!r}: "
                "a bot takes only a seat a person at the table invited it to",
            )

    async def answered(self, bot_id: int, table_id: str, seat: int) -> None:
        """The bot accepted or declined its invitation to ``seat`` of ``table_id``."""
        await in_thread(self.store.answered, table_id, seat, bot_id)

    async def events(
        self, player_id: int, *, lease: StreamLease | None = None, gone: asyncio.Event | None = None
    ) -> AsyncIterator[bytes]:
        """The bot's stream, line by line (each ending in a newline), until ``gone`` is
        set (the token was revoked or expired, or another stream took the lease) or the
        client leaves. It holds ``lease`` (taken at its start if not given:
        ``stream_open``, 409, while another stream of the account is open) and gives it
        back when it ends."""
        lease = lease or await self.streams.take(player_id)
        gone = gone or asyncio.Event()
        lease.keep(gone)
        try:
            async for line in self._lines(player_id, gone):
                yield line
        finally:
            await lease.close()

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
