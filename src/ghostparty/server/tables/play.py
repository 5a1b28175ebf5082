"""Play: a person's or a bot's action checked, applied, saved and told, one at a time."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from random import Random
from typing import Any

from ghostparty.rules import (
    MOVE,
    OVER,
    PLACE,
    ROLL,
    Action,
    IllegalAction,
    Position,
    Roll,
    action_from_dict,
    action_to_dict,
    legal_actions,
    sample_roll,
)
from ghostparty.rules.events import Event
from ghostparty.server.bus.envelope import GameEnded
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.model import OVER as TABLE_OVER
from ghostparty.server.common.model import PLAYING, GameResult, SeatResult, Table
from ghostparty.server.common.ratings import places
from ghostparty.server.common.timebank import after_decision, spent
from ghostparty.server.tables.chat import chat_channel
from ghostparty.server.tables.core import Core
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.transaction import Draft
from ghostparty.server.wire.protocol import ROLL_REQUEST, Applied
from ghostparty.sim.seeds import die_rng


class Play:
    """Actions on tables under way."""

    def __init__(self, core: Core) -> None:
        self.core = core
        #: Told of each game this instance ends, with its record (``ghostparty-record/1``):
        #: the review jobs (``serve`` reviews every finished game).
        self.game_over: Callable[[str, dict[str, Any]], None] | None = None

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
        async with self.core.change(table_id, seat, token, expect=PLAYING, version=version) as draft:
            table = draft.table
            if table.to_move != seat:
                raise ServiceError(ErrorCode.NOT_YOUR_TURN, f"it is seat {table.to_move}'s turn, not seat {seat}'s")
            if table.seats[seat].away:
                if not turn_starts(draft.live, seat):
                    raise ServiceError(
                        ErrorCode.NOT_YOUR_TURN, "a bot is finishing this turn for you: you play from your next one"
                    )
                draft.table = table.with_seat(replace(table.seats[seat], away=False, back=False))
            decoded = self._decode(draft.live, action)
            try:
                position, events, index = self.apply(draft, seat, decoded, started=started)
            except IllegalAction:  # the rules check it as they apply it (FORMAT.md): nothing changed
                raise _not_legal(draft.live, decoded) from None
        return Applied(draft.live.table, position, events, index)

    def _decode(self, live: LiveTable, data: object) -> Action:
        assert live.game is not None
        position = live.game.state
        if data == ROLL_REQUEST:
            if position.phase != ROLL:
                raise ServiceError(ErrorCode.ILLEGAL_ACTION, f"no roll now: the phase is {position.phase!r}")
            return die(live)
        if isinstance(data, Mapping) and "roll" in data:
            raise ServiceError(ErrorCode.ILLEGAL_ACTION, 'the server rolls the die: send {"roll": true}')
        try:
            return action_from_dict(data)
        except IllegalAction as error:
            raise ServiceError(ErrorCode.ILLEGAL_ACTION, str(error)) from None

    def apply(
        self, draft: Draft, seat: int, action: Action, *, started: float | None = None
    ) -> tuple[Position, tuple[Event, ...], int]:
        """Apply ``action`` of ``seat`` to ``draft``'s game (the position, its events and
        index): saved and told as the transaction ends, undone if it fails;
        ``IllegalAction`` (the rules' own check, nothing changed) if it is not legal.
        ``started``: when a person's action arrived (``time.perf_counter``); without it,
        a bot's."""
        begun = time.perf_counter() if started is None else started
        game = draft.live.game
        assert game is not None
        index, events = draft.push(seat, action)
        state = game.state
        over = state.phase == OVER
        moment = draft.now()
        new = replace(
            after_decision(draft.table, seat, moment),  # the seconds over its own, from the seat's bank
            version=draft.live.table.version + 1,  # stamped here as the transaction would: one copy fewer
            status=TABLE_OVER if over else PLAYING,
            to_move=None if over else state.to_move,
            winners=state.winners,
            updated=moment,
        )
        for held in new.seats:  # people who came back play from their next turn on
            if held.back and not (state.to_move == held.seat and state.phase == MOVE and not over):
                new = new.with_seat(replace(held, away=False, back=False))
        draft.table = new
        draft.result = game_result(new, state.scores) if over else None
        draft.after(partial(self._applied, draft.live, over=over, person=started is not None, begun=begun))
        return state, tuple(events), index

    async def _applied(self, live: LiveTable, *, over: bool, person: bool, begun: float) -> None:
        if over:  # the players may now read the spectators' chat: their pages read it again
            await self.core.pubsub.publish(chat_channel(live.table.id), GameEnded())
            if self.game_over is not None and live.game is not None:
                self.game_over(live.table.id, live.game.record().to_dict())
        metrics = self.core.metrics
        if person:
            metrics.person_actions.inc()
            metrics.person_latency.observe(time.perf_counter() - begun)
        else:
            metrics.bot_actions.inc()
            metrics.bot_latency.observe(time.perf_counter() - begun)

    def mark_away(self, draft: Draft, seat: int, *, away: bool, back: bool = False, out_of_time: bool = False) -> None:
        """Mark a person away (a bot plays for them), back (from their next turn), or
        present; ``out_of_time``: their decision's time and time bank are spent."""
        table = spent(draft.table, seat) if out_of_time else draft.table
        draft.table = table.with_seat(replace(table.seats[seat], away=away, back=back))
        draft.wake_keeper = True

    async def set_away(self, table_id: str, seat: int, *, away: bool, back: bool = False) -> None:
        """:meth:`mark_away` in a change of its own (a table under way)."""
        async with self.core.change(table_id, expect=PLAYING) as draft:
            self.mark_away(draft, seat, away=away, back=back)


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


def _not_legal(live: LiveTable, action: Action) -> ServiceError:
    """``illegal_action`` for ``action``, naming the legal ones (the first dozen)."""
    assert live.game is not None
    legal = legal_actions(live.game.state)
    expected = ", ".join(_short(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
    return ServiceError(ErrorCode.ILLEGAL_ACTION, f"{_short(action)} is not legal now; expected one of: {expected}")


def _short(action: Action) -> str:
    data = action_to_dict(action)
    if "from" in data:
        return f"{data['from']}→{data['to']}"
    return ", ".join(f"{k}: {v}" for k, v in data.items())
