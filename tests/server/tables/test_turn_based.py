"""Turn-based tables: a game over days, on a clock the tests move (no sleeping)."""

from __future__ import annotations

from tests.fixtures.tables import HUMAN, bot, close, run

from .test_absence import Clock, seated, service

DAY = 86400


def test_closing_the_page_of_a_turn_based_game_keeps_the_seat(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock, away_after=60)
        table_id, _tokens = await seated(svc, [HUMAN, bot("random")], turn_seconds=DAY)
        view = (await svc.table(table_id))["table"]
        assert view["turn_based"] and view["deadline"] == "2026-11-23T04:00:00Z"
        await svc.connected(table_id, [0])
        await svc.disconnected(table_id, [0])
        clock.advance(6 * 3600)  # away from the page for hours, within the day
        await svc.tick()
        await svc.idle()
        table = (await svc.table(table_id))["table"]
        assert not table["seats"][0]["away"] and table["to_move"] == 0
        await close(svc)

    run(scenario)


def test_a_turn_based_deadline_survives_a_restart_and_hands_the_turn_to_the_bot(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        first = service(sqlite_url, clock)
        table_id, tokens = await seated(first, [HUMAN, bot("random")], turn_seconds=DAY)
        state = await first.state(table_id, tokens)
        await first.act(table_id, 0, tokens[0], state["table"]["version"], state["legal"][0])
        await first.idle()
        state = await first.state(table_id, tokens)
        assert state["table"]["to_move"] == 0
        deadline = state["table"]["deadline"]
        await close(first)  # the server stops for the night

        clock.advance(DAY - 60)
        second = service(sqlite_url, clock)
        assert await second.resume() == 1
        await second.tick()
        assert not (await second.table(table_id))["table"]["seats"][0]["away"]
        assert (await second.table(table_id))["table"]["deadline"] == deadline
        clock.advance(61)  # a day after the turn began: out of time
        await second.tick()
        await second.idle()
        table = (await second.table(table_id))["table"]
        assert table["seats"][0]["away"] and table["version"] > state["table"]["version"]
        await close(second)

    run(scenario)


def test_a_table_may_give_up_to_three_days_a_move(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url, Clock())
        table = await svc.create_table("hugo", [HUMAN, HUMAN], 0, turn_seconds=3 * DAY)
        assert table["turn_seconds"] == 3 * DAY and table["turn_based"]
        real_time = await svc.create_table("hugo", [HUMAN, HUMAN], 0, turn_seconds=120)
        assert not real_time["turn_based"]
        try:
            await svc.create_table("hugo", [HUMAN, HUMAN], 0, turn_seconds=3 * DAY + 1)
        except Exception as error:
            assert getattr(error, "code", None) == "bad_request"
        else:
            raise AssertionError("more than three days a move was accepted")
        await close(svc)

    run(scenario)
