"""Quick-match across instances and over time: one queue in the database, each player
seated once however many instances form tables at once; a closed page leaves."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from random import Random

from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.quickmatch.service import STALE, QuickMatch
from ghostparty.server.stores import SqlStores
from ghostparty.server.tables.service import TableService
from tests.fixtures.tables import run


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def no_rating(player_id: int, rules: str) -> int:
    return 1500


def instance(url: str, clock: Clock, seed: int) -> tuple[TableService, QuickMatch]:
    stores = SqlStores.open(url)
    service = TableService(stores.tables, MemoryPubSub(), bot_delay=0.0, rng=Random(seed), clock=clock)
    return service, QuickMatch(stores.queue, service.lobby, rating=no_rating, clock=clock)


def test_two_instances_forming_at_once_seat_each_player_once(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        (one, quick_one), (two, quick_two) = instance(store_url, clock, 1), instance(store_url, clock, 2)
        try:
            tickets = []
            for i in range(12):
                # the queue without forming: join through the store, as a page on any instance would
                ticket = await quick_one.join("hugo", 2, False, None, name=f"P{i}") if i == 0 else None
                if ticket is None:
                    ticket = await asyncio.to_thread(_add_quietly, quick_two, f"P{i}", clock)
                tickets.append(ticket)
            for _ in range(3):
                await asyncio.gather(quick_one.form(), quick_two.form())
            seats = [await quick_one.look(t) for t in tickets]
            assert all(s["status"] == "seated" for s in seats)
            places = {(s["table"], s["seat"]) for s in seats}
            assert len(places) == 12  # nobody twice, no seat twice
            tables = {s["table"] for s in seats}
            assert len(tables) == 6
            # both proposed the same tables; the one that came second gave its copies up
            given_up = await asyncio.to_thread(one.store.list_tables, "closed")
            assert 1 <= len(given_up) <= 6
            for table_id in tables:
                table = (await one.table(table_id))["table"]
                assert table["status"] == "playing" and sorted(s["seat"] for s in table["seats"]) == [0, 1]
        finally:
            for service in (one, two):
                await service.close()
                service.store.close()

    run(scenario)


def _add_quietly(quick: QuickMatch, name: str, clock: Clock) -> str:
    """A ticket put in the queue without forming (as if another instance took it)."""
    import secrets

    from ghostparty.server.quickmatch.matching import Waiting
    from ghostparty.server.quickmatch.service import ticket_hash

    ticket = secrets.token_urlsafe(24)
    quick.queue.add(ticket_hash(ticket), name, Waiting(ticket_hash(ticket), "hugo", 2, False, None, clock()))
    return ticket


def test_a_page_that_stops_asking_leaves_the_queue(sqlite_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, quick = instance(sqlite_url, clock, 1)
        try:
            ann = await quick.join("hugo", 2, False, None, name="Ann")
            clock.now += timedelta(seconds=STALE - 1)
            assert (await quick.look(ann))["waited"] == STALE - 1  # asking keeps her in
            clock.now += timedelta(seconds=STALE + 1)  # her page closed
            bob = await quick.join("hugo", 2, False, None, name="Bob")
            assert (await quick.look(bob))["status"] == "waiting"
            assert await quick.waiting() == [{"rules": "hugo", "players": 2, "rated": False, "count": 1}]
        finally:
            await service.close()
            service.store.close()

    run(scenario)
