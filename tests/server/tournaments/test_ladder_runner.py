"""The runner with a bot ladder on a real store and table service: a ladder no bot
account entered is cancelled at its start; a deal's rotations are tables with seat 0
first and the deal's die seed, a new seed for the next deal; people are refused."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from ghostparty.server.common.errors import ServiceError
from ghostparty.server.http.edge import http_status
from ghostparty.server.stores import SqlStores
from ghostparty.server.tournaments.service import Spec
from tests.fixtures.tables import run

from .test_tournament_runner import Clock, instance, play_out


def ladder(clock: Clock, deals: int = 2, house: tuple[str, ...] = ("random",)) -> Spec:
    return Spec("ladder", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=5, rounds=deals, house=house)


def test_a_ladder_no_bot_account_entered_is_cancelled(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 5)
        try:
            row = await tournaments.create(ladder(clock, house=("random", "greedy")), None)
            assert row is not None
            with pytest.raises(ServiceError) as refused:  # no bot accounts on this instance: nobody may join
                await tournaments.join(row.id, (3, "Ann"), None)
            assert refused.value.code == "bots_only" and http_status(refused.value.code) == 403
            clock.now += timedelta(minutes=1)
            await runner.step()
            final = await tournaments.get(row.id)
            assert final.status == "cancelled" and final.reason is not None and "no bot account" in final.reason
            assert await asyncio.to_thread(tournaments.store.games, row.id) == []
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_a_deals_rotations_share_its_seed_and_seat_0_starts(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 6)

        robo = SqlStores.on(service.store).accounts.create_player("Robo", f"robo-{store_url[:5]}", "x", clock.now)
        assert robo is not None

        async def is_bot(player_id: int) -> bool:
            return player_id == robo.id

        tournaments.is_bot = is_bot
        try:
            row = await tournaments.create(ladder(clock), None)
            assert row is not None
            with pytest.raises(ServiceError, match="bot accounts"):
                await tournaments.join(row.id, (3, "Ann"), None)
            await tournaments.join(row.id, (robo.id, "Robo"), None)
            clock.now += timedelta(minutes=1)
            seeds = []
            for deal in (1, 2):
                await runner.step()
                await runner.step()
                games = [g for g in await asyncio.to_thread(tournaments.store.games, row.id) if g.game[1] == str(deal)]
                assert sorted(g.game for g in games) == [f"d{deal}g1r0", f"d{deal}g1r1"]
                tables = [(await service.lobby.core.tables.get(g.table_id, fresh=True)).table for g in games]
                assert all(t.first_player == 0 and t.turn_seconds == 5 for t in tables)
                assert tables[0].deal is not None and tables[0].deal == tables[1].deal
                assert tables[0].seed != tables[1].deal  # the deal rolls the die; the table's seed its bots
                assert [g.seats for g in games] in (
                    [["h-random", f"p{robo.id}"], [f"p{robo.id}", "h-random"]],
                    [[f"p{robo.id}", "h-random"], ["h-random", f"p{robo.id}"]],
                )
                seeds.append(tables[0].deal)
                assert await play_out(service, tournaments, row.id) == 2
            assert seeds[0] != seeds[1]
            await runner.step()
            await runner.step()
            assert (await tournaments.get(row.id)).status == "finished"
        finally:
            await service.close()
            service.store.close()

    run(scenario)
