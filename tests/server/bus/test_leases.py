"""Leases that expire, and the keeper that shares the shards out with them (leases.py).

The lease contract runs over :class:`MemoryLeases` (on a clock the test moves) and over
:class:`RedisLeases` (real time, short leases; skipped with a message where no Redis
server answers). The keeper runs over one shared :class:`MemoryLeases`, its steps taken
by hand, so that nothing depends on timing.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from random import Random
from typing import Any

import pytest

from ghostparty.server.bus.leases import SHARDS, Keeper, Leases, MemoryLeases, RedisLeases, shard_of
from tests.fixtures.tables import run

from .test_redis import REDIS, reachable

TABLE_IDS = [f"{Random(7).getrandbits(64):016x}{i}" for i in range(400)]


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@cache
def redis_answers() -> bool:
    return run(reachable)


# -- the lease contract ----------------------------------------------------------------


@dataclass
class Kind:
    """One kind of :class:`Leases`: how to make it and how to let time pass."""

    name: str
    ttl: float
    clock: Clock = field(default_factory=Clock)

    @asynccontextmanager
    async def leases(self) -> AsyncIterator[Leases]:
        if self.name == "memory":
            yield MemoryLeases(self.clock)
            return
        prefix = f"gp-test-{uuid.uuid4().hex[:8]}:lease:"
        leases = RedisLeases(REDIS, prefix=prefix)
        try:
            yield leases
        finally:
            client: Any = leases._redis
            keys = [key async for key in client.scan_iter(match=prefix + "*")]
            if keys:
                await client.delete(*keys)
            await leases.close()

    async def wait(self, ttls: float) -> None:
        """Let ``ttls`` lease lengths pass."""
        if self.name == "memory":
            self.clock.now += ttls * self.ttl
        else:
            await asyncio.sleep(ttls * self.ttl)


@pytest.fixture(params=["memory", "redis"])
def kind(request: pytest.FixtureRequest) -> Iterator[Kind]:
    if request.param == "redis" and not redis_answers():
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")
    yield Kind(request.param, ttl=3.0 if request.param == "memory" else 0.4)


def contract(kind: Kind, body: Callable[[Leases, float], Awaitable[None]]) -> None:
    async def scenario() -> None:
        async with kind.leases() as leases:
            await body(leases, kind.ttl)

    run(scenario)


def test_a_free_lease_is_taken_and_refused_to_others_while_held(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        assert await leases.acquire("x", "a", ttl) is True
        assert await leases.acquire("x", "b", ttl) is False
        assert await leases.acquire("x", "a", ttl) is True  # its holder takes it again
        assert await leases.acquire("y", "b", ttl) is True  # another name is another lease
        assert await leases.acquire("y", "a", ttl) is False

    contract(kind, body)


def test_taking_a_held_lease_again_renews_it(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        assert await leases.acquire("x", "a", ttl)
        await kind.wait(0.6)
        assert await leases.acquire("x", "a", ttl)  # renewed: good for a whole ttl from now
        await kind.wait(0.6)  # 1.2 ttl after the first take, 0.6 after the renewal
        assert await leases.acquire("x", "b", ttl) is False
        await kind.wait(0.6)
        assert await leases.acquire("x", "b", ttl) is True

    contract(kind, body)


def test_renew_returns_only_the_names_the_owner_still_holds(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        assert await leases.renew([], "a", ttl) == set()
        assert await leases.acquire("x", "a", ttl) and await leases.acquire("y", "a", ttl)
        assert await leases.acquire("z", "b", ttl)
        assert await leases.renew(["x", "y", "z", "free"], "a", ttl) == {"x", "y"}
        assert await leases.renew(["x", "y", "z"], "b", ttl) == {"z"}
        assert await leases.acquire("free", "b", ttl)  # renew took nothing that was free
        await kind.wait(0.6)
        assert await leases.renew(["x"], "a", ttl) == {"x"}  # x renewed, y not
        await kind.wait(0.6)
        assert await leases.renew(["x", "y"], "a", ttl) == {"x"}  # y expired
        assert await leases.acquire("x", "b", ttl) is False
        assert await leases.acquire("y", "b", ttl) is True
        assert await leases.renew(["y"], "a", ttl) == set()  # b's now

    contract(kind, body)


def test_an_expired_lease_goes_to_another_owner(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        assert await leases.acquire("x", "a", ttl)
        await kind.wait(1.25)
        assert await leases.renew(["x"], "a", ttl) == set()
        assert await leases.acquire("x", "b", ttl) is True
        assert await leases.acquire("x", "a", ttl) is False
        assert await leases.renew(["x"], "b", ttl) == {"x"}

    contract(kind, body)


def test_only_the_holder_releases_a_lease(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        await leases.release("never-taken", "a")  # nothing to give back: no error
        assert await leases.acquire("x", "a", ttl)
        await leases.release("x", "b")  # not b's: left as it is
        assert await leases.acquire("x", "b", ttl) is False
        assert await leases.renew(["x"], "a", ttl) == {"x"}
        await leases.release("x", "a")
        assert await leases.renew(["x"], "a", ttl) == set()
        assert await leases.acquire("x", "b", ttl) is True  # at once, not after the ttl
        await leases.release("x", "a")  # a's release after the lease moved on: b keeps it
        assert await leases.acquire("x", "a", ttl) is False

    contract(kind, body)


def test_alive_counts_the_owners_announced_within_the_ttl(kind: Kind) -> None:
    async def body(leases: Leases, ttl: float) -> None:
        assert await leases.alive("a", ttl) == 1
        assert await leases.alive("b", ttl) == 2
        assert await leases.alive("a", ttl) == 2  # announced twice, counted once
        await kind.wait(0.6)
        assert await leases.alive("a", ttl) == 2  # b is still within its ttl
        await kind.wait(0.6)
        assert await leases.alive("a", ttl) == 1  # b was last heard of 1.2 ttl ago
        assert await leases.alive("c", ttl) == 2
        assert await leases.alive("b", ttl) == 3  # back again

    contract(kind, body)


# -- the keeper --------------------------------------------------------------------------


class Instance:
    """A keeper over shared leases, recording its callbacks."""

    def __init__(self, leases: Leases, name: str, ttl: float = 3.0) -> None:
        self.name = name
        self.gains: list[set[int]] = []
        self.losses: list[set[int]] = []
        self.keeper = Keeper(leases, name, ttl=ttl, gained=self._gained, lost=self._lost)

    async def _gained(self, shards: set[int]) -> None:
        self.gains.append(set(shards))

    async def _lost(self, shards: set[int]) -> None:
        self.losses.append(set(shards))

    @property
    def gained(self) -> set[int]:
        return set().union(*self.gains)

    @property
    def lost(self) -> set[int]:
        return set().union(*self.losses)

    async def step(self) -> None:
        await self.keeper.step()
        await settle(self.keeper)


async def settle(*keepers: Keeper) -> None:
    """Let the takeovers the keepers started (in tasks of their own) finish, or end
    cancelled (a loss during a takeover cancels it)."""
    for _ in range(3):
        for keeper in keepers:
            if keeper._taking is not None and not keeper._taking.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await keeper._taking
        await asyncio.sleep(0)


async def rounds(clock: Clock, instances: list[Instance], count: int, every: float = 1.0) -> None:
    """``count`` rounds of every instance stepping, ``every`` seconds apart (ttl 3)."""
    for _ in range(count):
        clock.now += every
        for instance in instances:
            await instance.step()


def assert_shared_out(instances: list[Instance]) -> None:
    """Every shard kept by exactly one instance, none beyond its fair share."""
    share = math.ceil(SHARDS / len(instances))
    held = [instance.keeper.held for instance in instances]
    for one in held:
        assert 0 < len(one) <= share, held
    assert sum(len(one) for one in held) == SHARDS and set().union(*held) == set(range(SHARDS)), held
    for table_id in TABLE_IDS:
        assert sum(instance.keeper.owns(table_id) for instance in instances) == 1, table_id


def test_one_instance_alone_takes_every_shard() -> None:
    async def scenario() -> None:
        clock = Clock()
        a = Instance(MemoryLeases(clock), "a")
        assert not any(a.keeper.owns(t) for t in TABLE_IDS)
        await a.step()
        assert a.keeper.held == set(range(SHARDS))
        assert a.gains == [set(range(SHARDS))] and a.losses == []
        assert a.keeper.ready
        assert all(a.keeper.owns(t) for t in TABLE_IDS)
        await rounds(clock, [a], 5)  # renewing changes nothing
        assert a.keeper.held == set(range(SHARDS)) and len(a.gains) == 1 and a.losses == []

    run(scenario)


def test_a_second_instance_gets_a_fair_half_and_no_shard_is_kept_twice() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        a = Instance(leases, "a")
        await a.step()
        b = Instance(leases, "b")
        await rounds(clock, [b, a], 3)
        assert_shared_out([a, b])
        assert a.lost == b.keeper.held and a.keeper.held == set(range(SHARDS)) - a.lost
        assert b.gained == b.keeper.held and b.losses == []
        assert a.gains == [set(range(SHARDS))]  # a gained nothing back
        assert a.keeper.ready and b.keeper.ready
        before = (set(a.keeper.held), set(b.keeper.held), len(a.losses), len(b.gains))
        await rounds(clock, [a, b], 6)  # settled: no more moves
        assert (a.keeper.held, b.keeper.held, len(a.losses), len(b.gains)) == before

    run(scenario)


def test_three_instances_share_the_shards_fairly() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        instances = [Instance(leases, name) for name in "abc"]
        await instances[0].step()
        await rounds(clock, instances[1:], 1)
        await rounds(clock, instances, 4)
        assert_shared_out(instances)
        for instance in instances:
            assert instance.gained - instance.lost == instance.keeper.held

    run(scenario)


def test_when_an_instance_stops_the_other_takes_every_shard_after_the_ttl() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        a, b = Instance(leases, "a"), Instance(leases, "b")
        await rounds(clock, [a, b], 4)
        assert_shared_out([a, b])
        a_had, b_had = set(a.keeper.held), set(b.keeper.held)
        b_gains = len(b.gains)
        # a stops (killed, cut off); b steps on every ttl / 3 while the ttl passes
        await rounds(clock, [b], 2)
        assert b.keeper.held == b_had  # a's leases have not expired yet
        await rounds(clock, [b], 3)  # now they have: within one or two steps b has all
        assert b.keeper.held == set(range(SHARDS))
        assert set().union(*b.gains[b_gains:]) == a_had and b.losses == []
        assert b.keeper.ready and all(b.keeper.owns(t) for t in TABLE_IDS)
        # a comes back: it finds its leases gone, says so, and gets a fair share again
        await rounds(clock, [a, b], 4)
        assert a_had in a.losses
        assert_shared_out([a, b])

    run(scenario)


def test_a_failed_takeover_is_tried_again_until_the_instance_is_ready() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        attempts: list[set[int]] = []

        async def flaky(shards: set[int]) -> None:
            attempts.append(set(shards))
            if len(attempts) < 3:
                raise RuntimeError("the store is away")

        keeper = Keeper(leases, "a", ttl=3.0, gained=flaky)
        await keeper.step()
        await settle(keeper)
        assert keeper.held == set(range(SHARDS)) and not keeper.ready
        clock.now += 1
        await keeper.step()
        await settle(keeper)
        assert not keeper.ready and len(attempts) == 2
        clock.now += 1
        await keeper.step()
        await settle(keeper)
        assert keeper.ready and attempts == [set(range(SHARDS))] * 3
        clock.now += 1
        await keeper.step()
        await settle(keeper)
        assert len(attempts) == 3  # ready: not taken over again

    run(scenario)


def test_a_failed_takeover_is_tried_again_only_for_the_shards_still_held() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        attempts: list[set[int]] = []

        async def flaky(shards: set[int]) -> None:
            attempts.append(set(shards))
            if len(attempts) == 1:
                raise RuntimeError("the store is away")

        a = Keeper(leases, "a", ttl=3.0, gained=flaky)
        await a.step()
        await settle(a)
        assert not a.ready
        b = Instance(leases, "b")
        await rounds(clock, [b], 1)
        clock.now += 1
        await a.step()  # hands back half, then tries again for the rest
        await settle(a)
        assert a.ready and attempts[1] == a.held and len(a.held) == SHARDS // 2

    run(scenario)


def test_start_takes_a_share_at_once_and_close_gives_it_back() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        gains: list[set[int]] = []

        async def gained(shards: set[int]) -> None:
            gains.append(set(shards))

        keeper = Keeper(leases, "a", ttl=60.0)  # the loop's first step is 20 s away
        keeper.on(gained=gained)
        await keeper.start()
        await settle(keeper)
        assert keeper.held == set(range(SHARDS)) and gains == [set(range(SHARDS))] and keeper.ready
        await keeper.close()
        assert keeper.held == set() and not any(keeper.owns(t) for t in TABLE_IDS)
        for shard in range(SHARDS):  # released: another owner gets them at once
            assert await leases.acquire(f"shard:{shard}", "b", 60.0)

    run(scenario)


def test_an_instance_alone_keeps_every_table_always() -> None:
    async def scenario() -> None:
        keeper = Keeper.alone("solo")
        assert keeper.held == set(range(SHARDS)) and keeper.ready
        assert all(keeper.owns(t) for t in TABLE_IDS)
        await keeper.start()
        assert keeper._task is None  # no loop to renew anything
        assert all(keeper.owns(t) for t in TABLE_IDS)
        await keeper.close()
        assert keeper.held == set(range(SHARDS))
        assert all(keeper.owns(t) for t in TABLE_IDS)

    run(scenario)


def test_shard_of_is_stable_and_spreads_ids_over_every_shard() -> None:
    # the same in every process (a salted hash() would differ between instances)
    assert [shard_of(t) for t in ("abc", "t0", "table-1", "00000000")] == [2, 1, 1, 3]
    rng = Random(20261125)
    ids = [uuid.UUID(int=rng.getrandbits(128), version=4).hex for _ in range(10_000)]
    counts = [0] * SHARDS
    for table_id in ids:
        shard = shard_of(table_id)
        assert 0 <= shard < SHARDS and shard_of(table_id) == shard
        counts[shard] += 1
    assert min(counts) >= 400 and max(counts) <= 850, counts


# -- a takeover still running when its shards leave ----------------------------------------


class Slow:
    """A ``gained`` callback that waits until let go the first time, and a ``lost`` one;
    both write what happened to ``events``."""

    def __init__(self) -> None:
        self.events: list[tuple[str, frozenset[int]]] = []
        self.go = asyncio.Event()
        self.started = asyncio.Event()

    async def gained(self, shards: set[int]) -> None:
        self.events.append(("gain starts", frozenset(shards)))
        self.started.set()
        await self.go.wait()
        self.events.append(("gain ends", frozenset(shards)))

    async def lost(self, shards: set[int]) -> None:
        self.events.append(("lost", frozenset(shards)))

    def taken_over(self) -> set[int]:
        """The shards whose last takeover began after they were last lost and ended."""
        kept: set[int] = set()
        starts: list[frozenset[int]] = []
        lost_since: set[int] = set()
        for what, shards in self.events:
            if what == "gain starts":
                starts.append(shards)
                lost_since = set()
            elif what == "lost":
                kept -= shards
                lost_since |= shards
            else:
                kept |= shards - lost_since
        return kept

    def late(self) -> set[int]:
        """The shards whose takeover went on to its end after they were lost during it."""
        late: set[int] = set()
        lost_since: set[int] = set()
        for what, shards in self.events:
            if what == "gain starts":
                lost_since = set()
            elif what == "lost":
                lost_since |= shards
            else:
                late |= shards & lost_since
        return late


def test_shards_lost_and_regained_during_a_takeover_are_taken_over_again() -> None:
    async def scenario() -> None:
        clock = Clock()
        slow = Slow()
        keeper = Keeper(MemoryLeases(clock), "a", ttl=3.0, gained=slow.gained, lost=slow.lost)
        await keeper.step()
        await slow.started.wait()
        clock.now += 4  # a stall longer than the ttl: every lease lapsed
        await keeper.step()  # lost, then taken again at once
        assert ("lost", frozenset(range(SHARDS))) in slow.events
        assert keeper.held == set(range(SHARDS)) and not keeper.ready
        slow.go.set()
        for _ in range(3):
            await settle(keeper)
            clock.now += 1
            await keeper.step()
        await settle(keeper)
        assert keeper.ready
        assert slow.taken_over() == keeper.held

    run(scenario)


@pytest.mark.xfail(
    strict=True,
    reason="Keeper: a takeover under way runs on to its end for shards handed back during it "
    "(cancelling it made the cluster test flaky; Keeping.gained skips shards no longer held)",
)
def test_shards_handed_back_during_a_takeover_are_not_taken_over_after_their_loss() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        slow = Slow()
        a = Keeper(leases, "a", ttl=3.0, gained=slow.gained, lost=slow.lost)
        await a.step()
        await slow.started.wait()
        b = Instance(leases, "b")
        await rounds(clock, [b], 1)
        clock.now += 1
        await a.step()  # b is alive: a hands back half while still taking over all
        handed = set(range(SHARDS)) - a.held
        assert handed and ("lost", frozenset(handed)) in slow.events
        slow.go.set()
        await settle(a)
        for _ in range(2):
            await rounds(clock, [b], 1)
            clock.now += 1
            await a.step()
            await settle(a)
        assert a.ready and slow.taken_over() == a.held
        assert slow.late() == set()

    run(scenario)


# -- Redis away ------------------------------------------------------------------------------


class Outage:
    """:class:`Leases` that fail while ``down`` (Redis away); :meth:`restart` forgets
    every lease, as a Redis server restarted without persistence does."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.inner = MemoryLeases(clock)
        self.down = False

    def restart(self) -> None:
        self.inner = MemoryLeases(self.clock)

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    async def acquire(self, name: str, owner: str, ttl: float) -> bool:
        self._check()
        return await self.inner.acquire(name, owner, ttl)

    async def renew(self, names: Iterable[str], owner: str, ttl: float) -> set[str]:
        self._check()
        return await self.inner.renew(names, owner, ttl)

    async def release(self, name: str, owner: str) -> None:
        self._check()
        await self.inner.release(name, owner)

    async def alive(self, owner: str, ttl: float) -> int:
        self._check()
        return await self.inner.alive(owner, ttl)

    async def close(self) -> None:
        await self.inner.close()


def outage_pair(clock: Clock, leases: Outage) -> tuple[Instance, Instance]:
    a, b = Instance(leases, "a"), Instance(leases, "b")
    for instance in (a, b):
        instance.keeper._clock = clock
    return a, b


async def ticks(clock: Clock, instances: list[Instance], count: int) -> None:
    """``count`` rounds of every instance's :meth:`Keeper.tick`, a second apart."""
    for _ in range(count):
        clock.now += 1
        for instance in instances:
            await instance.keeper.tick()
            await settle(instance.keeper)


def test_shards_are_kept_through_a_redis_restart_and_their_games_read_again() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = Outage(clock)
        a, b = outage_pair(clock, leases)
        await ticks(clock, [a, b], 4)
        assert_shared_out([a, b])
        held = {"a": set(a.keeper.held), "b": set(b.keeper.held)}
        gains = {"a": len(a.gains), "b": len(b.gains)}
        losses = len(a.losses) + len(b.losses)  # a handed half to b
        leases.down = True
        await ticks(clock, [a, b], 10)  # 10 s away, over three ttls: every shard still kept
        assert a.keeper.held == held["a"] and b.keeper.held == held["b"]
        assert len(a.losses) + len(b.losses) == losses and b.keeper.outage_since is not None
        leases.restart()  # back, empty: a steps first and must not take b's free shards
        leases.down = False
        await ticks(clock, [a, b], 1)
        assert a.keeper.held == held["a"] and b.keeper.held == held["b"]
        assert a.keeper.outage_since is None and a.keeper.ready
        # the shards' games were read again (notices sent meanwhile were lost)
        assert a.gains[gains["a"] :] == [held["a"]] and b.gains[gains["b"] :] == [held["b"]]
        await ticks(clock, [a, b], 6)
        assert a.keeper.held == held["a"] and b.keeper.held == held["b"]
        assert len(a.losses) + len(b.losses) == losses
        assert_shared_out([a, b])

    run(scenario)


def test_an_outage_longer_than_the_hold_lets_go_of_every_shard() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = Outage(clock)
        a, b = outage_pair(clock, leases)
        await ticks(clock, [a, b], 4)
        held, losses = set(a.keeper.held), len(a.losses)
        leases.down = True
        await ticks(clock, [a, b], int(a.keeper.outage_hold) - 1)
        assert a.keeper.held == held and len(a.losses) == losses
        await ticks(clock, [a, b], 2)
        assert a.keeper.held == set() and b.keeper.held == set() and a.losses[losses:] == [held]
        leases.down = False
        await ticks(clock, [a, b], 8)  # back: the shards are shared out again
        assert_shared_out([a, b])

    run(scenario)


def test_after_an_outage_a_shard_another_instance_took_is_let_go() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = Outage(clock)
        a, b = outage_pair(clock, leases)
        await ticks(clock, [a, b], 4)
        held, losses = set(a.keeper.held), len(a.losses)
        # only a loses Redis: b takes a's shards once their leases expire …
        a.keeper.leases = Outage(clock)
        a.keeper.leases.down = True  # type: ignore[attr-defined]
        await ticks(clock, [a, b], 6)
        assert a.keeper.held == held and held <= b.keeper.held  # both keep them: the store fences
        a.keeper.leases = leases  # … and a, back, lets them go
        await ticks(clock, [a, b], 1)
        assert a.losses[losses:] == [held] and not a.keeper.held & b.keeper.held
        await ticks(clock, [a, b], 8)
        assert_shared_out([a, b])

    run(scenario)
