"""What the service's parts share: the tables, telling clients, and telling the keeper.

Every change of a table goes the same way, through one transaction (:meth:`Core.change`,
:mod:`ghostparty.server.tables.transaction`): saved (:meth:`Tables.save`), then published once as an encoded
:class:`~ghostparty.server.wire.protocol.Frame` on the table's channel, then handed to the instance that keeps
the table's shard (:mod:`ghostparty.server.bus.leases`), which plays its bots and watches its timers — this
instance directly if it keeps the shard, else through the pub/sub channel
``keeper:{shard}`` that the keeping instance listens to.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime

from ghostparty.server.bus.envelope import KeeperNotice
from ghostparty.server.bus.leases import Keeper, shard_of
from ghostparty.server.bus.presence import Presence
from ghostparty.server.bus.pubsub import PubSub
from ghostparty.server.common.errors import ServiceError, StoreUnavailable
from ghostparty.server.common.metrics import Metrics
from ghostparty.server.common.model import Table, needs_keeper
from ghostparty.server.tables import transaction
from ghostparty.server.tables.live import LiveTable, Tables
from ghostparty.server.wire.codec import table_view
from ghostparty.server.wire.protocol import Frame, Message, update_frame

log = logging.getLogger("ghostparty.server")


def keeper_channel(shard: int) -> str:
    """The pub/sub channel of the instance keeping ``shard``."""
    return f"keeper:{shard}"


class Core:
    """The tables, the pub/sub, the presence and the keeper, with the steps every
    change takes."""

    def __init__(
        self,
        tables: Tables,
        pubsub: PubSub,
        presence: Presence,
        keeper: Keeper,
        clock: Callable[[], datetime],
    ) -> None:
        self.tables = tables
        self.pubsub = pubsub
        self.presence = presence
        self.keeper = keeper
        self.clock = clock
        self.metrics: Metrics = tables.metrics
        #: Set by the keeping part: what this instance does with a table it keeps, and
        #: with seats of it whose pages all closed (``gone``) or opened again (``back``).
        self.keep: Callable[[LiveTable], Awaitable[None]] | None = None
        self.seen: Callable[[str, Sequence[int], Sequence[int]], Awaitable[None]] | None = None
        tables.loaded = self._loaded
        self._rechecks: set[asyncio.Task[None]] = set()

    def change(
        self,
        table_id: str,
        seat: int | None = None,
        token: str | None = None,
        *,
        expect: str | Collection[str] | None = None,
        refusal: str | None = None,
        version: int | None = None,
        fresh: bool = False,
        refresh: bool = False,
        min_version: int = 0,
        quiet: bool = False,
    ) -> AbstractAsyncContextManager[transaction.Draft]:
        """The one way to change a table: :func:`ghostparty.server.tables.transaction.change` (lock, read,
        check, edit a draft; then save, publish, tell the keeper)."""
        return transaction.change(
            self,
            table_id,
            seat,
            token,
            expect=expect,
            refusal=refusal,
            version=version,
            fresh=fresh,
            refresh=refresh,
            min_version=min_version,
            quiet=quiet,
        )

    async def _loaded(self, live: LiveTable) -> None:
        """A table read afresh may hold work another instance left (a bot to move)."""
        await self.changed(live)

    def recheck_later(self, table_id: str, version: int) -> None:
        """:meth:`recheck` in the background."""
        task = asyncio.get_running_loop().create_task(self.recheck(table_id, version))
        self._rechecks.add(task)
        task.add_done_callback(self._rechecks.discard)

    async def recheck(self, table_id: str, version: int, *, every: float = 1.0, tries: int = 120) -> None:
        """After a save that failed midway (the store may or may not have it): once the
        store answers again, tell every client and the keeper of what it holds, if it
        moved past ``version``."""
        for _ in range(tries):
            await asyncio.sleep(every)
            try:
                await transaction.refresh(self, table_id, newer_than=version)
            except StoreUnavailable:
                continue
            except ServiceError:
                return
            return

    async def close(self) -> None:
        """Stop the rechecks still waiting for the store."""
        for task in list(self._rechecks):
            task.cancel()

    async def view(self, table: Table) -> Message:
        """What every client may know of ``table``."""
        return table_view(table, await self.presence.online(table.id))

    async def publish(self, live: LiveTable, entry: Message | None) -> Frame:
        """Tell every client watching the table, on any instance."""
        table = live.table
        online = await self.presence.online(table.id)
        position = live.game.state if live.game is not None else None
        frame = update_frame(table, online, position, entry)
        try:
            await self.pubsub.publish(table.id, frame)
        except Exception as error:  # the change is saved; clients catch up on their next update or sync
            self.metrics.redis_errors.labels("update").inc()
            log.warning("publishing table %s's version %d failed: %s", table.id, table.version, error)
        return frame

    async def changed(self, live: LiveTable, *, always: bool = False) -> None:
        """Hand the table to its keeper if it has work there: a bot or an away person
        to move, a turn timer, a change of status (``always``)."""
        if not (always or needs_keeper(live.table)):
            return
        if self.keeper.owns(live.table.id) and self.keep is not None:
            await self.keep(live)
            return
        await self._notify(live.table.id, live.table.version)

    async def presence_changed(self, table_id: str, gone: Sequence[int], back: Sequence[int]) -> None:
        """Tell the table's keeper that no page holds ``gone`` any more and that pages
        hold ``back`` again (it marks people away after a while)."""
        if not (gone or back):
            return
        if self.keeper.owns(table_id) and self.seen is not None:
            await self.seen(table_id, gone, back)
            return
        await self._notify(table_id, 0, gone, back)

    async def _notify(self, table_id: str, version: int, gone: Sequence[int] = (), back: Sequence[int] = ()) -> None:
        notice = KeeperNotice(table_id, version, tuple(gone), tuple(back))
        try:
            await self.pubsub.publish(keeper_channel(shard_of(table_id)), notice)
        except Exception as error:  # the keeper finds it by its scan on taking over
            self.metrics.redis_errors.labels("notice").inc()
            log.warning("telling the keeper of table %s failed: %s", table_id, error)
