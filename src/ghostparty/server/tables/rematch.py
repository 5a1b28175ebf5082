"""Playing again: after a game, the people who say "Play again" get a new table with
the same rule set, seats and bots, and the games so made are a series.

Each person answers for their seat (:meth:`Rematch.again`). Once every person has said
yes — or one who said yes asks to go on without the others (``now``) — the next table
is made: the same rules, seat count, bots, timer and rated-ness, a first player drawn
again, each person who said yes in their seat under the same name and the same secret
token (the pages that hold it take it over: nobody needs a new one), and the seats of
those who didn't say yes given to the table's bot or left open, as the table's creator
chose (``rematch_fill``). Every account passes the lobby's check of who may sit
(:meth:`~ghostparty.server.tables.lobby.Lobby.may_sit`): one banned from rated play can't say yes at a rated
table, and one banned after saying yes is left out as if they hadn't. The finished table then names its ``rematch``, which every page
watching it hears of; a series is the first table and those with its id as ``series``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ghostparty.server.common.errors import ServiceError
from ghostparty.server.common.model import CLOSED, OVER, Seat, Table
from ghostparty.server.common.ratings import BOT_LEVELS
from ghostparty.server.tables.core import Core
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.lobby import Lobby
from ghostparty.server.wire.protocol import Message


class Rematch:
    def __init__(self, core: Core, lobby: Lobby) -> None:
        self.core = core
        self.lobby = lobby

    async def again(
        self,
        table_id: str,
        seat: int,
        token: str,
        *,
        now: bool = False,
        budget: Callable[[], Awaitable[None]] | None = None,
    ) -> Message:
        """``seat``'s person plays again; the next table is made once every person has
        said so, or at once with ``now``. Returns the finished table's view (its
        ``rematch`` names the next table once made). ``budget`` is awaited before the
        next table is made, and may refuse it (:class:`~ghostparty.server.common.errors.RateLimited`): then
        nothing changes, and the yes may be said again later."""
        nxt: LiveTable | None = None
        refusal = "play again once the game is over"
        try:
            async with self.core.change(table_id, seat, token, expect=OVER, refusal=refusal, fresh=True) as draft:
                table = draft.table
                if table.rematch is None:
                    await self.lobby.may_sit(table.seats[seat].player_id, rated=table.rated)
                    people = [s for s in table.seats if s.kind == "human"]
                    if budget is not None and (now or all(s.again or s.seat == seat for s in people)):
                        await budget()
                    if not table.seats[seat].again:
                        table = draft.table = table.with_seat(replace(table.seats[seat], again=True))
                    people = [s for s in table.seats if s.kind == "human"]
                    if now or all(s.again for s in people):
                        nxt = await self._next(table)
                        draft.table = replace(table, rematch=nxt.table.id)
        except ServiceError:
            if nxt is not None:  # another instance made the next table first: give this one up
                with contextlib.suppress(ServiceError):
                    await self.lobby.give_up(nxt)
            raise
        if nxt is not None and all(s.taken for s in nxt.table.seats):
            await self.lobby.start_seated(nxt)
        return await self.core.view(draft.live.table)

    async def _next(self, table: Table) -> LiveTable:
        """The next table of ``table``'s series, open (not yet named by ``table``)."""
        seats = tuple([await self._seat_again(table, held) for held in table.seats])
        return await self.lobby.insert(
            table.rules,
            seats,
            None,
            turn_seconds=table.turn_seconds,
            absent_bot=table.absent_bot,
            rated=table.rated,
            series=table.series or table.id,
            series_index=table.series_index + 1,
            rematch_fill=table.rematch_fill,
        )

    async def _seat_again(self, table: Table, held: Seat) -> Seat:
        if held.kind == "bot":
            return Seat(held.seat, "bot", bot=held.bot, name=held.name, player_id=held.player_id)
        if held.again and await self._may_sit(held, rated=table.rated):  # the same person, name and token
            return Seat(held.seat, "human", name=held.name, token_hash=held.token_hash, player_id=held.player_id)
        if table.rematch_fill == "empty":
            return Seat(held.seat, "human")
        level = table.absent_bot
        if table.rated and level not in BOT_LEVELS:  # a rated table's bots are plain levels
            level = "greedy"
        return await self.lobby.bot_seat(held.seat, level, rated=table.rated)

    async def _may_sit(self, held: Seat, *, rated: bool) -> bool:
        """Whether the person of ``held`` may still sit at the next table (not banned
        from rated play since saying yes)."""
        try:
            await self.lobby.may_sit(held.player_id, rated=rated)
        except ServiceError:
            return False
        return True

    async def series(self, table_id: str) -> Message:
        """The games of the series ``table_id`` belongs to, with each seat's points and
        the running totals."""
        tables = self.core.tables
        live = await tables.get(table_id, fresh=True)
        first = live.table.series or live.table.id
        games = []
        totals = [0] * live.table.players
        for table in await tables.read(tables.store.series, first):
            if table.status == CLOSED:
                continue
            entry: dict[str, Any] = {
                "table": table.id,
                "index": table.series_index,
                "status": table.status,
                "winners": list(table.winners),
                "scores": None,
            }
            if table.status == OVER:
                game = (await tables.get(table.id)).game
                if game is not None:
                    scores = list(game.state.scores)
                    entry["scores"] = scores
                    if len(scores) == len(totals):
                        totals = [a + b for a, b in zip(totals, scores, strict=True)]
            games.append(entry)
        return {"series": first, "games": games, "totals": totals}
