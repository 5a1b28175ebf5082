"""What an operator watches: the server's metrics, in Prometheus's text format.

:class:`Metrics` holds one instance's counters and histograms (its own registry, so
several applications in one process — the tests — never share them). The service's
parts count what happens as it happens (an action applied costs a counter and a
histogram observation, a few microseconds; nothing reads the store for it); what needs
the store or a sum over memory is read when ``/metrics`` is scraped (:meth:`scrape`),
and what needs the store at most every :data:`STORE_EVERY` seconds however often it is
scraped. docs/PROTOCOL.md lists every metric; docs/operating.md's "What to watch" says
what to alert on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest

#: Seconds between two reads of the store's counts (tables by status, the queue).
STORE_EVERY = 10.0
#: Seconds between two looks at the event loop's lag.
LAG_EVERY = 0.5

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_LAG = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """One instance's metrics; :meth:`render` writes them for Prometheus."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=registry)  # CPU seconds, memory, open files
        actions = Counter("ghostparty_actions", "Actions applied, by whom (person or bot).", ["by"], registry=registry)
        latency = Histogram(
            "ghostparty_action_seconds",
            "Seconds from an action's arrival (a bot's: its choice) to its being saved and told.",
            ["by"],
            buckets=_LATENCY,
            registry=registry,
        )
        # Children bound once: a label lookup per action would cost more than the count.
        self.person_actions, self.bot_actions = actions.labels("person"), actions.labels("bot")
        self.person_latency, self.bot_latency = latency.labels("person"), latency.labels("bot")
        self.refused = Counter(
            "ghostparty_actions_refused", "Actions refused, by error code.", ["code"], registry=registry
        )
        self.bot_think = Histogram(
            "ghostparty_bot_think_seconds",
            "Seconds a bot thought about an action.",
            buckets=_LATENCY,
            registry=registry,
        )
        self.timer_lag = Histogram(
            "ghostparty_timer_lag_seconds",
            "Seconds between a turn's deadline and its being acted on (a bot taking over).",
            buckets=_LAG,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "ghostparty_event_loop_lag_seconds",
            f"Seconds the event loop was late in waking a {LAG_EVERY} s sleep.",
            buckets=_LAG,
            registry=registry,
        )
        self.store_errors = Counter(
            "ghostparty_store_errors", "Store calls that failed, by kind (read or save).", ["op"], registry=registry
        )
        self.redis_errors = Counter(
            "ghostparty_redis_errors",
            "Pub/sub publishes that failed (Redis away), by what (update or notice).",
            ["what"],
            registry=registry,
        )
        self.caught_up = Counter(
            "ghostparty_clients_caught_up",
            "Clients sent the whole state because an update of their table never came "
            "(an instance died between saving and publishing it, or Redis dropped it).",
            registry=registry,
        )
        self.kept_again = Counter(
            "ghostparty_games_rechecked",
            "Games under way read again by their keeper because it was never told of their "
            "last change (an instance died between saving it and telling the keeper).",
            registry=registry,
        )
        self.read_errors, self.save_errors = self.store_errors.labels("read"), self.store_errors.labels("save")
        gauge: Callable[..., Gauge] = lambda name, text, labels=(): Gauge(  # noqa: E731
            name, text, labels, registry=registry
        )
        self.sockets = gauge("ghostparty_sockets_open", "WebSockets open on this instance.")
        self.tables = gauge("ghostparty_tables", "Tables in the store, by status.", ["status"])
        self.in_memory = gauge("ghostparty_tables_in_memory", "Tables kept rebuilt in this instance's memory.")
        self.bot_tasks = gauge("ghostparty_bot_tasks", "Tables whose bots are playing on this instance now.")
        self.timers = gauge("ghostparty_turn_timers", "Turn deadlines this instance watches.")
        self.waiting = gauge("ghostparty_quickmatch_waiting", "Tickets waiting in the quick-match queue.")
        self.shards = gauge("ghostparty_shards_held", "Shards whose lease this instance holds (of 16).")
        self.shard = gauge("ghostparty_shard_held", "1 if this instance holds the shard's lease.", ["shard"])
        self.outage = gauge(
            "ghostparty_leases_outage_seconds", "Seconds the shards' leases have been failing (Redis away); 0 if not."
        )
        self.info = gauge("ghostparty_instance", "This instance, by name (always 1).", ["name"])
        self._store_read = -STORE_EVERY
        self._reading: asyncio.Lock | None = None

    async def scrape(
        self, instant: Mapping[str, float], counts: Callable[[], Awaitable[tuple[Mapping[str, int], int | None]]]
    ) -> None:
        """Set the gauges: ``instant`` maps a gauge's attribute name to its value now;
        ``counts()`` reads the store's tables by status and the queue's length (``None``
        without a queue), called at most every :data:`STORE_EVERY` seconds, one at a time."""
        for name, value in instant.items():
            getattr(self, name).set(value)
        if self._reading is None:
            self._reading = asyncio.Lock()
        async with self._reading:
            if time.monotonic() - self._store_read < STORE_EVERY:
                return
            try:
                by_status, waiting = await counts()
            except Exception:  # counted where the store failed; the gauges keep their last values
                return
            self._store_read = time.monotonic()
        for status in ("open", "playing", "over", "closed"):
            self.tables.labels(status).set(by_status.get(status, 0))
        if waiting is not None:
            self.waiting.set(waiting)

    def held(self, shards: set[int], total: int) -> None:
        """The shards this instance holds now."""
        self.shards.set(len(shards))
        for shard in range(total):
            self.shard.labels(str(shard)).set(1 if shard in shards else 0)

    def render(self) -> bytes:
        """Every metric in Prometheus's text format (version 0.0.4)."""
        return generate_latest(self.registry)

    async def watch_loop(self, every: float = LAG_EVERY) -> None:
        """Observe how late the event loop wakes from a sleep of ``every`` seconds, forever."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                before = loop.time()
                await asyncio.sleep(every)
                self.loop_lag.observe(max(0.0, loop.time() - before - every))
