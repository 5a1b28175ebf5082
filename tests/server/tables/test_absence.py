"""Absent players and housekeeping, on a clock the tests move (no sleeping)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.tables.service import TableService
from ghostparty.server.tables.store import SqlTables
from tests.fixtures.tables import HUMAN, bot, close, run


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 4, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def service(url: str, clock: Clock, **options: Any) -> TableService:
    return TableService(SqlTables(url), MemoryPubSub(), bot_delay=0.0, rng=Random(3), clock=clock, **options)


async def seated(svc: TableService, seats: list[Any], **options: Any) -> tuple[str, dict[int, str]]:
    table = await svc.create_table("hugo", seats, 0, **options)
    tokens = {}
    for seat, spec in enumerate(seats):
        if spec.kind == "human":
            tokens[seat], _ = await svc.join(table["id"], seat, f"P{seat}")
    await svc.start(table["id"], next(iter(tokens)), next(iter(tokens.values())))
    return str(table["id"]), tokens


def test_a_person_out_of_time_gets_a_bot_until_they_come_back(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock)
        table_id, tokens = await seated(svc, [HUMAN, HUMAN], turn_seconds=30)
        state = await svc.state(table_id, tokens)
        # 30 s a decision, then a time bank of 60 s (timebank.py)
        assert state["table"]["deadline"] == "2026-11-22T04:01:30Z"
        clock.advance(29)
        await svc.tick()
        assert not (await svc.table(table_id))["table"]["seats"][0]["away"]
        # Seat 0 places in time; seat 1's 30 seconds and 60 s bank start now.
        await svc.act(table_id, 0, tokens[0], state["table"]["version"], {"place": "G21"})
        clock.advance(89)
        await svc.tick()
        assert not (await svc.table(table_id))["table"]["seats"][1]["away"]
        clock.advance(1)
        await svc.tick()
        await svc.idle()
        view = await svc.state(table_id, {1: tokens[1]})
        assert view["table"]["seats"][1]["away"]
        # The bot placed for seat 1, and seat 0 is to move again with a fresh deadline.
        assert view["log"][-1]["seat"] == 1 and view["table"]["to_move"] == 0
        assert view["table"]["deadline"] == "2026-11-22T04:03:29Z"
        # An away seat's legal actions are not offered to its person.
        for _ in range(3):
            state = await svc.state(table_id, tokens)
            await svc.act(table_id, 0, tokens[0], state["table"]["version"], state["legal"][0])
            await svc.idle()
            if (await svc.state(table_id, tokens))["table"]["to_move"] == 0:
                break
        # Seat 1 opens the page again: it plays from its next turn on.
        await svc.connected(table_id, [1])
        await svc.idle()
        state = await svc.state(table_id, tokens)
        seat1 = state["table"]["seats"][1]
        assert not seat1["away"] and not seat1["back"]
        if state["table"]["to_move"] == 1:
            assert state["legal"]
        await close(svc)

    run(scenario)


def test_a_person_who_comes_back_mid_turn_lets_the_bot_finish_it(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock)
        table_id, tokens = await seated(svc, [HUMAN, bot("random")])
        await svc.connected(table_id, [0])
        # Play until seat 0 has rolled a number and must move.
        while True:
            state = await svc.state(table_id, tokens)
            if state["position"]["phase"] == "move" and state["table"]["to_move"] == 0:
                break
            await svc.act(table_id, 0, tokens[0], state["table"]["version"], state["legal"][0])
            await svc.idle()
        svc.bot_delay = 3600.0  # the bot would wait: we look at the seat in between
        await svc.disconnected(table_id, [0])
        clock.advance(59)
        await svc.tick()
        assert not (await svc.table(table_id))["table"]["seats"][0]["away"]
        clock.advance(1)
        await svc.tick()
        view = (await svc.table(table_id))["table"]
        assert view["seats"][0]["away"] and view["to_move"] == 0
        await svc.connected(table_id, [0])  # back, but mid-turn: the bot finishes the move
        view = (await svc.table(table_id))["table"]
        assert view["seats"][0]["away"] and view["seats"][0]["back"]
        version = view["version"]
        state = await svc.state(table_id, tokens)
        assert state["legal"] == []
        try:
            await svc.act(table_id, 0, tokens[0], version, {"pass": True})
        except Exception as error:
            assert getattr(error, "code", None) == "not_your_turn"
        svc.bot_delay = 0.0
        await svc.close()  # cancel the waiting bot, then let it play at once
        svc.keeping.schedule_bots(await svc.core.tables.get(table_id))
        await svc.idle()
        view = (await svc.table(table_id))["table"]
        assert not view["seats"][0]["away"] and not view["seats"][0]["back"]
        assert view["to_move"] == 0 or view["status"] == "over"
        await close(svc)

    run(scenario)


def test_a_table_whose_people_all_left_is_finished_by_bots(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock, away_after=10)
        table_id, _ = await seated(svc, [HUMAN, HUMAN, bot("random")])
        await svc.connected(table_id, [0, 1])
        await svc.disconnected(table_id, [0, 1])
        clock.advance(10)
        await svc.tick()
        await svc.idle()
        done = await svc.table(table_id)
        assert done["table"]["status"] == "over"
        assert [s["away"] for s in done["table"]["seats"]] == [True, True, False]
        await close(svc)

    run(scenario)


def test_pages_closed_after_the_game_cost_nothing_later(sqlite_url: str) -> None:
    """Closing the pages of a finished game is nobody's absence: ``away_after`` later
    the keeper opens no change of the table (it did, once per seat of every game)."""

    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock, away_after=10)
        table_id, tokens = await seated(svc, [HUMAN, HUMAN])
        await svc.connected(table_id, [0, 1])
        while (state := await svc.state(table_id, tokens))["table"]["status"] == "playing":
            mover = state["table"]["to_move"]
            await svc.act(table_id, mover, tokens[mover], state["table"]["version"], state["legal"][0])
        await svc.idle()
        changes: list[str] = []
        change = svc.core.change

        def counted(table: str, *args: Any, **kwargs: Any) -> Any:
            changes.append(table)
            return change(table, *args, **kwargs)

        svc.core.change = counted  # type: ignore[method-assign]
        await svc.disconnected(table_id, [0, 1])
        clock.advance(10)
        await svc.tick()
        await svc.idle()
        assert changes == []
        assert (await svc.table(table_id))["table"]["status"] == "over"
        await close(svc)

    run(scenario)


def test_stale_open_tables_close_and_finished_games_leave_memory(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock, lobby_expiry=3600, finished_linger=600)
        idle = await svc.create_table("hugo", [HUMAN, HUMAN])
        finished = await svc.create_table("hugo", [bot("random"), bot("random")])
        await svc.idle()
        clock.advance(599)
        assert await svc.sweep() == (0, 0)
        clock.advance(1)
        assert await svc.sweep() == (0, 1)  # the finished game leaves memory
        clock.advance(2999)
        assert await svc.sweep() == (0, 0)
        clock.advance(1)
        assert await svc.sweep() == (1, 0)  # nobody started the open table in an hour
        assert (await svc.table(idle["id"]))["table"]["status"] == "closed"
        lobby = await svc.tables()
        assert lobby["open"] == [] and lobby["playing"] == []
        assert [t["id"] for t in lobby["finished"]] == [finished["id"]]
        assert {live.table.id for live in svc.core.tables} == {idle["id"]}  # read back just now, by the check above
        assert (await svc.table(finished["id"]))["table"]["status"] == "over"  # the store kept it
        await close(svc)

    run(scenario)


def test_turn_time_and_the_absent_bot_are_checked(sqlite_url: str) -> None:
    async def scenario() -> list[str]:
        svc = service(sqlite_url, Clock())
        codes = []
        for options in ({"turn_seconds": 2}, {"turn_seconds": 3 * 86400 + 1}, {"absent_bot": "nobody"}):
            try:
                await svc.create_table("hugo", [HUMAN, HUMAN], **options)
            except Exception as error:
                codes.append(getattr(error, "code", ""))
        await close(svc)
        return codes

    assert run(scenario) == ["bad_request"] * 3
