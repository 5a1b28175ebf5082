"""Rate limits shared by every server instance: log-ins, new tables, the queue, chat.

A :class:`Limit` allows ``count`` uses in any ``seconds``: a burst of ``count`` at once,
then one each ``seconds / count`` (the generic cell rate algorithm, GCRA: one number
kept per key, the time at which its bucket is empty again). A use is counted *before*
the work it guards (:meth:`Limiter.take`), so requests sent at once can't all slip in
before any is counted; work that turns out not to count (a log-in with the right
password) gives its use back (:meth:`Limiter.give_back`).

:class:`MemoryLimiter` counts in this process (one instance); :class:`RedisLimiter`
counts in Redis, by one script per call, so several keys are checked and counted
together and atomically, on Redis's clock.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ghostparty.server.common.errors import RateLimited


@dataclass(frozen=True)
class Limit:
    """At most ``count`` uses in any ``seconds``; ``what`` says so to whoever is refused."""

    count: int
    seconds: float
    what: str

    def __post_init__(self) -> None:
        if self.count < 1 or self.seconds <= 0:
            raise ValueError(f"a limit allows at least 1 use in a positive time, not {self.count} in {self.seconds}")

    @property
    def interval(self) -> float:
        """Seconds one use takes up."""
        return self.seconds / self.count


#: A key and the limit counted under it.
Use = tuple[str, Limit]


@dataclass(frozen=True)
class Refused:
    """The limit that refused a use, and the seconds until it would allow one."""

    limit: Limit
    wait: float

    def error(self) -> RateLimited:
        return RateLimited(self.limit.what, self.wait)


class Limiter(Protocol):
    async def take(self, uses: Sequence[Use]) -> Refused | None:
        """Count one use under every key, or, if any of their limits is reached, none:
        then the limit with the longest wait."""

    async def give_back(self, uses: Sequence[Use]) -> None:
        """Uncount one use under every key (work that turned out not to count)."""

    async def forget(self, keys: Sequence[str]) -> None:
        """Start these keys afresh."""

    async def close(self) -> None: ...


async def take_or_refuse(limiter: Limiter, uses: Sequence[Use]) -> None:
    """Count one use under every key; :class:`~ghostparty.server.common.errors.RateLimited` (429) if refused."""
    refused = await limiter.take(uses)
    if refused is not None:
        raise refused.error()


class MemoryLimiter:
    """Counts in this process (one server instance)."""

    #: Keys kept before those whose buckets are empty are dropped.
    MOST = 100_000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        #: key -> the time its bucket is empty again
        self._empty_at: dict[str, float] = {}

    async def take(self, uses: Sequence[Use]) -> Refused | None:
        now = self.clock()
        refused: Refused | None = None
        after: list[float] = []
        for key, limit in uses:
            empty_at = max(self._empty_at.get(key, now), now) + limit.interval
            wait = empty_at - limit.seconds - now
            if wait > 1e-9 and (refused is None or wait > refused.wait):
                refused = Refused(limit, wait)
            after.append(empty_at)
        if refused is not None:
            return refused
        if len(self._empty_at) > self.MOST:
            self._empty_at = {k: v for k, v in self._empty_at.items() if v > now}
        for (key, _limit), empty_at in zip(uses, after, strict=True):
            self._empty_at[key] = empty_at
        return None

    async def give_back(self, uses: Sequence[Use]) -> None:
        now = self.clock()
        for key, limit in uses:
            if key in self._empty_at:
                self._empty_at[key] = max(now, self._empty_at[key] - limit.interval)

    async def forget(self, keys: Sequence[str]) -> None:
        for key in keys:
            self._empty_at.pop(key, None)

    async def close(self) -> None:
        return None


# KEYS: the keys; ARGV: per key its interval and period in ms, then 1 to take or -1 to give back.
_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sign = tonumber(ARGV[2 * #KEYS + 1])
local after = {}
local worst, worst_wait = 0, 0
for i = 1, #KEYS do
  local interval, period = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local empty_at = tonumber(redis.call('GET', KEYS[i]) or now)
  if empty_at < now then empty_at = now end
  after[i] = empty_at + sign * interval
  local wait = after[i] - period - now
  if sign > 0 and wait > 0 and wait > worst_wait then worst, worst_wait = i, wait end
end
if worst > 0 then return {worst, worst_wait} end
for i = 1, #KEYS do
  if after[i] > now then
    redis.call('SET', KEYS[i], after[i], 'PX', after[i] - now)
  else
    redis.call('DEL', KEYS[i])
  end
end
return {0, 0}
"""


class RedisLimiter:
    """Counts in Redis, shared by every instance; Redis's clock is the one clock. The
    script runs by its digest (``EVALSHA``; sent whole once Redis says it lacks it) over
    a :class:`~ghostparty.server.infra.redis_wire.WireClient`: one write and one hiredis parse a use, where
    redis-py's pooled client and script object cost a few times more on every join."""

    def __init__(self, url: str, prefix: str = "ghostparty:limit:") -> None:
        from ghostparty.server.infra.redis_wire import WireClient

        self._redis = WireClient(url)
        self._prefix = prefix
        self._digest = hashlib.sha1(_SCRIPT.encode()).hexdigest()  # (Redis names a script by its SHA-1)

    async def _run(self, uses: Sequence[Use], sign: int) -> Refused | None:
        from ghostparty.server.infra.redis_wire import WireError, command

        if not uses:
            return None
        keys = [self._prefix + key for key, _ in uses]
        args: list[int] = []
        for _key, limit in uses:
            args += [max(1, round(limit.interval * 1000)), round(limit.seconds * 1000)]
        try:
            [reply] = await self._redis.execute(command("EVALSHA", self._digest, len(keys), *keys, *args, sign))
        except WireError as error:
            if "NOSCRIPT" not in str(error):
                raise
            [reply] = await self._redis.execute(command("EVAL", _SCRIPT, len(keys), *keys, *args, sign))
        worst, wait_ms = reply
        if int(worst) == 0:
            return None
        return Refused(uses[int(worst) - 1][1], int(wait_ms) / 1000)

    async def take(self, uses: Sequence[Use]) -> Refused | None:
        return await self._run(uses, 1)

    async def give_back(self, uses: Sequence[Use]) -> None:
        await self._run(uses, -1)

    async def forget(self, keys: Sequence[str]) -> None:
        from ghostparty.server.infra.redis_wire import command

        if keys:
            await self._redis.execute(command("DEL", *(self._prefix + key for key in keys)))

    async def close(self) -> None:
        await self._redis.close()
