"""How much WebSockets may do: the sockets one address may open on an instance, and the
messages a second one client (or every socket of one API token together) may send."""

from __future__ import annotations

import collections
import contextlib
import time
from collections.abc import Callable, Iterator

#: Messages a second one WebSocket client may send, sustained; and its burst.
RATE, BURST = 30.0, 60.0
#: Of those, the messages answered with the whole table (``hello``, ``sync``, ``chat_sync``:
#: a read of the store, the game's whole log, and for ``hello`` the table's presence told
#: to every watcher): one a second, sustained; bursts of 10. A page sends one on opening.
STATE_RATE, STATE_BURST = 1.0, 10.0


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait_time(self) -> float:
        """Seconds until a message would be allowed (0 if one is now)."""
        tokens = min(self.burst, self.tokens + (self.clock() - self.last) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class Sockets:
    """The WebSockets open on this instance per client address, at most ``most`` each."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: collections.Counter[str] = collections.Counter()
        #: Per API token: its sockets on this instance, and the one bucket they share.
        self._token_limits: dict[int, tuple[int, RateLimit]] = {}

    @contextlib.contextmanager
    def token_limit(self, token_id: int) -> Iterator[RateLimit]:
        """The message bucket every socket of one API token shares on this instance
        (:data:`RATE`, :data:`BURST`): more sockets don't buy more messages."""
        count, limit = self._token_limits.get(token_id, (0, RateLimit(RATE, BURST)))
        self._token_limits[token_id] = (count + 1, limit)
        try:
            yield limit
        finally:
            count, limit = self._token_limits[token_id]
            if count > 1:
                self._token_limits[token_id] = (count - 1, limit)
            else:
                del self._token_limits[token_id]

    @contextlib.contextmanager
    def opened(self, address: str) -> Iterator[bool]:
        """Whether ``address`` may open one more; counted while the block runs if so."""
        if self.open[address] >= self.most:
            yield False
            return
        self.open[address] += 1
        try:
            yield True
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
