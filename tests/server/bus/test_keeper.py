"""Shards are shared out fairly among live instances and taken over when one stops
(leases.py); the keeper's sweep through a database outage (keeping.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import NoReturn

import pytest
from sqlalchemy.exc import OperationalError

from ghostparty.server.bus.leases import SHARDS, Keeper, MemoryLeases, shard_of
from tests.fixtures.tables import HUMAN, bot, close, run, service


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def settle(*keepers: Keeper) -> None:
    """Let the takeovers the keepers started finish."""
    for keeper in keepers:
        if keeper._taking is not None:
            await keeper._taking


def test_two_instances_share_the_shards_and_one_takes_all_when_the_other_stops() -> None:
    async def scenario() -> None:
        clock = Clock()
        leases = MemoryLeases(clock)
        gained: dict[str, set[int]] = {"a": set(), "b": set()}
        lost: dict[str, set[int]] = {"a": set(), "b": set()}

        def keeper(name: str) -> Keeper:
            async def on_gain(shards: set[int]) -> None:
                gained[name] |= shards

            async def on_loss(shards: set[int]) -> None:
                lost[name] |= shards

            k = Keeper(leases, name, ttl=3.0)
            k.on(gained=on_gain, lost=on_loss)
            return k

        a, b = keeper("a"), keeper("b")
        await a.step()
        await settle(a)
        assert a.held == set(range(SHARDS)) and gained["a"] == a.held and a.ready
        for _ in range(3):  # b appears: a hands back what is beyond its fair share
            clock.now += 1
            await a.step()
            await b.step()
        await settle(a, b)
        assert a.held and b.held and not a.held & b.held
        assert len(a.held) <= SHARDS // 2 and len(b.held) <= SHARDS // 2
        assert lost["a"] == b.held and gained["b"] == b.held
        ids = [f"t{i}" for i in range(200)]
        assert all(a.owns(t) != b.owns(t) for t in ids)
        clock.now += 10  # a stops renewing (killed): its leases expire
        await b.step()
        await settle(b)
        assert b.held == set(range(SHARDS)) and gained["b"] == b.held

    run(scenario)


def test_a_failed_takeover_is_tried_again() -> None:
    async def scenario() -> None:
        clock = Clock()
        attempts: list[set[int]] = []

        async def flaky(shards: set[int]) -> None:
            attempts.append(shards)
            if len(attempts) == 1:
                raise RuntimeError("the store is away")

        keeper = Keeper(MemoryLeases(clock), "a")
        keeper.on(gained=flaky)
        await keeper.step()
        await settle(keeper)
        assert not keeper.ready
        clock.now += 1
        await keeper.step()
        await settle(keeper)
        assert keeper.ready and attempts == [set(range(SHARDS))] * 2

    run(scenario)


def test_alone_an_instance_keeps_everything_always() -> None:
    async def scenario() -> None:
        keeper = Keeper.alone("solo")
        await keeper.start()
        await keeper.close()
        assert all(keeper.owns(f"t{i}") for i in range(100))

    run(scenario)


def test_tables_spread_over_every_shard() -> None:
    counts = [0] * SHARDS
    for i in range(16_000):
        counts[shard_of(f"{i:08x}")] += 1
    assert min(counts) > 800 and max(counts) < 1200
    assert shard_of("abc") == shard_of("abc")


def test_the_sweep_logs_one_line_while_the_store_is_unavailable(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A database outage during the sweep is one warning line, as everywhere else: no
    traceback; the sweep still drops finished games from memory and runs again later."""

    def away(*_args: object, **_kwargs: object) -> NoReturn:
        raise OperationalError("SELECT …", {}, ConnectionRefusedError("connection refused"))

    async def scenario() -> None:
        svc = service(sqlite_url)
        try:
            svc.store.list_tables = away  # type: ignore[method-assign]
            with caplog.at_level(logging.INFO, logger="ghostparty.server"):
                assert await svc.sweep() == (0, 0)
                svc.run_timers(interval=0.01, sweep_every=0.02)
                await asyncio.sleep(0.2)
        finally:
            await close(svc)

    run(scenario)
    records = [r for r in caplog.records if r.name == "ghostparty.server"]
    assert records, "the outage went unmentioned"
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records if r.exc_info]
    sweeps = [r for r in records if "sweep" in r.getMessage()]
    assert len(sweeps) >= 2 and all(r.levelno == logging.WARNING for r in sweeps), [r.getMessage() for r in records]
    assert all("\n" not in r.getMessage() for r in records), [r.getMessage() for r in records]


def test_a_keeper_not_told_of_a_change_finds_it_at_its_next_look(sqlite_url: str) -> None:
    """Instance ``b`` saves a person's move and its notice to the keeper ``a`` is lost
    (as when ``b`` dies between the two): nobody watches, a bot is to move. ``a``'s
    look at the stored versions (``recheck``) reads the game again and its bot plays."""

    async def scenario() -> None:
        a, b = service(sqlite_url, seed=1), service(sqlite_url, seed=2)
        try:
            a.core.tables.shared = b.core.tables.shared = True  # as with Redis between them
            b.core.keep = None  # b keeps nothing: it tells the keeper, and that notice is lost
            table_id = str((await a.create_table("hugo", [HUMAN, bot()], 0))["id"])
            token, _ = await a.join(table_id, 0, "Ann")
            await a.start(table_id, 0, token)
            state = await b.state(table_id, {0: token})
            while state["table"]["to_move"] == 0 and state["table"]["status"] == "playing":
                await b.act(table_id, 0, token, state["table"]["version"], state["legal"][0])
                state = await b.state(table_id, {0: token})
            told = state["table"]["version"]
            assert state["table"]["to_move"] == 1  # the bot's turn, on a's watch
            # A game of people only, also moved on b: behind on a too, but no keeper's work
            people = str((await a.create_table("hugo", [HUMAN, HUMAN], 0))["id"])
            tokens = [(await a.join(people, seat, f"P{seat}"))[0] for seat in (0, 1)]
            await a.start(people, 0, tokens[0])
            moved = await b.state(people, {0: tokens[0]})
            await b.act(people, 0, tokens[0], moved["table"]["version"], moved["legal"][0])
            assert a.store.under_way()[people] == (moved["table"]["version"] + 1, False)
            await a.idle()
            assert a.store.version(table_id) == told  # a was not told: nothing happens
            assert await a.keeping.recheck() == 1
            await a.idle()
            assert a.store.version(table_id) > told  # its bot played
            assert await a.keeping.recheck() == 0  # current now: not read again
            assert a.metrics.registry.get_sample_value("ghostparty_games_rechecked_total") == 1
        finally:
            await close(a)
            await close(b)

    run(scenario)
