"""Recurring tournaments, an arena's bot fill, a turn-based Swiss and a Swiss with too
few entrants, on a real store and table service."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ghostparty.server.tournaments.events import DAILY_LADDER, HOURLY, Recurring, load_events
from ghostparty.server.tournaments.service import Spec
from ghostparty.server.tournaments.views import view
from ghostparty.tournaments import Arena, from_json
from tests.fixtures.tables import play_humans, run

from .test_tournament_runner import Clock, instance, play_out


def test_recurring_events_are_made_once_however_many_instances_try(tmp_path: Path) -> None:
    clock = Clock()
    url = f"sqlite:///{tmp_path}/games.db"

    async def scenario() -> None:
        (one, t_one, _), (two, t_two, _) = instance(url, clock, 1), instance(url, clock, 2)
        try:
            makers = [Recurring(t, [HOURLY]) for t in (t_one, t_two)]
            assert sorted(await asyncio.gather(*(m.make() for m in makers))) == [0, 1]
            assert await makers[0].make() == 0  # remembered
            listed = await asyncio.to_thread(t_one.store.listing, ("scheduled",))
            assert [(r.recurring, r.starts, r.bots, r.table_size) for r in listed] == [
                ("hourly-hugo-arena", clock.now + timedelta(hours=1), True, 2)
            ]
            clock.now += timedelta(minutes=61)
            assert await makers[1].make() == 1  # the next hour's
        finally:
            for service in (one, two):
                await service.close()
                service.store.close()

    run(scenario)


def test_an_events_file_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            [{"name": "nightly", "kind": "swiss", "rules": "hugo", "table_size": 4, "every_minutes": 1440, "rounds": 5}]
        )
    )
    assert load_events(str(good))[0].rounds == 5
    assert load_events("hourly") == [HOURLY, DAILY_LADDER]
    ladder = tmp_path / "ladder.json"
    event = {"name": "bots", "kind": "ladder", "rules": "hugo", "table_size": 3, "every_minutes": 1440, "rounds": 9}
    ladder.write_text(json.dumps([{**event, "turn_seconds": 5, "house": ["random", "mcts"]}]))
    assert load_events(str(ladder))[0].spec(datetime.now(UTC)).house == ("random", "mcts")
    bad = tmp_path / "bad.json"
    for content, words in [
        ({"name": "x"}, "a JSON list"),
        (
            [{"name": "x", "kind": "arena", "rules": "hugo", "table_size": 9, "every_minutes": 60, "minutes": 30}],
            "table_size",
        ),
        (
            [{"name": "x", "kind": "arena", "rules": "hugo", "table_size": 2, "every_minutes": 1, "minutes": 30}],
            "every_minutes",
        ),
        ([{"name": "x", "colour": "red"}], "expected an object"),
        (
            [
                {
                    "name": "x",
                    "kind": "ladder",
                    "rules": "hugo",
                    "table_size": 3,
                    "every_minutes": 60,
                    "rounds": 5,
                    "house": ["greedy", "chess-engine"],
                }
            ],
            "house: expected different levels",
        ),
        (
            [
                {
                    "name": "x",
                    "kind": "arena",
                    "rules": "hugo",
                    "table_size": 2,
                    "every_minutes": 60,
                    "minutes": 30,
                    "house": ["greedy"],
                }
            ],
            "only a ladder has house bots",
        ),
    ]:
        bad.write_text(json.dumps(content))
        with pytest.raises(ValueError, match=words):
            load_events(str(bad))


def test_bots_fill_a_quiet_arena_and_never_reach_the_podium(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 4)
        try:
            spec = Spec("arena", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=30, minutes=5, bots=True)
            row = await tournaments.create(spec, None)
            assert row is not None
            await tournaments.join(row.id, None, "Ann")
            clock.now += timedelta(minutes=1)
            await runner.step()
            assert await asyncio.to_thread(tournaments.store.games, row.id) == []  # she waits for a person first
            clock.now += timedelta(seconds=31)
            await runner.step()
            games = await asyncio.to_thread(tournaments.store.games, row.id)
            assert len(games) == 1 and sorted(games[0].seats)[0] == "b1"
            table = (await service.table(games[0].table_id))["table"]
            assert sorted(s["kind"] for s in table["seats"]) == ["bot", "human"]
            await play_out(service, tournaments, row.id)
            clock.now += timedelta(minutes=5)
            await runner.step()
            await runner.step()
            final = await tournaments.get(row.id)
            data = view(final, await asyncio.to_thread(tournaments.store.entrants, row.id), games)
            assert final.status == "finished"
            assert [p["name"] for p in data["podium"]] == ["Ann"]  # the bot played, but is never on it
            assert any(s["bot"] for s in data["standings"])
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_a_turn_based_swiss_starts_the_next_round_when_every_table_finished(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 6)
        try:
            spec = Spec("swiss", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=86400, rounds=2)
            row = await tournaments.create(spec, None)
            assert row is not None
            for name in ("Ann", "Bob", "Cyd", "Dot"):
                await tournaments.join(row.id, None, name)
            clock.now += timedelta(minutes=1)
            await runner.step()
            assert len(await asyncio.to_thread(tournaments.store.games, row.id)) == 2
            table = (await service.table((await asyncio.to_thread(tournaments.store.games, row.id))[0].table_id))[
                "table"
            ]
            assert table["turn_seconds"] == 86400
            await play_out(service, tournaments, row.id)
            await runner.step()  # records, and with no pause the next round at once
            await runner.step()
            assert len(await asyncio.to_thread(tournaments.store.games, row.id)) == 4
            await play_out(service, tournaments, row.id)
            await runner.step()
            await runner.step()
            assert (await tournaments.get(row.id)).status == "finished"
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_a_swiss_without_enough_entrants_is_cancelled_with_a_reason(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 8)
        try:
            row = await tournaments.create(Spec("swiss", "hugo", 4, clock.now + timedelta(minutes=1), rounds=3), None)
            assert row is not None
            for name in ("Ann", "Bob", "Cyd"):
                await tournaments.join(row.id, None, name)
            clock.now += timedelta(minutes=1)
            await runner.step()
            final = await tournaments.get(row.id)
            assert final.status == "cancelled" and final.reason is not None and "3 entered" in final.reason
        finally:
            await service.close()
            service.store.close()

    run(scenario)


def test_a_player_who_left_their_seat_to_the_bot_scores_nothing_for_that_game(store_url: str) -> None:
    clock = Clock()

    async def scenario() -> None:
        service, tournaments, runner = instance(store_url, clock, 9)
        try:
            spec = Spec("arena", "hugo", 2, clock.now + timedelta(minutes=1), turn_seconds=30, minutes=10)
            row = await tournaments.create(spec, None)
            assert row is not None
            ann, _ = await tournaments.join(row.id, None, "Ann")
            bob, _ = await tournaments.join(row.id, None, "Bob")
            clock.now += timedelta(minutes=1)
            await runner.step()
            (game,) = await asyncio.to_thread(tournaments.store.games, row.id)
            gone = game.seats.index(ann)
            await service.play.set_away(game.table_id, gone, away=True)  # Ann leaves: the bot plays on
            await play_humans(service, game.table_id, {game.seats.index(bob): game.tokens[bob]})
            await runner.step()
            engine = from_json((await tournaments.get(row.id)).state)
            assert isinstance(engine, Arena)
            record = engine.games[game.game]
            assert record.places is not None and ann in record.left
            points = dict(zip(record.seats, record.points or (), strict=True))
            assert points[ann] == 0 and points[bob] in (1, 3)
            assert not engine.players[ann].active and engine.players[bob].active  # she is paired no more
        finally:
            await service.close()
            service.store.close()

    run(scenario)
