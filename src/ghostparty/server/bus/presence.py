"""Who is connected: which seats of a table have a page open, over every instance.

:class:`MemoryPresence` counts one process's connections. :class:`RedisPresence` shares
them between instances through Redis: each instance writes the seats its own pages hold
into a hash per table, each field stamped with an expiry that the instance renews while
it lives, so a killed instance's pages drop out within :attr:`RedisPresence.ttl`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Sequence
from typing import Protocol

from ghostparty.server.bus.envelope import OVERFLOW, Message, PresenceChanged
from ghostparty.server.bus.pubsub import PubSub
from ghostparty.server.infra.logs import Sparse
from ghostparty.server.infra.redis_wire import WireClient, command

log = logging.getLogger("ghostparty.server")
#: While Redis is away every read and write of presence fails: one line each 10 s per kind.
_sparse = Sparse(log)
#: The pub/sub channel of :class:`RedisPresence`'s announcements.
CHANNEL = "presence"


class Presence(Protocol):
    """The seats of each table that some page holds."""

    async def join(self, table_id: str, seats: Sequence[int]) -> list[int]:
        """A page holding ``seats`` opened; returns the seats that came online."""

    async def leave(self, table_id: str, seats: Sequence[int]) -> list[int]:
        """A page holding ``seats`` closed; returns the seats no page holds any more."""

    async def online(self, table_id: str) -> frozenset[int]:
        """The seats some page holds now."""

    def watched(self) -> list[str]:
        """The tables this instance's pages hold seats of."""

    async def close(self) -> None: ...


class MemoryPresence:
    """:class:`Presence` within one process."""

    def __init__(self) -> None:
        self._counts: dict[str, dict[int, int]] = {}

    async def join(self, table_id: str, seats: Sequence[int]) -> list[int]:
        return _add(self._counts, table_id, seats)

    async def leave(self, table_id: str, seats: Sequence[int]) -> list[int]:
        return _remove(self._counts, table_id, seats)

    async def online(self, table_id: str) -> frozenset[int]:
        return frozenset(self._counts.get(table_id, ()))

    def watched(self) -> list[str]:
        return list(self._counts)

    def forget(self, table_id: str) -> None:
        self._counts.pop(table_id, None)

    async def close(self) -> None:
        self._counts.clear()


def _add(counts: dict[str, dict[int, int]], table_id: str, seats: Sequence[int]) -> list[int]:
    table = counts.setdefault(table_id, {})
    came = []
    for seat in seats:
        table[seat] = table.get(seat, 0) + 1
        if table[seat] == 1:
            came.append(seat)
    if not table:
        del counts[table_id]
    return came


def _remove(counts: dict[str, dict[int, int]], table_id: str, seats: Sequence[int]) -> list[int]:
    table = counts.get(table_id, {})
    went = []
    for seat in seats:
        left = table.get(seat, 0) - 1
        if left <= 0:
            if table.pop(seat, None) is not None:
                went.append(seat)
        else:
            table[seat] = left
    if not table:
        counts.pop(table_id, None)
    return went


class RedisPresence:
    """:class:`Presence` shared between instances through Redis.

    Table ``t``'s hash ``{prefix}{t}`` has a field ``{instance}:{seat}`` for each seat a
    page on ``instance`` holds, whose value is when it expires (ms since the epoch). The
    instance renews its fields every ``ttl / 3`` seconds. A change is announced on the
    instances' pub/sub (``pubsub``, channel :data:`CHANNEL`, as a
    :class:`~ghostparty.server.bus.envelope.PresenceChanged`) once written, so that every instance drops its
    copy of that table's seats; a copy is otherwise kept until the first of its fields
    expires (an instance that stopped renewing them, having died) and for at most ``ttl``
    seconds, and every copy is dropped when the pub/sub may have missed messages.
    """

    def __init__(
        self, url: str, instance: str, pubsub: PubSub, *, prefix: str = "ghostparty:online:", ttl: float = 9.0
    ) -> None:
        self.instance = instance
        self.pubsub = pubsub
        self.prefix = prefix
        self.ttl = ttl
        self._redis = WireClient(url)
        self._mine: dict[str, dict[int, int]] = {}
        #: Per table, until when (``time.monotonic``) the seats read from Redis stand.
        self._copies: dict[str, tuple[float, frozenset[int]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = contextlib.AsyncExitStack()

    async def start(self) -> None:
        """Renew this instance's fields and listen for changes, until :meth:`close`."""
        await self._listening.enter_async_context(self.pubsub.listen(CHANNEL, self._heard))
        self._copies.clear()  # anything may have changed before
        self._tasks = [asyncio.get_running_loop().create_task(self._renew())]

    async def join(self, table_id: str, seats: Sequence[int]) -> list[int]:
        was = await self.online(table_id)
        _add(self._mine, table_id, seats)
        return sorted(await self._write(table_id) - was)

    async def leave(self, table_id: str, seats: Sequence[int]) -> list[int]:
        gone_here = _remove(self._mine, table_id, seats)
        if not gone_here:
            return []
        now_online = await self._write(table_id, removed=gone_here)
        return [seat for seat in gone_here if seat not in now_online]

    async def online(self, table_id: str) -> frozenset[int]:
        copy = self._copies.get(table_id)
        moment = time.monotonic()
        if copy is not None and moment < copy[0]:
            return copy[1]
        try:
            [flat] = await self._redis.execute(command("HGETALL", self.prefix + table_id))
        except Exception as error:  # Redis is away: this instance's own pages still count
            _sparse.warning("read", "reading presence from Redis failed: %s", error)
            return frozenset(self._mine.get(table_id, ()))
        return self._read(table_id, flat, moment)

    def _read(self, table_id: str, flat: list[bytes], moment: float) -> frozenset[int]:
        """The seats online at ``table_id`` by its hash's fields (``flat``, as ``HGETALL``
        answers) and this instance's own, kept as the table's copy from ``moment`` on."""
        now_ms = time.time() * 1000
        alive = {key: float(value) for key, value in zip(flat[::2], flat[1::2], strict=True) if float(value) > now_ms}
        seats = frozenset(int(key.rsplit(b":", 1)[1]) for key in alive) | frozenset(self._mine.get(table_id, ()))
        mine = f"{self.instance}:".encode()  # (this instance's own: known here, renewed here)
        theirs = [expiry for key, expiry in alive.items() if not key.startswith(mine)]
        first_expiry = (min(theirs) - now_ms) / 1000 if theirs else self.ttl
        self._copies[table_id] = (moment + min(first_expiry, self.ttl), seats)
        if len(self._copies) > 10_000:
            self._copies.clear()
        return seats

    def watched(self) -> list[str]:
        return list(self._mine)

    async def close(self) -> None:
        """Stop renewing, take this instance's seats out and say so (before the pub/sub
        closes)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._listening.aclose()
        with contextlib.suppress(Exception):
            removals = [
                command("HDEL", self.prefix + table_id, *(f"{self.instance}:{s}" for s in seats))
                for table_id, seats in self._mine.items()
                if seats
            ]
            if removals:
                await self._redis.execute(*removals)
            for table_id in self._mine:
                await self._announce(table_id)
        await self._redis.close()

    async def _heard(self, message: Message) -> None:
        if message is OVERFLOW:  # changes may have been missed
            self._copies.clear()
        elif isinstance(message, PresenceChanged):
            self._copies.pop(message.table_id, None)

    async def _announce(self, table_id: str) -> None:
        try:
            await self.pubsub.publish(CHANNEL, PresenceChanged(table_id))
        except Exception as error:  # the other instances' copies stand until they expire
            _sparse.warning("announce", "announcing a presence change failed: %s", error)

    async def _write(self, table_id: str, removed: Sequence[int] = ()) -> frozenset[int]:
        """Write this instance's fields of ``table_id`` (``removed`` seats taken out) and
        read the hash back in the same round trip: the seats online now."""
        self._copies.pop(table_id, None)
        key = self.prefix + table_id
        expiry = str(int(time.time() * 1000 + self.ttl * 1000))
        commands = []
        if removed:
            commands.append(command("HDEL", key, *(f"{self.instance}:{s}" for s in removed)))
        held = self._mine.get(table_id, {})
        if held:
            commands.append(self._hset(key, held, expiry))
        commands += [command("PEXPIRE", key, int(self.ttl * 4000)), command("HGETALL", key)]
        moment = time.monotonic()
        try:
            replies = await self._redis.execute(*commands)
        except Exception as error:
            _sparse.warning("write", "writing presence to Redis failed: %s", error)
            return frozenset(held)
        await self._announce(table_id)  # once written: who reads after the notice reads it
        return self._read(table_id, replies[-1], moment)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            expiry = str(int(time.time() * 1000 + self.ttl * 1000))
            commands = []
            for table_id, seats in self._mine.items():
                if seats:
                    key = self.prefix + table_id
                    commands += [self._hset(key, seats, expiry), command("PEXPIRE", key, int(self.ttl * 4000))]
            if not commands:
                continue
            try:
                await self._redis.execute(*commands)
            except Exception as error:
                log.warning("renewing presence in Redis failed: %s", error)

    def _hset(self, key: str, seats: Iterable[int], expiry: str) -> bytes:
        """``HSET`` of this instance's field of each of ``seats`` to ``expiry``."""
        fields: list[str] = []
        for seat in seats:
            fields += [f"{self.instance}:{seat}", expiry]
        return command("HSET", key, *fields)
