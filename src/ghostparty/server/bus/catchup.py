"""Clients brought up to date when an update meant for them was lost.

A change of a table is saved, then published (:mod:`ghostparty.server.tables.transaction`). An instance killed
between the two, or a publish Redis dropped, leaves the clients other instances serve a
version behind the store, and nothing else would tell them: a client asks for the state
only after an error or a gap in the versions, and a game whose updates stop, stops (the
person to move never learns it is their turn). So every :data:`EVERY` seconds an
instance whose tables other instances change too reads, in one statement, the stored
version of each table its sockets watch; a socket still behind a version the store
already had at the look before (one look's grace for an update on its way) is sent the
table's whole state. A socket not yet told its hello's state is left to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Protocol

from ghostparty.server.infra.logs import Sparse

log = logging.getLogger("ghostparty.server")
_sparse = Sparse(log)

#: Seconds between two looks at the store's versions.
EVERY = 2.0


class Watcher(Protocol):
    """A client watching a table: the version it was last told, and a way to tell it all."""

    @property
    def version(self) -> int:
        """The version of the last state or update sent; negative before the first."""

    def catch_up(self) -> bool:
        """Send the table's whole state (soon: it may return before it is sent); whether
        it will (not where one is on its way already)."""


class CatchUp:
    """The sockets of this instance by table, and the looks that catch them up.

    ``versions`` reads the stored version of many tables at once (an unknown one left
    out); ``caught_up`` is called once per client sent the state (not one that was about
    to get it anyway).
    """

    def __init__(
        self,
        versions: Callable[[Sequence[str]], Awaitable[dict[str, int]]],
        *,
        every: float = EVERY,
        caught_up: Callable[[], None] = lambda: None,
    ) -> None:
        self.versions = versions
        self.every = every
        self.caught_up = caught_up
        self._watchers: dict[str, set[Watcher]] = {}
        #: The watchers behind the store at the last look, with the version it had then.
        self._behind: dict[Watcher, int] = {}

    @contextlib.contextmanager
    def watching(self, table_id: str, watcher: Watcher) -> Iterator[None]:
        """While in the context, ``watcher`` is looked at with ``table_id``'s version."""
        self._watchers.setdefault(table_id, set()).add(watcher)
        try:
            yield
        finally:
            watchers = self._watchers.get(table_id)
            if watchers is not None:
                watchers.discard(watcher)
                if not watchers:
                    del self._watchers[table_id]
            self._behind.pop(watcher, None)

    def __len__(self) -> int:
        """How many tables are watched."""
        return len(self._watchers)

    async def look(self) -> int:
        """Compare every watcher with the store once; how many were sent the state."""
        if not self._watchers:
            self._behind.clear()
            return 0
        stored = await self.versions(list(self._watchers))
        behind: dict[Watcher, int] = {}
        sent = 0
        for table_id, watchers in self._watchers.items():  # (nothing awaits in this loop)
            version = stored.get(table_id)
            if version is None:
                continue
            for watcher in watchers:
                if watcher.version < 0:  # told nothing yet: its hello's state is on its way
                    continue
                before = self._behind.get(watcher)
                if before is not None and watcher.version < before:  # its update isn't coming
                    if watcher.catch_up():
                        self.caught_up()
                        sent += 1
                elif watcher.version < version:  # perhaps on its way: look again next time
                    behind[watcher] = version
        self._behind = behind
        return sent

    async def run(self) -> None:
        """Look every :attr:`every` seconds until cancelled; a failed look is logged."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.look()
            except Exception as error:  # the store is away: the next look tries again
                _sparse.warning("look", "checking the clients' versions failed: %s", error)
