"""The tournament runner on a real store and table service: a Swiss of 9 at 4-player
tables over 3 rounds (byes), a 5-player arena over 10 minutes of test clock, and two
runners racing over one tournament seating nobody twice and counting no game twice."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from random import Random

from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.stores import SqlStores
from ghostparty.server.tables.service import TableService
from ghostparty.server.tournaments.runner import TournamentRunner
from ghostparty.server.tournaments.service import Spec, Tournaments
from ghostparty.server.tournaments.views import view
from ghostparty.tournaments import PLACE_POINTS, Arena, from_json
from tests.fixtures.tables import play_humans, run


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def rating(player_id: int, rules: str) -> int:
    return 1500


def instance(url: str, clock: Clock, seed: int) -> tuple[TableService, Tournaments, TournamentRunner]:
    stores = SqlStores.open(url)
    service = TableService(stores.tables, MemoryPubSub(), bot_delay=0.0, rng=Random(seed), clock=clock)
    tournaments = Tournaments(
        stores.tournaments, service.lobby, service.pubsub, rating=rating, clock=clock, rng=Random(seed)
    )
    return service, tournaments, TournamentRunner(tournaments)


async def play_out(service: TableService, tournaments: Tournaments, tournament_id: str) -> int:
    """Play every started, unfinished game of the tournament to its end; how many."""
    played = 0
    for game in await asyncio.to_thread(tournaments.store.games, tournament_id):
        table = (await service.table(game.table_id))["table"]
        if table["status"] != "playing":
            continue
        tokens = {game.seats.index(e): t for e, t in game.tokens.items()}
        await play_humans(service, game.table_id, tokens)
        played += 1
    return played


def test_a_three_round_swiss_for_nine_at_four_player_tables(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 3)
        try:
            spec = Spec("swiss", "hugo", 4, clock.now + timedelta(minutes=5), turn_seconds=30, rounds=3)
            row = await tournaments.create(spec, None)
            assert row is not None
            for i in range(9):
                await tournaments.join(row.id, None, f"P{i}")
            await runner.step()
            assert (await tournaments.get(row.id)).status == "scheduled"
            clock.now += timedelta(minutes=5)
            for number in (1, 2, 3):
                await runner.step()
                games = await asyncio.to_thread(tournaments.store.games, row.id)
                assert len(games) == 2 * number  # two 4-player tables a round, one bye
                seated = [e for g in games[-2:] for e in g.seats]
                assert len(seated) == len(set(seated)) == 8
                assert await play_out(service, tournaments, row.id) == 2
                await runner.step()  # records the results
                await runner.step()  # no round before the pause is over
                assert len(await asyncio.to_thread(tournaments.store.games, row.id)) == 2 * number
                clock.now += timedelta(seconds=31)
            await runner.step()
            final = await tournaments.get(row.id)
            assert final.status == "finished"
            data = view(
                final,
                await asyncio.to_thread(tournaments.store.entrants, row.id),
                await asyncio.to_thread(tournaments.store.games, row.id),
            )
            # the standings, recomputed from the stored tables' final scores
            expected: Counter[str] = Counter()
            for game in data["games"]:
                table = (await service.table(game["table"]))["table"]
                assert table["status"] == "over"
                assert game["finished"] and len(game["places"]) == 4
                for name, place in zip(game["seats"], game["places"], strict=True):
                    tied = [p for p in game["places"] if p == place]
                    share = Fraction(sum(PLACE_POINTS[4][place - 1 : place - 1 + len(tied)]), len(tied))
                    expected[name] += share
            bye_names = [n for b in data["byes"] for n in b["names"]]
            assert len(bye_names) == 3 == len(set(bye_names))  # a bye a round, never twice
            for name in bye_names:
                expected[name] += Fraction(11, 4)
            shown = {s["name"]: Fraction(str(s["points"])) for s in data["standings"]}
            assert shown == dict(expected) and len(shown) == 9
            points = [Fraction(str(s["points"])) for s in data["standings"]]
            assert points == sorted(points, reverse=True)
            assert [p["name"] for p in data["podium"]] == [s["name"] for s in data["standings"][:3]]
            assert sum(s["games"] for s in data["standings"]) == 24
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_an_arena_of_five_over_ten_minutes(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 5)
        try:
            spec = Spec("arena", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=30, minutes=10)
            row = await tournaments.create(spec, None)
            assert row is not None
            for i in range(5):
                await tournaments.join(row.id, None, f"P{i}")
            clock.now += timedelta(minutes=1)
            while clock.now < row.starts + timedelta(minutes=10):
                await runner.step()
                await play_out(service, tournaments, row.id)
                await runner.step()
                clock.now += timedelta(seconds=20)
            await runner.step()
            assert (await tournaments.get(row.id)).status == "running"  # the time is up, a game is under way
            assert await play_out(service, tournaments, row.id) >= 1  # it finishes and counts
            started = len(await asyncio.to_thread(tournaments.store.games, row.id))
            await runner.step()
            assert len(await asyncio.to_thread(tournaments.store.games, row.id)) == started  # no new game
            final = await tournaments.get(row.id)
            assert final.status == "finished"
            games = await asyncio.to_thread(tournaments.store.games, row.id)
            data = view(final, await asyncio.to_thread(tournaments.store.entrants, row.id), games)
            assert all(s["games"] >= 2 for s in data["standings"])
            assert all(g.recorded for g in games)
            assert len(data["podium"]) == 3
            total = sum(Fraction(str(s["points"])) for s in data["standings"])
            assert total == 4 * len(games)  # 3 + 1 a game, each counted once
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_two_runners_racing_seat_nobody_twice_and_count_no_game_twice(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        (one, t_one, r_one), (two, t_two, r_two) = instance(store_url, clock, 1), instance(store_url, clock, 2)
        try:
            spec = Spec("arena", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=30, minutes=10)
            row = await t_one.create(spec, None)
            assert row is not None
            for i in range(8):
                await t_two.join(row.id, None, f"P{i}")
            clock.now += timedelta(minutes=1)
            for _ in range(4):
                await asyncio.gather(r_one.step(), r_two.step())
                await play_out(one, t_one, row.id)
                await asyncio.gather(r_one.step(), r_two.step())
                clock.now += timedelta(seconds=20)
            games = await asyncio.to_thread(t_one.store.games, row.id)
            data = view(await t_one.get(row.id), await asyncio.to_thread(t_one.store.entrants, row.id), games)
            assert sum(s["games"] for s in data["standings"]) == 2 * sum(1 for g in data["games"] if g["finished"])
            engine = from_json((await t_one.get(row.id)).state)
            assert isinstance(engine, Arena)
            assert {g.game: tuple(g.seats) for g in games} == {g.id: g.seats for g in engine.games.values()}
            for player in engine.players:  # each one's games one after another, never two at once
                theirs = sorted((g for g in engine.games.values() if player in g.seats), key=lambda g: int(g.id[1:]))
                for before, after in itertools.pairwise(theirs):
                    assert before.finished_at is not None and before.finished_at <= after.started_at
            playing = await asyncio.to_thread(one.store.list_tables, "playing")
            at = Counter(s.name for t in playing for s in t.seats)
            assert max(at.values(), default=1) == 1  # nobody at two games at once
        finally:
            for service in (one, two):
                await service.close()
                service.store.close()

    run(scenario)


def test_an_entrant_banned_from_rated_play_is_withdrawn_before_the_next_pairing(store_url: str) -> None:
    """A rated Swiss: Bob, banned by a moderator after he entered, is paired no more; the
    others play on (the lobby's one check, Lobby.may_sit, holds for the runner too)."""
    from ghostparty.server.common.errors import ErrorCode, ServiceError

    clock = Clock()
    banned: set[int] = set()

    async def refuse(player_id: int) -> None:
        if player_id in banned:
            raise ServiceError(ErrorCode.RATED_BANNED, "banned from rated games for 7 days: dodging games")

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 5)
        service.lobby.rated_refusal = refuse
        accounts = SqlStores.on(service.core.tables.store).accounts
        try:
            spec = Spec("swiss", "hugo", 2, clock.now + timedelta(minutes=5), turn_seconds=30, rounds=2, rated=True)
            row = await tournaments.create(spec, None)
            assert row is not None
            ids = {}
            for name in ("Ann", "Bob", "Cyd", "Dan", "Eve"):
                player = accounts.create_player(name, name.lower(), "x", clock.now)
                assert player is not None
                ids[name] = player.id
                await tournaments.join(row.id, (player.id, name), None)
            banned.add(ids["Bob"])
            clock.now += timedelta(minutes=5)
            await runner.step()
            games = await asyncio.to_thread(tournaments.store.games, row.id)
            seated = [e for g in games for e in g.seats]
            assert len(games) == 2 and f"p{ids['Bob']}" not in seated, seated
            engine = from_json((await tournaments.get(row.id)).state)
            assert not engine.players[f"p{ids['Bob']}"].active
            assert sum(1 for p in engine.players.values() if p.active) == 4
        finally:
            await service.close()
            service.store.close()

    run(scenario)
