"""What the instance keeping a table does: play its bots, watch its timers, sweep.

An instance keeps the tables of the shards whose lease it holds (:mod:`ghostparty.server.bus.leases`). For
them, and only them, it plays bot turns (:mod:`ghostparty.server.tables.bot_turns`), marks *away* a person whose turn time and time bank ran out
(:mod:`ghostparty.server.common.timebank`) or whose pages have all been closed for ``away_after`` seconds (the table's ``absent_bot`` then plays for
them), and, holding shard 0, closes open tables nobody started within ``lobby_expiry``.
When it gains shards it reads their games under way from the store and takes them over;
when it loses shards it stops their work at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from ghostparty.server.bus.envelope import OVERFLOW, KeeperNotice
from ghostparty.server.bus.leases import shard_of
from ghostparty.server.common.errors import ServiceError, StoreUnavailable
from ghostparty.server.common.model import CLOSED, OPEN, PLAYING
from ghostparty.server.common.model import OVER as TABLE_OVER
from ghostparty.server.common.timebank import turn_clock
from ghostparty.server.tables.bot_turns import RETRY, BotTurns
from ghostparty.server.tables.core import Core, keeper_channel
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.play import Play

log = logging.getLogger("ghostparty.server")


class Keeping:
    """Bot turns, turn timers and the sweep, for the tables this instance keeps."""

    def __init__(
        self,
        core: Core,
        play: Play,
        *,
        bot_delay: float,
        away_after: float,
        lobby_expiry: float,
        finished_linger: float,
    ) -> None:
        self.core = core
        self.play = play
        self.away_after = away_after
        self.lobby_expiry = lobby_expiry
        self.finished_linger = finished_linger
        self.bots = BotTurns(core, play, bot_delay)
        self._listeners: dict[int, asyncio.Task[None]] = {}
        self._retries: set[asyncio.Task[None]] = set()
        #: Per table: the version and the time at which the person to move runs out of time.
        self._deadlines: dict[str, tuple[int, datetime]] = {}
        #: Per (table, seat): since when no page holds a seated person's token.
        self._gone: dict[tuple[str, int], datetime] = {}
        self._timers: asyncio.Task[None] | None = None
        core.keep = self.keep
        core.seen = self.seen

    @property
    def playing(self) -> int:
        """Tables whose bots are playing on this instance now."""
        return len(self.bots.tasks)

    @property
    def watching(self) -> int:
        """Turn deadlines this instance watches."""
        return len(self._deadlines)

    # -- one table ---------------------------------------------------------------------

    async def keep(self, live: LiveTable) -> None:
        """Take up ``live``'s work on this instance: its bots and its turn timer."""
        table = live.table
        if table.status != PLAYING:
            self._deadlines.pop(table.id, None)
            for seat in range(table.players):
                self._gone.pop((table.id, seat), None)
            return
        self._set_deadline(live)
        self.schedule_bots(live)

    async def seen(self, table_id: str, gone: Sequence[int], back: Sequence[int]) -> None:
        """Pages holding ``gone`` all closed; pages holding ``back`` opened again. Pages
        closed at a finished or closed table are nobody's absence: not kept (else each
        would cost a change of the table ``away_after`` later, for every game played)."""
        moment = self.core.clock()
        live = self.core.tables.cached(table_id)
        final = live is not None and live.table.status in (TABLE_OVER, CLOSED)
        for seat in () if final else gone:
            self._gone.setdefault((table_id, seat), moment)
        for seat in back:
            self._gone.pop((table_id, seat), None)

    def _set_deadline(self, live: LiveTable) -> None:
        table = live.table
        clock = turn_clock(table)  # the decision's own time, then the seat's time bank
        if clock is None:
            self._deadlines.pop(table.id, None)
            return
        self._deadlines[table.id] = (table.version, clock[1])

    # -- bots ---------------------------------------------------------------------------

    def schedule_bots(self, live: LiveTable) -> None:
        """Start the table's bot task if a bot (or an away person's) is to move."""
        self.bots.schedule(live)

    # -- shards ---------------------------------------------------------------------------

    async def gained(self, shards: set[int]) -> None:
        """Shards came to this instance: listen for their notices, take over their games."""
        loop = asyncio.get_running_loop()
        for shard in shards:
            if shard not in self.core.keeper.held:  # handed back meanwhile
                continue
            old = self._listeners.pop(shard, None)
            if old is not None:
                old.cancel()
            ready = asyncio.Event()
            self._listeners[shard] = loop.create_task(self._listen(shard, ready))
            await ready.wait()
        await self.resume(shards=shards & self.core.keeper.held)

    async def lost(self, shards: set[int]) -> None:
        """Shards left this instance: stop their work (another instance takes it)."""
        for shard in shards:
            listener = self._listeners.pop(shard, None)
            if listener is not None:
                listener.cancel()
        for table_id, task in list(self.bots.tasks.items()):
            if shard_of(table_id) in shards:
                task.cancel()
        self._deadlines = {t: d for t, d in self._deadlines.items() if shard_of(t) not in shards}
        self._gone = {key: since for key, since in self._gone.items() if shard_of(key[0]) not in shards}

    async def _listen(self, shard: int, ready: asyncio.Event) -> None:
        while True:
            try:
                async with self.core.pubsub.subscribe(keeper_channel(shard)) as notices:
                    ready.set()
                    async for data in notices:
                        if data == OVERFLOW:  # notices were lost: look at every game again
                            await self.resume(shards={shard})
                            continue
                        if isinstance(data, KeeperNotice):
                            await self._take_notice(data)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listening on shard %d failed (%s); again in a second", shard, error)
                ready.set()
                await asyncio.sleep(1.0)

    async def _take_notice(self, notice: KeeperNotice) -> None:
        await self.seen(notice.table_id, notice.gone, notice.back)
        if notice.version:
            try:
                live = await self.core.tables.get(notice.table_id, min_version=notice.version)
            except StoreUnavailable:  # the work is still there: read it once the store answers
                task = asyncio.get_running_loop().create_task(self._read_later(notice))
                self._retries.add(task)
                task.add_done_callback(self._retries.discard)
                return
            except ServiceError as error:
                log.info("could not read table %s for its keeper: %s", notice.table_id, error.message)
                return
            await self.keep(live)

    async def _read_later(self, notice: KeeperNotice, tries: int = 120) -> None:
        for _ in range(tries):
            await asyncio.sleep(RETRY)
            if not self.core.keeper.owns(notice.table_id):
                return
            try:
                live = await self.core.tables.get(notice.table_id, min_version=notice.version)
            except StoreUnavailable:
                continue
            except ServiceError:
                return
            await self.keep(live)
            return

    async def resume(self, limit: int = 10_000, shards: set[int] | None = None) -> int:
        """Take over the games under way of ``shards`` (default: every shard this
        instance keeps): their bots play on, their timers run. How many games."""
        tables = self.core.tables
        playing = await tables.read(tables.store.list_tables, PLAYING, limit)
        taken = 0
        moment = self.core.clock()
        for stored in playing:
            if not self.core.keeper.owns(stored.id) or (shards is not None and shard_of(stored.id) not in shards):
                continue
            live = await tables.get(stored.id, min_version=stored.version)
            if shards is not None:  # taken over: its clients may have missed the last change
                await self.core.publish(live, None)
            online = await self.core.presence.online(stored.id)
            for seat in live.table.humans:  # whose pages were on a dead instance: gone from now
                if seat.seat not in online and not seat.away:
                    self._gone.setdefault((stored.id, seat.seat), moment)
            await self.keep(live)
            taken += 1
        return taken

    async def recheck(self) -> int:
        """Where other instances change tables too: read again every game under way that
        this instance keeps, that has work for a keeper, and whose stored version is past
        the copy here (or that has no copy here); its keeper then takes up that work.

        An instance that dies between saving a change and telling the keeper takes the
        notice with it, and a game nobody watches (a bot to move) would wait until
        someone opens it. The look reads only each game's version and whether it has
        work (``Store.under_way``: every game, however many, the least recently changed
        too), then the games to take up. How many games were read again."""
        tables = self.core.tables
        if not tables.shared:
            return 0
        behind = 0
        for table_id, (version, work) in (await tables.read(tables.store.under_way)).items():
            if not work or not self.core.keeper.owns(table_id):
                continue
            copy = tables.cached(table_id)
            if copy is not None and copy.table.version >= version:
                continue
            try:
                live = await tables.get(table_id, min_version=version)
            except StoreUnavailable:  # the next look tries again
                raise
            except ServiceError:  # gone meanwhile
                continue
            await self.keep(live)
            self.core.metrics.kept_again.inc()
            behind += 1
        if behind:
            log.info("read %d kept games again whose keeper was not told of their last change", behind)
        return behind

    # -- timers ---------------------------------------------------------------------------

    async def tick(self) -> None:
        """Mark away every person whose time ran out or who left ``away_after`` ago."""
        moment = self.core.clock()
        expired = [(table_id, version, when) for table_id, (version, when) in self._deadlines.items() if when <= moment]
        left = [key for key, since in self._gone.items() if (moment - since).total_seconds() >= self.away_after]
        for table_id, version, when in expired:
            self._deadlines.pop(table_id, None)
            self.core.metrics.timer_lag.observe((moment - when).total_seconds())
            await self._away(table_id, None, version)
        for table_id, seat in left:
            self._gone.pop((table_id, seat), None)
            await self._away(table_id, seat, None)

    async def _away(self, table_id: str, seat: int | None, version: int | None) -> None:
        try:
            async with self.core.change(table_id, min_version=version or 0, fresh=version is None) as draft:
                table = draft.table
                if table.status != PLAYING or (version is not None and table.version != version):
                    return
                seat = table.to_move if seat is None else seat
                if seat is None or table.seats[seat].kind != "human" or table.seats[seat].away:
                    return
                if seat in await self.core.presence.online(table_id) and version is None:
                    return  # back meanwhile, on another instance
                if version is None and table.turn_based:
                    return  # a turn-based game's people come and go: only their time counts
                self.play.mark_away(draft, seat, away=True, out_of_time=version is not None)
        except ServiceError as error:
            log.info("could not mark a seat away at table %s: %s", table_id, error.message)

    async def sweep(self) -> tuple[int, int]:
        """Close open tables nobody started within ``lobby_expiry`` (if this instance
        keeps shard 0); drop finished games from memory after ``finished_linger``.
        Returns how many of each."""
        moment = self.core.clock()
        tables = self.core.tables
        closed: list[str] = []
        if 0 in self.core.keeper.held:
            try:
                await self._close_stale(moment, closed)
            except StoreUnavailable as error:  # the next sweep closes them
                log.warning("the sweep closed %d stale open tables, then waits for the store: %s", len(closed), error)
        linger = timedelta(seconds=self.finished_linger)
        done = [
            live.table.id
            for live in tables
            if live.table.status in {TABLE_OVER, CLOSED} and moment - live.table.updated >= linger
        ]
        for table_id in done:
            tables.forget(table_id)
        return len(closed), len(done)

    async def _close_stale(self, moment: datetime, closed: list[str]) -> None:
        """Close the open tables nobody started within ``lobby_expiry``; add each to ``closed``."""
        tables = self.core.tables
        before = moment - timedelta(seconds=self.lobby_expiry)
        for table in await tables.read(tables.store.list_tables, OPEN, 500, before=before):
            try:
                async with self.core.change(table.id, refresh=True) as draft:
                    if draft.table.status != OPEN:
                        continue
                    draft.table = draft.table.closed(moment)
                    draft.touch = False  # closed at the sweep's moment
            except StoreUnavailable:
                raise
            except ServiceError:  # changed meanwhile (started, say): not stale after all
                continue
            tables.forget(table.id)
            closed.append(table.id)

    def run_timers(self, interval: float = 0.5, sweep_every: float = 60.0, recheck_every: float = 15.0) -> None:
        """Call :meth:`tick` every ``interval`` seconds, :meth:`recheck` every
        ``recheck_every`` and :meth:`sweep` every ``sweep_every``."""

        async def loop() -> None:
            waited = rechecked = 0.0
            while True:
                await asyncio.sleep(interval)
                waited += interval
                rechecked += interval
                try:
                    await self.tick()
                    if rechecked >= recheck_every:
                        rechecked = 0.0
                        await self.recheck()
                    if waited >= sweep_every:
                        waited = 0.0
                        await self.sweep()
                except StoreUnavailable as error:  # one line, as everywhere else
                    log.warning("the timers wait for the store: %s", error)
                except Exception:
                    log.exception("the timers failed; trying again")

        self._timers = asyncio.get_running_loop().create_task(loop())

    async def idle(self) -> None:
        """Wait until no bot is thinking or about to move (for tests and shutdown)."""
        while self.bots.tasks:
            await asyncio.gather(*list(self.bots.tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        tasks = [self._timers, *self._listeners.values(), *self.bots.tasks.values(), *self._retries]
        for task in tasks:
            if task is not None:
                task.cancel()
        for task in tasks:
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._timers = None
        self._listeners.clear()
        self.bots.tasks.clear()
