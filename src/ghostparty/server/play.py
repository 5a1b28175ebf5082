"""Play: a person's or a bot's action checked, applied, saved and told, one at a time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from random import Random
from typing import Any

from ghostparty.rules import (
    MOVE,
    OVER,
    PLACE,
    ROLL,
    Action,
    IllegalAction,
    Roll,
    action_from_dict,
    action_to_dict,
    legal_actions,
    sample_roll,
)
from ghostparty.server.chat import GAME_OVER, chat_channel
from ghostparty.server.core import Core
from ghostparty.server.errors import ServiceError, StoreUnavailable
from ghostparty.server.live import LiveTable
from ghostparty.server.lobby import check_token
from ghostparty.server.model import OVER as TABLE_OVER
from ghostparty.server.model import PLAYING, ActionRow, GameResult, SeatResult, Table
from ghostparty.server.protocol import ROLL_REQUEST, Applied, entry_message
from ghostparty.server.ratings import places
from ghostparty.server.timebank import after_decision, spent
from ghostparty.sim.seeds import die_rng


class Play:
    """Actions on tables under way."""

    def __init__(self, core: Core) -> None:
        self.core = core
        #: Told of each game this instance ends, with its record (``ghostparty-record/1``):
        #: the review jobs (``serve`` reviews every finished game).
        self.game_over: Callable[[str, dict[str, Any]], None] | None = None
        self._rechecks: set[asyncio.Task[None]] = set()

    async def act(self, table_id: str, seat: int, token: str, version: int, action: object) -> Applied:
        """Apply a person's action for ``seat`` at the table's ``version``.

        ``action`` is FORMAT.md's dict, except that a roll is asked for with
        ``{"roll": true}`` and the server draws the face.
        """
        started = time.perf_counter()
        try:
            return await self._act(table_id, seat, token, version, action, started)
        except ServiceError as error:
            self.core.metrics.refused.labels(error.code).inc()
            raise

    async def _act(self, table_id: str, seat: int, token: str, version: int, action: object, started: float) -> Applied:
        tables = self.core.tables
        async with tables.lock(table_id):
            live = await tables.get(table_id, min_version=version)
            check_token(live.table, seat, token)
            if live.table.version != version:
                live = await tables.get(table_id, refresh=True)
            table = live.table
            if table.status != PLAYING or live.game is None:
                raise ServiceError("not_playing", f"the table is {table.status}, not playing")
            if table.version != version:
                raise ServiceError(
                    "stale_version", f"the table is at version {table.version}, not {version}: reload and choose again"
                )
            if table.to_move != seat:
                raise ServiceError("not_your_turn", f"it is seat {table.to_move}'s turn, not seat {seat}'s")
            if table.seats[seat].away:
                if not turn_starts(live, seat):
                    raise ServiceError(
                        "not_your_turn", "a bot is finishing this turn for you: you play from your next one"
                    )
                live.table = table.with_seat(replace(table.seats[seat], away=False, back=False))
            return await self.apply(live, seat, self._decode(live, action), started=started)

    def _decode(self, live: LiveTable, data: object) -> Action:
        assert live.game is not None
        position = live.game.state
        if data == ROLL_REQUEST:
            if position.phase != ROLL:
                raise ServiceError("illegal_action", f"no roll now: the phase is {position.phase!r}")
            return die(live)
        if isinstance(data, Mapping) and "roll" in data:
            raise ServiceError("illegal_action", 'the server rolls the die: send {"roll": true}')
        try:
            action = action_from_dict(data)
        except IllegalAction as error:
            raise ServiceError("illegal_action", str(error)) from None
        legal = legal_actions(position)
        if action not in legal:
            expected = ", ".join(_short(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
            raise ServiceError("illegal_action", f"{_short(action)} is not legal now; expected one of: {expected}")
        return action

    async def apply(self, live: LiveTable, seat: int, action: Action, *, started: float | None = None) -> Applied:
        """Apply a checked ``action`` of ``seat``: saved, then told; nothing changes if
        the save fails (the table is then read afresh on its next use). ``started``: when
        a person's action arrived (``time.perf_counter``); without it, a bot's."""
        begun = time.perf_counter() if started is None else started
        game = live.game
        assert game is not None
        table = live.table
        index = len(game.history)
        events = game.push(action)
        state = game.state
        over = state.phase == OVER
        moment = self.core.clock()
        new = replace(
            after_decision(table, seat, moment),  # the seconds over its own, from the seat's bank
            version=table.version + 1,
            status=TABLE_OVER if over else PLAYING,
            to_move=None if over else state.to_move,
            winners=state.winners,
            updated=moment,
        )
        for held in new.seats:  # people who came back play from their next turn on
            if held.back and not (state.to_move == held.seat and state.phase == MOVE and not over):
                new = new.with_seat(replace(held, away=False, back=False))
        row = ActionRow(index, seat, action_to_dict(action))
        result = game_result(new, state.scores) if over else None
        try:
            await self.core.tables.save(live, new, [row], result)
        except StoreUnavailable:
            game.undo()
            # the store may have it nevertheless (a commit whose answer was lost): once it
            # answers again, everyone is told of what it holds
            self._rechecks.add(
                task := asyncio.get_running_loop().create_task(self.core.recheck(table.id, table.version))
            )
            task.add_done_callback(self._rechecks.discard)
            raise
        except ServiceError:
            game.undo()
            raise
        entry = {"index": index, "seat": seat, "action": row.action}
        live.log.append(entry)
        live.events.append(events)
        await self.core.publish(live, entry_message(entry, events))
        await self.core.changed(live, always=over)
        if over:  # the players may now read the spectators' chat: their pages read it again
            await self.core.pubsub.publish(chat_channel(live.table.id), GAME_OVER)
            if self.game_over is not None:
                self.game_over(live.table.id, game.record().to_dict())
        metrics = self.core.metrics
        if started is None:
            metrics.bot_actions.inc()
            metrics.bot_latency.observe(time.perf_counter() - begun)
        else:
            metrics.person_actions.inc()
            metrics.person_latency.observe(time.perf_counter() - begun)
        return Applied(live.table, state, tuple(events), index)

    async def set_away(
        self, live: LiveTable, seat: int, *, away: bool, back: bool = False, out_of_time: bool = False
    ) -> None:
        """Mark a person away (a bot plays for them), back (from their next turn), or
        present; ``out_of_time``: their decision's time and time bank are spent."""
        table = spent(live.table, seat) if out_of_time else live.table
        changed = table.with_seat(replace(table.seats[seat], away=away, back=back))
        await self.core.tables.save(live, replace(changed, version=table.version + 1, updated=self.core.clock()))
        await self.core.publish(live, None)
        await self.core.changed(live, always=True)


def game_result(table: Table, scores: Sequence[int]) -> GameResult | None:
    """A finished game's result, if any seat is a registered player's or a rated bot's
    (it is then kept for their history, and rated if the table is)."""
    if all(seat.player_id is None for seat in table.seats):
        return None
    ranks = places(scores)
    return GameResult(
        rules=table.rules,
        rated=table.rated,
        seats=tuple(
            SeatResult(
                seat.seat,
                seat.player_id,
                scores[seat.seat],
                ranks[seat.seat],
                seat.seat in table.winners,
                left=seat.kind == "human" and seat.away and not seat.back,
            )
            for seat in table.seats
        ),
        ended=table.updated,
    )


def die(live: LiveTable) -> Roll:
    """The die's face for the game's next action: the same for a given table and index,
    so a restart or a second server instance rolls exactly what the first would.

    A duplicate deal's table (``Table.deal``, the bot ladder) rolls the deal's sequence
    instead: its n-th roll is the n-th draw of ``Random(deal)``, as ``ghostparty
    tournament --duplicate`` rolls a deal, so every rotation of the deal gets the same
    rolls in the same order (counted from the stored history: a restart goes on alike)."""
    assert live.game is not None
    if live.table.deal is not None:
        return deal_roll(live.table.deal, sum(1 for action in live.game.history if isinstance(action, Roll)))
    return sample_roll(Random(f"{live.table.seed}:die:{len(live.game.history)}"))


def deal_roll(deal: int, index: int) -> Roll:
    """Roll ``index`` (from 0) of the deal seeded ``deal``: :func:`~ghostparty.sim.seeds.die_rng`'s
    draws, as a game seeded ``deal`` rolls them."""
    rng = die_rng(deal)
    for _ in range(index):
        sample_roll(rng)
    return sample_roll(rng)


def turn_starts(live: LiveTable, seat: int) -> bool:
    """Whether ``seat`` is to move at the start of its turn (not halfway through it)."""
    state = live.game.state if live.game is not None else None
    return state is not None and state.to_move == seat and state.phase in {ROLL, PLACE}


def _short(action: Action) -> str:
    data = action_to_dict(action)
    if "from" in data:
        return f"{data['from']}→{data['to']}"
    return ", ".join(f"{k}: {v}" for k, v in data.items())
