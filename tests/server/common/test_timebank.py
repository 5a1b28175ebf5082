"""The time bank of real-time timed tables (timebank.py), on a clock the tests move."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from ghostparty.server.common.model import Table
from ghostparty.server.common.timebank import INCREMENT, full_bank
from tests.fixtures.tables import HUMAN, bot, close, run
from tests.server.tables.test_absence import Clock, seated, service


def at(seconds: int) -> str:
    """The time ``seconds`` after the test clock's start, as the protocol writes it."""
    return (Clock().now + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


async def act_first(svc: Any, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The seat to move takes its first legal choice; the table after it."""
    state = await svc.state(table_id, tokens)
    seat = state["table"]["to_move"]
    await svc.act(table_id, seat, tokens[seat], state["table"]["version"], state["legal"][0])
    await svc.idle()
    table: dict[str, Any] = (await svc.table(table_id))["table"]
    return table


@pytest.mark.parametrize(
    ("turn_seconds", "bank"), [(5, 20), (15, 60), (30, 60), (60, 60), (120, 120), (3599, 3599), (3600, None)]
)
def test_the_bank_is_a_minute_or_a_decisions_time_and_at_most_four(turn_seconds: int, bank: int | None) -> None:
    table = Table(id="t", rules="hugo", players=2, seats=(), seed=1, turn_seconds=turn_seconds)
    assert full_bank(table) == bank


def test_a_decision_over_its_time_draws_on_the_bank_before_the_bot_takes_over(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock)
        table_id, tokens = await seated(svc, [HUMAN, HUMAN], turn_seconds=30)
        table = (await svc.table(table_id))["table"]
        assert (table["time_bank"], table["bank_increment"]) == (60, INCREMENT)
        assert [s["bank"] for s in table["seats"]] == [60, 60]
        # 30 s of the decision's own, then the bank's 60 s
        assert (table["bank_from"], table["deadline"]) == (at(30), at(90))
        clock.advance(89)  # the decision's own time is long gone, the bank nearly
        await svc.tick()
        assert not (await svc.table(table_id))["table"]["seats"][0]["away"]
        table = await act_first(svc, table_id, tokens)  # 59 s of the bank spent, 5 back
        assert [s["bank"] for s in table["seats"]] == [6, 60] and table["to_move"] == 1
        assert table["deadline"] == at(89 + 30 + 60)  # seat 1: 30 s and its full bank
        table = await act_first(svc, table_id, tokens)  # at once: its bank stays full
        assert [s["bank"] for s in table["seats"]] == [6, 60] and table["to_move"] == 0
        assert (table["bank_from"], table["deadline"]) == (at(89 + 30), at(89 + 30 + 6))
        clock.advance(35)
        await svc.tick()
        assert not (await svc.table(table_id))["table"]["seats"][0]["away"]
        clock.advance(1)  # the decision's 30 s and the bank's 6 s: out of time
        await svc.tick()
        await svc.idle()
        table = (await svc.table(table_id))["table"]
        assert table["seats"][0]["away"] and table["seats"][0]["bank"] == 0
        assert table["seats"][1]["bank"] == 60
        await close(svc)

    run(scenario)


def test_each_decision_gives_seconds_back_up_to_the_full_bank(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock)
        table_id, tokens = await seated(svc, [HUMAN, bot("random")], turn_seconds=60)
        clock.advance(60 + 47)  # 47 s of the bank spent, 5 back
        table = await act_first(svc, table_id, tokens)
        banks = [table["seats"][0]["bank"]]
        assert banks == [18] and table["seats"][1]["bank"] is None  # a bot has no bank
        for _ in range(10):  # each decision in time: 5 s back, never above the minute
            table = await act_first(svc, table_id, tokens)
            banks.append(table["seats"][0]["bank"])
        assert banks == [18, 23, 28, 33, 38, 43, 48, 53, 58, 60, 60]
        await close(svc)

    run(scenario)


def test_the_bank_left_survives_a_restart(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        first = service(sqlite_url, clock)
        table_id, tokens = await seated(first, [HUMAN, HUMAN], turn_seconds=30)
        clock.advance(30 + 40)
        await act_first(first, table_id, tokens)  # seat 0: 20 + 5 left
        clock.advance(30 + 50)
        table = await act_first(first, table_id, tokens)  # seat 1: 10 + 5 left
        assert [s["bank"] for s in table["seats"]] == [25, 15]
        deadline = table["deadline"]
        await close(first)

        second = service(sqlite_url, clock)
        assert await second.resume() == 1
        table = (await second.table(table_id))["table"]
        assert [s["bank"] for s in table["seats"]] == [25, 15] and table["deadline"] == deadline
        clock.advance(30 + 24)
        await second.tick()
        assert not (await second.table(table_id))["table"]["seats"][0]["away"]
        clock.advance(1)
        await second.tick()
        await second.idle()
        assert (await second.table(table_id))["table"]["seats"][0]["away"]
        await close(second)

    run(scenario)


def test_untimed_and_turn_based_tables_have_no_bank(sqlite_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        svc = service(sqlite_url, clock)
        for turn_seconds, deadline in ((None, None), (86400, at(3600 + 86400))):
            table_id, tokens = await seated(svc, [HUMAN, HUMAN], turn_seconds=turn_seconds)
            table = (await svc.table(table_id))["table"]
            assert (table["time_bank"], table["bank_increment"], table["bank_from"]) == (None, None, None)
            assert table["deadline"] == deadline and [s["bank"] for s in table["seats"]] == [None, None]
            clock.advance(3600)
            table = await act_first(svc, table_id, tokens)
            assert [s["bank"] for s in table["seats"]] == [None, None]
        await close(svc)

    run(scenario)
