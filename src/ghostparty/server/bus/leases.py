"""Which instance keeps which tables: leases that expire.

Bot turns, turn timers and the sweep of stale tables must run on exactly one instance at
a time, and move to another within seconds when that one dies. Tables are divided into
:data:`SHARDS` shards by their id; an instance keeps the tables of the shards whose
lease it holds. A lease is held for ``ttl`` seconds and renewed every ``ttl / 3``;
an instance that stops renewing (killed, cut off) loses its shards to the others when
the leases expire. Each instance takes free shards up to its fair share (the shards over
the instances alive) and hands back what it holds beyond it, so a new instance gets work.

Safety never rests on the lease: every change is a compare-and-set on the table's
version in the store, so two instances that both believe they keep a table (a Redis
restart forgets every lease) can never both apply a change; the lease only makes sure
that somebody, and usually exactly one, does the work.

So when Redis is away, an instance keeps the shards it holds for up to ``outage_hold``
seconds (30 by default) and plays their bots on, rather than leaving every table without
a keeper until Redis is back. If only this instance lost Redis, another may take its
shards meanwhile and both then work on them: wasted work, never a wrong write. Once
Redis answers, the keeper takes its shards' leases again where they are free (a
restarted Redis has forgotten them), lets go of any another instance took, waits a
``ttl`` before taking free shards (so that every instance first takes its own back), and
reads its shards' games again (notices sent meanwhile were lost). After ``outage_hold``
seconds without Redis it lets go of every shard, as the other instances have taken them
by then if they reach Redis.

:class:`MemoryLeases` is one process that holds every shard; :class:`RedisLeases` shares
them through Redis (``SET NX PX``, renewed and released only by their holder).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from ghostparty.server.infra.redis_client import redis_client

log = logging.getLogger("ghostparty.server")

#: How many shards the tables are divided into.
SHARDS = 16
#: Seconds an instance keeps its shards while Redis is away.
OUTAGE_HOLD = 30.0


def shard_of(table_id: str) -> int:
    """The shard that ``table_id`` belongs to."""
    return zlib.crc32(table_id.encode()) % SHARDS


class Leases(Protocol):
    """Named leases held by one owner at a time until they expire."""

    async def acquire(self, name: str, owner: str, ttl: float) -> bool:
        """Take ``name`` if it is free (or already ``owner``'s, renewing it)."""

    async def renew(self, names: Iterable[str], owner: str, ttl: float) -> set[str]:
        """Extend the leases of ``names`` still held by ``owner``; returns those held."""

    async def release(self, name: str, owner: str) -> None:
        """Give ``name`` back if ``owner`` holds it."""

    async def alive(self, owner: str, ttl: float) -> int:
        """Announce that ``owner`` is alive for ``ttl``; how many owners are alive."""

    async def close(self) -> None: ...


class MemoryLeases:
    """:class:`Leases` within one process (every shard is this instance's)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._held: dict[str, tuple[str, float]] = {}
        self._owners: dict[str, float] = {}
        self._clock = clock

    async def acquire(self, name: str, owner: str, ttl: float) -> bool:
        moment = self._clock()
        holder = self._held.get(name)
        if holder is not None and holder[0] != owner and holder[1] > moment:
            return False
        self._held[name] = (owner, moment + ttl)
        return True

    async def renew(self, names: Iterable[str], owner: str, ttl: float) -> set[str]:
        moment = self._clock()
        kept = set()
        for name in names:
            holder = self._held.get(name)
            if holder is not None and holder[0] == owner and holder[1] > moment:
                self._held[name] = (owner, moment + ttl)
                kept.add(name)
        return kept

    async def release(self, name: str, owner: str) -> None:
        holder = self._held.get(name)
        if holder is not None and holder[0] == owner:
            del self._held[name]

    async def alive(self, owner: str, ttl: float) -> int:
        moment = self._clock()
        self._owners[owner] = moment + ttl
        self._owners = {o: until for o, until in self._owners.items() if until > moment}
        return len(self._owners)

    async def close(self) -> None:
        self._held.clear()


_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    table.insert(kept, key)
  end
end
return kept
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisLeases:
    """:class:`Leases` through Redis, shared by every instance on one Redis server."""

    def __init__(self, url: str, *, prefix: str = "ghostparty:lease:") -> None:
        self.prefix = prefix
        self._redis: Any = redis_client(url)
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)

    async def acquire(self, name: str, owner: str, ttl: float) -> bool:
        key = self.prefix + name
        if await self._redis.set(key, owner, nx=True, px=int(ttl * 1000)):
            return True
        return bool(await self._renew(keys=[key], args=[owner, int(ttl * 1000)]))

    async def renew(self, names: Iterable[str], owner: str, ttl: float) -> set[str]:
        keys = [self.prefix + name for name in names]
        if not keys:
            return set()
        kept = await self._renew(keys=keys, args=[owner, int(ttl * 1000)])
        return {key.decode().removeprefix(self.prefix) for key in kept}

    async def release(self, name: str, owner: str) -> None:
        await self._release(keys=[self.prefix + name], args=[owner])

    async def alive(self, owner: str, ttl: float) -> int:
        key = self.prefix + "instances"
        now_ms = time.time() * 1000
        pipe = self._redis.pipeline(transaction=True)
        pipe.zadd(key, {owner: now_ms + ttl * 1000})
        pipe.zremrangebyscore(key, "-inf", now_ms)
        pipe.zcard(key)
        results = await pipe.execute()
        return int(results[-1])

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._redis.aclose()


class Keeper:
    """This instance's share of the shards, kept by a loop every ``ttl / 3`` seconds.

    ``gained(shards)`` is awaited when shards come to this instance (it takes over their
    tables), ``lost(shards)`` when they leave it (it stops their work).
    """

    def __init__(
        self,
        leases: Leases,
        instance: str,
        *,
        ttl: float = 3.0,
        outage_hold: float = OUTAGE_HOLD,
        gained: Callable[[set[int]], Awaitable[None]] | None = None,
        lost: Callable[[set[int]], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.leases = leases
        self.instance = instance
        self.ttl = ttl
        self.outage_hold = outage_hold
        self._clock = clock
        #: Since when the leases have been failing (Redis away), if they are.
        self.outage_since: float | None = None
        #: Until when no free shard is taken (after an outage: every instance first
        #: takes its own shards back).
        self._settling_until = 0.0
        self.held: set[int] = set()
        self._gained = gained
        self._lost = lost
        self._task: asyncio.Task[None] | None = None
        self._alone = False
        #: Shards held whose games are not yet taken over (that failed: the store was
        #: away, say); tried again at every step, in a task of its own, so that a slow
        #: store never holds up the renewal of the leases.
        self._unready: set[int] = set()
        self._taking: asyncio.Task[None] | None = None
        #: How many times shards left this instance (a takeover under way then is stale).
        self._losses = 0

    @classmethod
    def alone(cls, instance: str) -> Keeper:
        """The keeper of an instance that serves alone: it keeps every shard, always."""
        keeper = cls(MemoryLeases(), instance)
        keeper.held = set(range(SHARDS))
        keeper._alone = True
        return keeper

    def on(
        self,
        *,
        gained: Callable[[set[int]], Awaitable[None]] | None = None,
        lost: Callable[[set[int]], Awaitable[None]] | None = None,
    ) -> None:
        """What to do when shards come to this instance, and when they leave it."""
        self._gained, self._lost = gained, lost

    def clock(self) -> float:
        """The keeper's time (``outage_since`` is on it)."""
        return self._clock()

    def owns(self, table_id: str) -> bool:
        """Whether this instance keeps ``table_id`` now."""
        return shard_of(table_id) in self.held

    async def start(self) -> None:
        """Take a first share at once, then keep it in the background."""
        if self._alone:
            return
        await self.step()
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def step(self) -> None:
        """Renew what is held, announce this instance, take or hand back shards."""
        names = {f"shard:{s}": s for s in self.held}
        kept = {names[name] for name in await self.leases.renew(names, self.instance, self.ttl)}
        if self.outage_since is not None:  # back after an outage: take again what is still free
            self._settling_until = self._clock() + self.ttl
            for shard in self.held - kept:
                if await self.leases.acquire(f"shard:{shard}", self.instance, self.ttl):
                    kept.add(shard)
        lost = self.held - kept
        self.held = kept
        self._unready &= kept
        if lost:
            log.warning("lost the lease of shards %s", sorted(lost))
            await self._call(self._lost, lost)
        alive = await self.leases.alive(self.instance, self.ttl)
        share = math.ceil(SHARDS / max(1, alive))
        gained: set[int] = set()
        for shard in range(SHARDS):
            if len(self.held) + len(gained) >= share or self._clock() < self._settling_until:
                break
            if shard not in self.held and await self.leases.acquire(f"shard:{shard}", self.instance, self.ttl):
                gained.add(shard)
        if gained:
            self.held |= gained
            self._unready |= gained
            log.info("keeping shards %s (%d instances alive)", sorted(self.held), alive)
        extra = len(self.held) - share
        if extra > 0:  # another instance came: hand back what is beyond the fair share
            handed = set(sorted(self.held)[-extra:])
            self.held -= handed
            self._unready -= handed
            await self._call(self._lost, handed)
            for shard in handed:
                await self.leases.release(f"shard:{shard}", self.instance)
        self._take_over()

    @property
    def ready(self) -> bool:
        """Whether every held shard's games have been taken over."""
        return not self._unready

    def _take_over(self) -> None:
        if not self._unready or self._gained is None or (self._taking is not None and not self._taking.done()):
            return
        self._taking = asyncio.get_running_loop().create_task(self._take(set(self._unready)))

    async def _take(self, shards: set[int]) -> None:
        assert self._gained is not None
        losses = self._losses
        try:
            await self._gained(shards & self.held)
        except Exception as error:
            log.warning("taking over shards %s failed (%s); trying again", sorted(shards), error)
        else:
            if self._losses == losses:  # else some were lost meanwhile: their work stopped, take them again
                self._unready -= shards

    async def close(self) -> None:
        if self._alone:
            return
        for task in (self._task, self._taking):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for shard in self.held:
            with contextlib.suppress(Exception):
                await self.leases.release(f"shard:{shard}", self.instance)
        self.held = set()

    async def tick(self) -> None:
        """:meth:`step`, through an outage of the leases (Redis away): the shards held
        are kept for ``outage_hold`` seconds, then let go; once the leases answer
        again, the shards still held are taken over again (notices were lost meanwhile)."""
        try:
            await self.step()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            moment = self._clock()
            if self.outage_since is None:
                self.outage_since = moment
                log.warning(
                    "keeping the shards' leases failed (%s); keeping shards %s for up to %g s meanwhile",
                    error,
                    sorted(self.held),
                    self.outage_hold,
                )
            elif self.held and moment - self.outage_since >= self.outage_hold:
                log.warning(
                    "the shards' leases failed for %g s (%s): letting go of every shard", self.outage_hold, error
                )
                lost, self.held = self.held, set()
                self._unready = set()
                await self._call(self._lost, lost)
            return
        if self.outage_since is not None:
            log.warning("the shards' leases answer again after %.1f s", self._clock() - self.outage_since)
            self.outage_since = None
            self._unready |= self.held  # read their games again: notices were lost meanwhile
            self._take_over()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self.tick()

    async def _call(self, callback: Callable[[set[int]], Awaitable[None]] | None, shards: set[int]) -> None:
        if callback is self._lost:
            self._losses += 1
        if callback is not None:
            try:
                await callback(shards)
            except Exception:
                log.exception("taking over or handing back shards %s failed", sorted(shards))
