"""Tables in memory: the games rebuilt from the store, their locks, and saving them.

:class:`Tables` is the one way the server's parts read and change a table. It keeps an
LRU of recent tables with their games rebuilt (replaying a game's actions costs about
10 µs each), reads the store where its copy may be stale, and saves every change as a
compare-and-set on the table's version, so two server instances can never both apply a
change to one version of a table.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from ghostparty.bots import Bot
from ghostparty.rules import Game, action_from_dict
from ghostparty.rules.events import Event
from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable
from ghostparty.server.common.metrics import Metrics
from ghostparty.server.common.model import CLOSED, OPEN, ActionRow, Change, GameResult, Table
from ghostparty.server.tables.store import SavesMany, Store

log = logging.getLogger("ghostparty.server")

P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class LiveTable:
    """A table with its game rebuilt in memory (``game`` is ``None`` until it starts)."""

    table: Table
    game: Game | None
    #: Per action: ``{"index", "seat", "action"}`` (clients tell the events in words).
    log: list[dict[str, Any]] = field(default_factory=list)
    #: Each log entry's engine events, kept as the (small, frozen) event values and
    #: written out only for a ``state`` message.
    events: list[Sequence[Event]] = field(default_factory=list)
    #: The bots playing this table's seats, made on their first turn.
    bots: dict[int, Bot] = field(default_factory=dict)


class _Held:
    """A table's lock and how many hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class TableLock:
    """``async with``: one table's lock, kept in ``locks`` while anyone holds or waits
    for it (a plain dict: a weak one's references and callbacks cost more per change)."""

    __slots__ = ("_held", "_locks", "_table_id")

    def __init__(self, locks: dict[str, _Held], table_id: str) -> None:
        self._locks = locks
        self._table_id = table_id

    async def __aenter__(self) -> None:
        held = self._locks.get(self._table_id)
        if held is None:
            held = self._locks[self._table_id] = _Held()
        held.users += 1
        self._held = held
        try:
            await held.lock.acquire()
        except BaseException:  # cancelled while waiting
            self._leave()
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self._held.lock.release()
        self._leave()

    def _leave(self) -> None:
        held = self._held
        held.users -= 1
        if not held.users:
            del self._locks[self._table_id]


class Tables:
    """The store's tables, with recent ones kept rebuilt in memory."""

    def __init__(
        self, store: Store, *, cache_size: int = 2000, shared: bool = False, metrics: Metrics | None = None
    ) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.cache_size = cache_size
        #: Other instances change these tables too: a read for a client (``fresh``) goes
        #: to the store, since this instance's copy may be behind.
        self.shared = shared
        #: Called with each table read from the store (the keeper learns of work on it).
        self.loaded: Callable[[LiveTable], Awaitable[None]] | None = None
        self._cache: OrderedDict[str, LiveTable] = OrderedDict()
        self._locks: dict[str, _Held] = {}
        #: The newest version of each table this instance has heard of (from other
        #: instances' updates): a cached copy older than that is read afresh.
        self._heard: dict[str, int] = {}
        self._batch = _Batch(store.save_many) if isinstance(store, SavesMany) else None
        self._versions = None if store.embedded else _VersionReads(store)

    def lock(self, table_id: str) -> TableLock:
        """The lock every change of ``table_id`` on this instance is made under
        (``async with``)."""
        return TableLock(self._locks, table_id)

    async def get(
        self, table_id: str, *, refresh: bool = False, min_version: int = 0, fresh: bool = False
    ) -> LiveTable:
        """The table, from memory unless ``refresh``, or the copy there is older than
        ``min_version`` or than a version heard of, or (``fresh``, where other instances
        change tables too) the store's version of it is another; ``unknown_table`` if
        there is none."""
        live = None if refresh else self._cache.get(table_id)
        if live is not None:
            newest = max(min_version, self._heard.get(table_id, 0))
            if live.table.version >= newest:
                if fresh and self.shared:  # another instance may have changed it: ask the store
                    stored = await self._stored_version(table_id)
                    if stored is None:
                        raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}")
                    current = stored == live.table.version
                else:
                    current = True
                if current and self._cache.get(table_id) is live:  # not forgotten while the store answered
                    self._cache.move_to_end(table_id)
                    return live
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 16:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}")
        loaded = await self.read(self.store.load, table_id)
        if loaded is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}")
        table, rows = loaded
        self._heard.pop(table_id, None)
        cached = self._cache.get(table_id)
        if cached is not None and cached.table.version == table.version:
            self._cache.move_to_end(table_id)
            return cached  # still current: keep its bots and log
        live = self.remember(rebuild(table, rows))
        if self.loaded is not None:
            await self.loaded(live)
        return live

    def cached(self, table_id: str) -> LiveTable | None:
        """The copy in memory, if any (no store read)."""
        return self._cache.get(table_id)

    def heard(self, table_id: str, version: int) -> None:
        """Another instance changed ``table_id`` to ``version``."""
        live = self._cache.get(table_id)
        if live is not None and live.table.version < version:
            self._heard[table_id] = max(version, self._heard.get(table_id, 0))

    def remember(self, live: LiveTable) -> LiveTable:
        self._cache[live.table.id] = live
        self._cache.move_to_end(live.table.id)
        while len(self._cache) > self.cache_size:
            dropped, _ = self._cache.popitem(last=False)
            self._heard.pop(dropped, None)
        return live

    def forget(self, table_id: str) -> None:
        """Drop the copy in memory; the next use reads the store."""
        self._cache.pop(table_id, None)
        self._heard.pop(table_id, None)

    def __len__(self) -> int:
        return len(self._cache)

    def __iter__(self) -> Iterator[LiveTable]:
        return iter(list(self._cache.values()))

    async def save(
        self, live: LiveTable, table: Table, rows: Sequence[ActionRow] = (), result: GameResult | None = None
    ) -> None:
        """Store ``table`` (and append ``rows``) if the stored version is still
        ``live.table``'s, then make it ``live``'s.

        :raises ServiceError: ``stale_version`` if another change came first;
            :class:`StoreUnavailable` if the store failed. Either way ``live`` is
            unchanged and forgotten, so that the next use reads what was stored.
        """
        change = Change(table, live.table.version, tuple(rows), table.seats != live.table.seats, result)
        try:
            if self._batch is not None:
                saved = await self._batch.save(change, embedded=self.store.embedded)
            else:
                saved = await self.call(
                    self.store.save, table, change.expected_version, rows, with_seats=change.with_seats, result=result
                )
        except asyncio.CancelledError:  # it may or may not have been stored: read it again
            self.forget(table.id)
            raise
        except Exception as error:  # the connection dropped, the server went away, …
            self.forget(table.id)
            self.metrics.save_errors.inc()
            log.warning("saving table %s failed: %s", table.id, brief(error))
            raise StoreUnavailable(type(error).__name__) from error
        if not saved:
            self.forget(table.id)
            raise ServiceError(ErrorCode.STALE_VERSION, "the table changed meanwhile: reload and choose again")
        live.table = table

    async def call(self, call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """``call(*args, **kwargs)`` on the store: on the event loop if the store is
        embedded (:attr:`Store.embedded`), else in a worker thread."""
        if self.store.embedded:
            return call(*args, **kwargs)
        return await asyncio.to_thread(call, *args, **kwargs)

    async def _stored_version(self, table_id: str) -> int | None:
        """The store's version of ``table_id`` now (``None``: no such table); for a store
        in another process, read together with the others asked for meanwhile."""
        if self._versions is None:
            return await self.read(self.store.version, table_id)
        try:
            return await self._versions.read(table_id)
        except Exception as error:
            self.metrics.read_errors.inc()
            log.warning("reading the store failed: %s", brief(error))
            raise StoreUnavailable(type(error).__name__) from error

    async def read(self, call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """:meth:`call` for reads, with a store failure as :class:`StoreUnavailable`."""
        try:
            return await self.call(call, *args, **kwargs)
        except ServiceError:
            raise
        except Exception as error:
            self.metrics.read_errors.inc()
            log.warning("reading the store failed: %s", brief(error))
            raise StoreUnavailable(type(error).__name__) from error


class _Batch:
    """Group commit: saves are written together, several games' in one transaction.

    For an embedded store, the saves asked for while the event loop runs its ready
    callbacks are written right after, on the loop. For any other, one batch at a time
    is written in a worker thread, and the saves asked for meanwhile make the next: with
    PostgreSQL each commit waits for its log to reach the disk, and this way one wait
    serves many games instead of each waiting for its own.
    """

    def __init__(self, save_many: Callable[[Sequence[Change]], list[bool]]) -> None:
        self._save_many = save_many
        self._pending: list[tuple[Change, asyncio.Future[bool]]] = []
        self._writing: asyncio.Task[None] | None = None

    def save(self, change: Change, *, embedded: bool) -> asyncio.Future[bool]:
        first = not self._pending
        # the loop of the saves pending already (asking asyncio costs a getpid() each time)
        loop = asyncio.get_running_loop() if first else self._pending[0][1].get_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._pending.append((change, future))
        if embedded:
            if first:
                loop.call_soon(self._flush)
        elif self._writing is None or self._writing.done():
            self._writing = loop.create_task(self._write_in_thread())
        return future

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        try:
            results: list[bool] | Exception = self._save_many([change for change, _ in pending])
        except Exception as error:
            results = error
        self._settle(pending, results)

    async def _write_in_thread(self) -> None:
        while self._pending:
            pending, self._pending = self._pending, []
            changes = [change for change, _ in pending]
            try:
                results: list[bool] | Exception = await asyncio.to_thread(self._save_many, changes)
            except Exception as error:
                results = error
            self._settle(pending, results)

    @staticmethod
    def _settle(pending: list[tuple[Change, asyncio.Future[bool]]], results: list[bool] | Exception) -> None:
        if isinstance(results, Exception):
            for _, future in pending:
                if not future.done():
                    future.set_exception(results)
            return
        for (_, future), saved in zip(pending, results, strict=True):
            if not future.done():
                future.set_result(saved)


class _VersionReads:
    """Fresh reads of stored versions, several tables' in one statement.

    A page's hello, a join and a start each ask whether the copy in memory is still the
    store's, where other instances change tables too: each one statement in a worker
    thread (about 0.25 ms of CPU with PostgreSQL, for one integer). Here the reads asked
    for while one is being made are made next, together (``Store.versions``), so that
    every answer is the store's as of after it was asked, and many games' set-ups share
    one round trip.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._pending: dict[str, list[asyncio.Future[int | None]]] = {}
        self._reading: asyncio.Task[None] | None = None

    def read(self, table_id: str) -> asyncio.Future[int | None]:
        """The stored version of ``table_id`` (``None``: no such table), read from now."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        self._pending.setdefault(table_id, []).append(future)
        if self._reading is None or self._reading.done():
            self._reading = loop.create_task(self._read())
        return future

    def _versions(self, table_ids: list[str]) -> dict[str, int]:
        if len(table_ids) > 1:
            return self._store.versions(table_ids)
        found = self._store.version(table_ids[0])  # one: the statement compiled once
        return {} if found is None else {table_ids[0]: found}

    async def _read(self) -> None:
        while self._pending:
            pending, self._pending = self._pending, {}
            try:
                found = await asyncio.to_thread(self._versions, list(pending))
            except Exception as error:
                for futures in pending.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(error)
                continue
            for table_id, futures in pending.items():
                for future in futures:
                    if not future.done():
                        future.set_result(found.get(table_id))


def brief(error: BaseException) -> str:
    """The first line of ``error``'s message: a log line (a database error's message goes
    on with its SQL, its parameters and a link)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def rebuild(table: Table, rows: Sequence[ActionRow]) -> LiveTable:
    """A stored table with its game replayed from its actions."""
    if table.status in {OPEN, CLOSED} or table.first_player is None:  # never started
        return LiveTable(table, None)
    game = Game(table.rules, table.players, first_player=table.first_player)
    live = LiveTable(table, game)
    for row in rows:
        events = game.push(action_from_dict(row.action))
        live.log.append({"index": row.index, "seat": row.seat, "action": row.action})
        live.events.append(events)
    return live
