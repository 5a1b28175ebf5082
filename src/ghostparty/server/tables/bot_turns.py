"""The bot turns of the tables an instance keeps (:mod:`ghostparty.server.tables.keeping`): a task per table that,
``bot_delay`` apart, plays the move of a bot seat (or of a person away, by the table's
``absent_bot``) through the table transaction, thinking in a worker thread, until a
person is to move, the game ends or the instance no longer keeps the table. At a bot
ladder's table a house bot thinks within the time per decision (:func:`bounded_think`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from functools import partial
from random import Random

from ghostparty.bots import make_bot
from ghostparty.rules import OVER, ROLL, Action
from ghostparty.server.common.errors import ServiceError, StoreUnavailable
from ghostparty.server.common.model import PLAYING
from ghostparty.server.tables.core import Core
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.play import Play, die, turn_starts
from ghostparty.server.tables.transaction import Draft
from ghostparty.sim.playout import next_action

log = logging.getLogger("ghostparty.server")

#: Seconds a bot waits before trying again when the store is unavailable.
RETRY = 1.0


class BotTurns:
    """The bot tasks of this instance's tables (:attr:`tasks`, by table id)."""

    def __init__(self, core: Core, play: Play, bot_delay: float) -> None:
        self.core = core
        self.play = play
        self.bot_delay = bot_delay
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def schedule(self, live: LiveTable) -> None:
        """Start the table's bot task if a bot (or an away person's) is to move."""
        table = live.table
        if table.status != PLAYING or table.to_move is None or not table.seats[table.to_move].played_by_bot:
            return
        if not self.core.keeper.owns(table.id):
            return
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            return
        self.tasks[table.id] = asyncio.get_running_loop().create_task(self._play(table.id))

    async def _play(self, table_id: str) -> None:
        """Play bot turns at a table until a person is to move, the game ends, or this
        instance no longer keeps the table."""
        try:
            while self.core.keeper.owns(table_id):
                await asyncio.sleep(self.bot_delay)
                try:
                    async with self.core.change(table_id) as draft:
                        if not await self._turn(draft):
                            return
                except StoreUnavailable as error:
                    log.info("bot turn at table %s waits for the store: %s", table_id, error.message)
                    await asyncio.sleep(RETRY)
                except ServiceError as error:
                    if error.code != "stale_version":
                        raise
                    # another change came first (a person back at the start of their
                    # turn): read the table again and see who is to move now
        except ServiceError as error:
            log.info("bot turn at table %s stopped: %s", table_id, error.message)
        except Exception:
            log.exception("bot turn at table %s failed", table_id)
        finally:
            task = self.tasks.get(table_id)
            if task is asyncio.current_task():
                del self.tasks[table_id]

    async def _turn(self, draft: Draft) -> bool:
        """One bot action in ``draft`` if a bot is to move; whether one was."""
        live = draft.live
        table = draft.table
        game = live.game
        if table.status != PLAYING or game is None or table.to_move is None:
            return False
        seat = table.seats[table.to_move]
        if not seat.played_by_bot:
            return False
        if seat.back and turn_starts(live, seat.seat):  # the person plays again
            self.play.mark_away(draft, seat.seat, away=False)
            return False
        position = game.state
        if position.phase == OVER:  # a copy that went out of step with its table: read it again
            self.core.tables.forget(table.id)
            return True
        bot = live.bots.get(seat.seat)
        if bot is None:
            level = seat.bot if seat.kind == "bot" and seat.bot else table.absent_bot
            bot = live.bots[seat.seat] = make_bot(level)
        # The one step of every game (ghostparty.sim.playout), with the table's own seeding:
        # the die by table seed and action index (stored games replay to it), the bot likewise.
        rng = Random(f"{table.seed}:bot:{len(game.history)}")
        step = partial(next_action, position, bot, rng, partial(die, live))
        if position.phase == ROLL:  # a roll needs no thread
            action = step()
        else:
            thinking = time.perf_counter()
            if table.deal is not None and table.turn_seconds is not None:
                action = await bounded_think(live, step, rng, table.turn_seconds)
            else:
                action = await asyncio.to_thread(step)
            self.core.metrics.bot_think.observe(time.perf_counter() - thinking)
        self.play.apply(draft, seat.seat, action)
        return True


async def bounded_think(live: LiveTable, step: Callable[[], Action], rng: Random, seconds: float) -> Action:
    """A bot ladder's house bot thinks within the table's time per decision as a bot
    account must: past ``seconds``, the table's ``absent_bot`` decides instead, as it does
    for a seat out of time (the late thought is left to finish in its thread, unused)."""
    thought = asyncio.ensure_future(asyncio.to_thread(step))
    thought.add_done_callback(lambda done: done.cancelled() or done.exception())  # a late failure: not logged twice
    try:
        return await asyncio.wait_for(asyncio.shield(thought), timeout=seconds)
    except TimeoutError:
        assert live.game is not None
        log.info("a house bot at table %s ran out of its %s s: %s plays", live.table.id, seconds, live.table.absent_bot)
        stand_in = make_bot(live.table.absent_bot)
        return await asyncio.to_thread(next_action, live.game.state, stand_in, rng, partial(die, live))
