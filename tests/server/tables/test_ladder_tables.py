"""A bot ladder's tables: the die rolls the deal's sequence by roll count (whatever
else the game did), as ``ghostparty tournament --duplicate`` rolls a deal, and a house
bot that thinks too long is replaced for that decision by the table's absent bot."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from random import Random

from ghostparty.bots import make_bot
from ghostparty.rules import Game, Roll
from ghostparty.server.common.model import Seat, Table
from ghostparty.server.tables.bot_turns import bounded_think
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.play import deal_roll, die
from ghostparty.sim.playout import next_action, rolls
from ghostparty.sim.seeds import die_rng

DEAL = 123_456_789


def played(actions: int) -> Game:
    """A 3-player hugo game after ``actions`` actions of greedy bots with a seeded die."""
    game = Game("hugo", 3, first_player=0)
    bot, rng, roll = make_bot("greedy"), Random(1), rolls(Random(2))
    for _ in range(actions):
        game.push(next_action(game.state, bot, rng, roll))
    return game


def table(deal: int | None) -> Table:
    seats = tuple(Seat(i, "bot", bot="random", name="Random bot") for i in range(3))
    return Table("t1", "hugo", 3, seats, seed=42, first_player=0, turn_seconds=5, deal=deal)


def test_a_deal_rolls_its_sequence_by_roll_count() -> None:
    expected = rolls(die_rng(DEAL))
    sequence = [expected() for _ in range(40)]
    assert [deal_roll(DEAL, i) for i in range(40)] == sequence  # ghostparty tournament --duplicate's die
    for actions in (0, 1, 7, 30):
        game = played(actions)
        count = sum(1 for a in game.history if isinstance(a, Roll))
        assert die(LiveTable(table(DEAL), game)) == sequence[count]
    # an ordinary table rolls by its seed and the action index, not the deal
    ordinary = [die(LiveTable(table(None), played(n))) for n in range(0, 30, 3)]
    assert ordinary != [sequence[sum(1 for a in played(n).history if isinstance(a, Roll))] for n in range(0, 30, 3)]


def test_a_house_bot_past_its_time_is_replaced_by_the_absent_bot() -> None:
    game = played(1)  # seat 0 has rolled and decides now
    live = LiveTable(replace(table(DEAL), absent_bot="greedy"), game)

    def slow() -> object:
        time.sleep(3)
        raise AssertionError("the late thought must not be used")

    async def timed() -> tuple[object, float]:
        begun = time.monotonic()
        action = await bounded_think(live, slow, Random(5), 0.5)  # type: ignore[arg-type]
        return action, time.monotonic() - begun

    action, took = asyncio.run(timed())  # (the run itself ends once the late thread does)
    assert took < 2.5
    assert action == next_action(game.state, make_bot("greedy"), Random(5), lambda: deal_roll(DEAL, 1))
    quick = asyncio.run(bounded_think(live, lambda: "thought", Random(5), 0.5))  # type: ignore[arg-type,return-value]
    assert quick == "thought"
