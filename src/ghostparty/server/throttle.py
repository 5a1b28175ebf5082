"""Log-in throttling: failed attempts counted per address and per account in fixed
windows, in this process or in Redis (shared by every server instance)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

#: (attempts, seconds): at most this many failed log-ins per window.
PER_ADDRESS = (20, 900)
PER_ACCOUNT = (5, 900)


class Throttle(Protocol):
    async def wait(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> float:
        """Seconds until another attempt under every key is allowed (0: now)."""

    async def failed(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> None:
        """Count a failed attempt under each key."""

    async def close(self) -> None: ...


class MemoryThrottle:
    """Counts in this process (one server instance)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        #: key -> (window's start, failures)
        self._windows: dict[str, tuple[float, int]] = {}

    async def wait(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> float:
        now = self.clock()
        longest = 0.0
        for key, (limit, seconds) in keys:
            start, count = self._windows.get(key, (now, 0))
            if now - start >= seconds:
                continue
            if count >= limit:
                longest = max(longest, start + seconds - now)
        return longest

    async def failed(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> None:
        now = self.clock()
        if len(self._windows) > 100_000:  # drop windows that are over
            self._windows = {k: v for k, v in self._windows.items() if now - v[0] < 3600}
        for key, (_limit, seconds) in keys:
            start, count = self._windows.get(key, (now, 0))
            if now - start >= seconds:
                start, count = now, 0
            self._windows[key] = (start, count + 1)

    async def close(self) -> None:
        return None


class RedisThrottle:
    """Counts in Redis: ``INCR`` with the window as the key's expiry."""

    def __init__(self, url: str, prefix: str = "ghostparty:login:") -> None:
        from redis.asyncio import Redis

        self._redis: Any = Redis.from_url(url)
        self._prefix = prefix

    async def wait(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> float:
        longest = 0.0
        for key, (limit, _seconds) in keys:
            name = self._prefix + key
            count = await self._redis.get(name)
            if count is not None and int(count) >= limit:
                left = await self._redis.pttl(name)
                longest = max(longest, max(left, 1000) / 1000)
        return longest

    async def failed(self, keys: Sequence[tuple[str, tuple[int, int]]]) -> None:
        async with self._redis.pipeline(transaction=False) as pipe:
            for key, (_limit, seconds) in keys:
                name = self._prefix + key
                pipe.incr(name)
                pipe.expire(name, seconds, nx=True)
            await pipe.execute()

    async def close(self) -> None:
        await self._redis.aclose()
