"""The authority over tables: one façade over the server's parts, knowing no transport.

:class:`TableService` is given a :class:`~ghostparty.server.tables.store.Store` and a :class:`~ghostparty.server.bus.pubsub.PubSub`
(and, for several instances, a shared :class:`~ghostparty.server.bus.presence.Presence` and
:class:`~ghostparty.server.bus.leases.Leases`); the HTTP and WebSocket endpoints decode a request, call one
method and encode what it returns or the :class:`ServiceError` it raises. The work is
done by parts with one job each:

* :mod:`ghostparty.server.tables.live` — tables in memory, their locks, saving (compare-and-set on the version);
* :mod:`ghostparty.server.tables.transaction` — the one way to change a table: lock, read, check, edit a draft,
  then save, publish and tell the keeper;
* :mod:`ghostparty.server.tables.lobby` — creating tables, seats, the start;
* :mod:`ghostparty.server.tables.play` — checking, applying, saving and telling actions;
* :mod:`ghostparty.server.tables.keeping` — bot turns, turn timers and the sweep, on the instance that keeps
  the table's shard (:mod:`ghostparty.server.bus.leases`);
* :mod:`ghostparty.server.bus.presence` — who is connected;
* :mod:`ghostparty.server.wire.protocol` — the messages, built once per version and encoded once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from random import Random

from ghostparty.rules import Position, position_to_dict
from ghostparty.server.bus.leases import Keeper
from ghostparty.server.bus.presence import MemoryPresence, Presence
from ghostparty.server.bus.pubsub import MemoryPubSub, PubSub
from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable
from ghostparty.server.common.metrics import Metrics
from ghostparty.server.common.model import OPEN, PLAYING, Table, now
from ghostparty.server.common.model import OVER as TABLE_OVER
from ghostparty.server.common.outbound import StateMessage
from ghostparty.server.common.text import MAX_NAME, clean_name
from ghostparty.server.tables.chat import Chat
from ghostparty.server.tables.core import Core
from ghostparty.server.tables.keeping import Keeping
from ghostparty.server.tables.live import LiveTable, Tables
from ghostparty.server.tables.lobby import MAX_TURN, MIN_TURN, Lobby, SeatSpec, check_token, hash_token
from ghostparty.server.tables.play import Play, turn_starts
from ghostparty.server.tables.rematch import Rematch
from ghostparty.server.tables.replay import replay_steps
from ghostparty.server.tables.store import Store
from ghostparty.server.tables.transaction import refresh
from ghostparty.server.wire.protocol import ROLL_REQUEST, Applied, Message, state_message

log = logging.getLogger("ghostparty.server")

__all__ = [
    "MAX_NAME",
    "MAX_TURN",
    "MIN_TURN",
    "ROLL_REQUEST",
    "Applied",
    "SeatSpec",
    "ServiceError",
    "StoreUnavailable",
    "TableService",
    "clean_name",
    "hash_token",
    "instance_name",
]


def instance_name() -> str:
    """A name for this server process, unique among instances: host, process, random."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class TableService:
    """Tables from the lobby to the end of their games.

    ``bot_delay`` is the pause before each bot action, so people can follow; ``rng``
    draws table ids, seeds and tokens (give a seeded one for reproducible tests).

    Absent players: a person whose turn time runs out, or whose every page has been
    closed for ``away_after`` seconds during a game, is marked *away* and the table's
    ``absent_bot`` plays for them until they come back (from their next turn on). An open
    table nobody starts within ``lobby_expiry`` seconds is closed; a finished game leaves
    memory ``finished_linger`` seconds after its end (the store keeps it). ``clock`` gives
    the time; :meth:`tick` and :meth:`sweep` act on it, and :meth:`run_timers` calls them
    periodically, so tests drive time themselves.

    Alone (no ``keeper`` given), this instance keeps every table. With several instances,
    give each a :class:`~ghostparty.server.bus.leases.Keeper` over shared leases and a shared ``presence``,
    and call :meth:`start`.
    """

    def __init__(
        self,
        store: Store,
        pubsub: PubSub,
        *,
        bot_delay: float = 0.5,
        rng: Random | None = None,
        clock: Callable[[], datetime] = now,
        cache_size: int = 2000,
        away_after: float = 60.0,
        lobby_expiry: float = 3600.0,
        finished_linger: float = 600.0,
        presence: Presence | None = None,
        keeper: Keeper | None = None,
        instance: str | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.instance = instance or instance_name()
        self.metrics = metrics or Metrics()
        self.store = store
        self.pubsub = pubsub
        self.presence = presence or MemoryPresence()
        alone = keeper is None
        self.keeper = keeper or Keeper.alone(self.instance)
        # Other instances may change the tables (a pub/sub between processes, shared
        # leases): reads for clients then go to the store.
        shared = not alone or not isinstance(pubsub, MemoryPubSub)
        tables = Tables(store, cache_size=cache_size, shared=shared, metrics=self.metrics)
        self.core = Core(tables, pubsub, self.presence, self.keeper, clock)
        self.lobby = Lobby(self.core, rng)
        self.rematch = Rematch(self.core, self.lobby)
        self.chat = Chat(self.core)
        self.play = Play(self.core)
        self.keeping = Keeping(
            self.core,
            self.play,
            bot_delay=bot_delay,
            away_after=away_after,
            lobby_expiry=lobby_expiry,
            finished_linger=finished_linger,
        )
        if not alone:
            self.keeper.on(gained=self.keeping.gained, lost=self.keeping.lost)

    @property
    def bot_delay(self) -> float:
        return self.keeping.bots.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.keeping.bots.bot_delay = seconds

    async def begin(self) -> None:
        """Take this instance's share of the tables and keep it, in the background
        (several instances; alone, this instance keeps every table from the start)."""
        await self.keeper.start()

    # -- lobby and play ---------------------------------------------------------------

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
        """A new open table; a table of bots only starts at once.

        ``turn_seconds`` limits each of a person's decisions and rolls; ``absent_bot`` is
        the level that plays for a person who is away; a ``rated`` table's result moves
        its players' ratings (registered players and bots only).
        """
        return await self.lobby.create_table(
            rules,
            seats,
            first_player,
            turn_seconds=turn_seconds,
            absent_bot=absent_bot,
            rated=rated,
            rematch_fill=rematch_fill,
        )

    async def join(
        self, table_id: str, seat: int, name: str | None, player: tuple[int, str] | None = None
    ) -> tuple[str, Message]:
        """Take an empty human seat, as a guest by ``name`` or as a registered ``player``
        (id, name); returns its secret token (given out only here)."""
        return await self.lobby.join(table_id, seat, name, player)

    async def seats_changed(self, table_ids: Sequence[str]) -> None:
        """Seats of these tables were changed outside play (an account took them over or
        was deleted): read them again and tell their clients."""
        for table_id in table_ids:
            with contextlib.suppress(ServiceError):
                await refresh(self.core, table_id, forget=True)

    async def leave(self, table_id: str, seat: int, token: str) -> Message:
        """Give a seat back before the game starts."""
        return await self.lobby.leave(table_id, seat, token)

    async def start(self, table_id: str, seat: int, token: str) -> StateMessage:
        """Start the game once every human seat has a name (any seated player may);
        the ``state`` message of a spectator after it."""
        live = await self.lobby.start(table_id, seat, token)
        position = live.game.state if live.game is not None else None
        online = await self.presence.online(table_id)
        return state_message(live.table, online, position, (), live.log, live.events)

    async def act(self, table_id: str, seat: int, token: str, version: int, action: object) -> Applied:
        """Apply a person's action for ``seat`` at the table's ``version`` (everyone
        hears of it by an ``update``). ``action`` is FORMAT.md's dict, except that a roll
        is asked for with ``{"roll": true}`` and the server draws the face."""
        return await self.play.act(table_id, seat, token, version, action)

    async def close_table(self, table_id: str, reason: str) -> Message:
        """Close an open table or a game under way (an operator's decision, ``reason``
        logged): saved like any change, told to every client, its bots and timers
        stopped by its keeper; ``not_open`` if it is over or closed already."""
        refusal = "the table is {status} already"
        async with self.core.change(table_id, expect=(OPEN, PLAYING), refusal=refusal, refresh=True) as draft:
            draft.table = draft.table.closed(draft.now())
        log.warning("table %s closed by an operator: %s", table_id, reason, extra={"table": table_id, "reason": reason})
        return await self.core.view(draft.live.table)

    # -- reading ----------------------------------------------------------------------

    async def table(self, table_id: str) -> Message:
        """``{"table": …, "position": …}``."""
        live = await self.core.tables.get(table_id, fresh=True)
        return await self.reply(live)

    async def reply(self, live: LiveTable | Applied) -> Message:
        """``{"table": …, "position": …}`` of a table in memory or after an action."""
        table = live.table
        state: Position | None = live.game.state if isinstance(live, LiveTable) and live.game is not None else None
        if isinstance(live, Applied):
            state = live.position
        position = position_to_dict(state) if state is not None else None
        return {"table": await self.core.view(table), "position": position}

    async def state(
        self, table_id: str, tokens: Mapping[int, str], *, min_version: int = 0, fresh: bool = True
    ) -> StateMessage:
        """The ``state`` message for a client holding ``tokens`` (seat → token): the
        store's version where other instances change tables too, unless not ``fresh``
        (a copy at least ``min_version``: read afresh a moment ago, by :meth:`held_seats`).

        :raises ServiceError: ``bad_token`` if a token doesn't belong to its seat.
        """
        live = await self.core.tables.get(table_id, min_version=min_version, fresh=fresh)
        held = self.seats_for(live.table, tokens)
        position = live.game.state if live.game is not None else None
        online = await self.presence.online(table_id)
        return state_message(live.table, online, position, held, live.log, live.events)

    def seats_for(self, table: Table, tokens: Mapping[int, str]) -> tuple[int, ...]:
        for seat, token in tokens.items():
            check_token(table, seat, token)
        return tuple(sorted(tokens))

    async def held_seats(self, table_id: str, tokens: Mapping[int, str]) -> tuple[dict[int, str], list[int], int]:
        """Which of ``tokens`` (seat → token) hold their seats, checked against the
        table read afresh: those that do, the seats of those that don't, and the version
        read (a client's hello: its state then needs no read of the store's again)."""
        table = (await self.core.tables.get(table_id, fresh=True)).table
        valid: dict[int, str] = {}
        refused: list[int] = []
        for seat, token in tokens.items():
            try:
                check_token(table, seat, token)
            except ServiceError:
                refused.append(seat)
            else:
                valid[seat] = token
        return valid, refused, table.version

    async def exists(self, table_id: str) -> None:
        """``unknown_table`` if there is no table ``table_id`` (a copy in memory is one:
        tables are never deleted)."""
        await self.core.tables.get(table_id)

    def heard(self, table_id: str, version: int) -> None:
        """An update of ``table_id`` at ``version`` came from another instance."""
        self.core.tables.heard(table_id, version)

    async def tables(self, limit: int = 50) -> Message:
        """The lobby's lists: open tables, games under way and recently finished games
        (to replay), most recently changed first."""
        tables = self.core.tables
        open_tables, playing, finished = await asyncio.gather(
            tables.read(tables.store.list_tables, OPEN, limit),
            tables.read(tables.store.list_tables, PLAYING, limit),
            tables.read(tables.store.list_tables, TABLE_OVER, 20),
        )
        return {
            "open": [await self.core.view(t) for t in open_tables],
            "playing": [await self.core.view(t) for t in playing],
            "finished": [await self.core.view(t) for t in finished],
        }

    async def record(self, table_id: str) -> Message:
        """The game so far as a ``ghostparty-record/1`` dict."""
        live = await self.core.tables.get(table_id, fresh=True)
        if live.game is None:
            raise ServiceError(ErrorCode.NOT_PLAYING, "the game hasn't started: there is no record yet")
        return live.game.record().to_dict()

    async def replay(self, table_id: str, hidden: frozenset[int] = frozenset()) -> Message:
        """A finished game's replay steps (:func:`~ghostparty.server.tables.replay.replay_steps`);
        a game under way can't be replayed yet, so nobody learns more than its players.
        The chat leaves out the lines of ``hidden`` accounts (those the reader blocked)."""
        live = await self.core.tables.get(table_id, fresh=True)
        if live.game is None or live.table.status != TABLE_OVER:
            raise ServiceError(ErrorCode.NOT_OVER, "only a finished game can be replayed")
        steps = await asyncio.to_thread(replay_steps, live.game.record())  # 10–30 ms: not on the loop
        return {**steps, "chat": await self.chat.lines(table_id, (), hidden)}

    # -- presence ---------------------------------------------------------------------

    async def connected(self, table_id: str, seats: Sequence[int]) -> None:
        """A client holding ``seats`` is watching the table (its copy here read afresh
        just before, where other instances change tables too: :meth:`held_seats`)."""
        came = await self.presence.join(table_id, seats)
        if seats:
            await self.core.presence_changed(table_id, (), seats)
        if came:
            await self._publish_presence(table_id)
        await self._come_back(table_id, seats)

    async def disconnected(self, table_id: str, seats: Sequence[int]) -> None:
        went = await self.presence.leave(table_id, seats)
        if went:
            await self.core.presence_changed(table_id, went, ())
            await self._publish_presence(table_id)

    async def _publish_presence(self, table_id: str) -> None:
        live = self.core.tables.cached(table_id)
        if live is not None:
            await self.core.publish(live, None)

    async def _come_back(self, table_id: str, seats: Sequence[int]) -> None:
        """People who open the page again take their seats back from their next turn on."""
        live = self.core.tables.cached(table_id)
        if live is None or live.table.status != PLAYING:
            return
        for seat in seats:
            if not live.table.seats[seat].away:  # (the copy read afresh by the hello)
                continue
            async with self.core.change(table_id, fresh=True) as draft:
                held = draft.table.seats[seat]
                if not held.away or held.back or draft.table.status != PLAYING:
                    continue
                bot_mid_turn = draft.table.to_move == seat and not turn_starts(draft.live, seat)
                self.play.mark_away(draft, seat, away=bot_mid_turn, back=bot_mid_turn)

    # -- keeping ----------------------------------------------------------------------

    async def tick(self) -> None:
        """Mark away every person whose time ran out or who left ``away_after`` ago."""
        await self.keeping.tick()

    async def sweep(self) -> tuple[int, int]:
        """Close stale open tables; drop finished games from memory (how many of each)."""
        return await self.keeping.sweep()

    def run_timers(self, interval: float = 0.5, sweep_every: float = 60.0) -> None:
        """Call :meth:`tick` every ``interval`` seconds and :meth:`sweep` every ``sweep_every``."""
        self.keeping.run_timers(interval, sweep_every)

    async def resume(self, limit: int = 10_000) -> int:
        """After a restart: let the bots of every game under way that this instance keeps
        play on; how many games."""
        return await self.keeping.resume(limit)

    async def idle(self) -> None:
        """Wait until no bot is thinking or about to move (for tests and shutdown)."""
        await self.keeping.idle()

    async def close(self) -> None:
        await self.keeping.close()
        await self.core.close()
        await self.keeper.close()
