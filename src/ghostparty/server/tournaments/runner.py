"""The runner: starts tournaments, pairs players, seats them at ordinary tables, records
the results and ends each tournament — on ONE instance, the one keeping shard 0 (as
quick-match's forming, :mod:`ghostparty.server.bus.leases`), every second.

Each step is one change of the tournament with its row locked (:meth:`.Tournaments.update`):

- *pairing*: the tables are made first (open, the players' seats and tokens in them),
  then the new engine state and the tournament's games are stored in one change, if
  the tournament is still at the version they were paired from; only then are the
  tables started. A runner whose read was stale gives its tables up (closed, never
  started), so nobody is seated twice. A table stored but left open (its instance was
  killed in between) is started by the next pass.
- *recording*: a game whose table is over is read (places by final score; a person away
  at the end and not back left to a bot: 0 points) and marked recorded in the same
  change as the state it changes; a game already recorded refuses the change, so no
  game counts twice.

A bot ladder (``kind="ladder"``) pairs a whole deal at once: every group's rotations,
each an ordinary table with seat 0 starting, no time bank and the deal's die seed
(``Table.deal``), the house bots seated as the server's bots of their level. The next
deal is paired once every game of the last one is recorded.

A tournament about to start (:data:`SOON`) is announced once to :attr:`TournamentRunner.starting`
with its entrants' accounts (the wiring hooks Web Push there); a takeover of shard 0 in
those two minutes may announce it again.

An instance killed mid-pass leaves nothing half done: another instance takes shard 0
within the lease's time and its next pass goes on from the stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable, in_thread
from ghostparty.server.common.model import OPEN, OVER, Seat
from ghostparty.server.common.ratings import places
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.tables.lobby import hash_token
from ghostparty.server.tournaments.service import BOT_LEVEL, Engine, Tournaments, house_level, stamp
from ghostparty.server.tournaments.store import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    RUNNING,
    SCHEDULED,
    Change,
    GameRow,
    TournamentRow,
)
from ghostparty.tournaments import Arena, Ladder, Swiss, to_json

log = logging.getLogger("ghostparty.server")

#: Seconds between a real-time Swiss round's last result and the next round's start.
ROUND_PAUSE = 30
#: How long before its start a tournament is announced to its entrants.
SOON = timedelta(minutes=2)
#: Seconds after which a stored game's table still open is started by the runner.
STUCK_OPEN = 5


class TournamentRunner:
    """Drives every scheduled and running tournament (see the module docstring)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.t = tournaments
        self.lobby = tournaments.lobby
        self._task: asyncio.Task[None] | None = None
        self._passing = asyncio.Lock()
        #: Recurring events (:mod:`ghostparty.server.tournaments.events`): called once a pass.
        self.recurring: Callable[[], object] | None = None
        #: Awaited once per tournament :data:`SOON` before it starts, with it and its
        #: entrants' accounts (the wiring's: Web Push); its failure is logged.
        self.starting: Callable[[TournamentRow, list[int]], Awaitable[None]] | None = None
        self._announced: set[str] = set()

    def run(self, keeps: Callable[[], bool], every: float = 1.0) -> None:
        """A pass every ``every`` seconds while ``keeps()`` (this instance keeps shard 0)."""
        self._task = asyncio.get_running_loop().create_task(self._loop(keeps, every))

    async def _loop(self, keeps: Callable[[], bool], every: float) -> None:
        while True:
            await asyncio.sleep(every)
            if keeps():
                try:
                    await self.step()
                except StoreUnavailable as error:
                    log.warning("tournaments: the store is unavailable (%s)", error)
                except Exception:
                    log.exception("tournaments: a pass failed")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def step(self) -> None:
        """One pass over every tournament not over."""
        async with self._passing:
            if self.recurring is not None:
                made = self.recurring()
                if asyncio.iscoroutine(made):
                    await made
            for row in await in_thread(self.t.store.listing, ACTIVE, 500):
                try:
                    await self.advance(row.id)
                except ServiceError as error:
                    log.warning("tournament %s: %s", row.id, error)
                except Exception:  # one tournament's trouble doesn't hold up the others
                    log.exception("tournament %s: a pass failed", row.id)

    async def advance(self, tournament_id: str) -> None:
        """Record what finished, then start, pair or end ``tournament_id``."""
        await self._record(tournament_id)
        row = await self.t.get(tournament_id)
        moment = self.t.clock()
        if row.rated and row.status in ACTIVE:
            await self._withdraw_banned(row, moment)
        if row.status == SCHEDULED and moment >= row.starts - SOON:
            await self._announce(row)
        if row.status == SCHEDULED and moment >= row.starts:
            await self.t.update(tournament_id, lambda r, e: self._begin(r, e, moment))
        row = await self.t.get(tournament_id)
        if row.status == RUNNING:
            await self._pair(row, moment)

    async def _announce(self, row: TournamentRow) -> None:
        """Tell :attr:`starting` of a tournament about to start, once (on this instance)."""
        if self.starting is None or row.id in self._announced:
            return
        self._announced.add(row.id)
        entrants = await in_thread(self.t.store.entrants, row.id)
        accounts = [e.player_id for e in entrants if e.player_id is not None and not e.bot]
        try:
            await self.starting(row, accounts)
        except Exception:  # the notifications' trouble is not the tournament's
            log.exception("tournament %s: the starting hook failed", row.id)

    async def _withdraw_banned(self, row: TournamentRow, moment: datetime) -> None:
        """Withdraw from a rated tournament the entrants a moderator has banned from rated
        play since they entered (:meth:`~ghostparty.server.tables.lobby.Lobby.may_sit`, the
        check every way to a seat passes): they are paired no more; a game under way
        still finishes and counts."""
        players = _engine(row).players
        for entrant in await in_thread(self.t.store.entrants, row.id):
            known = players.get(entrant.entrant)
            if entrant.player_id is None or known is None or not known.active:
                continue
            try:
                await self.lobby.may_sit(entrant.player_id, rated=True)
            except ServiceError as error:
                if error.code != ErrorCode.RATED_BANNED:
                    raise
                log.info("tournament %s: %s withdrawn (banned from rated play)", row.id, entrant.name)
                await self.t.update(row.id, functools.partial(_withdrawn, entrant=entrant.entrant, moment=moment))

    # starting and ending ---------------------------------------------------------------

    def _begin(self, row: TournamentRow, engine: Engine, moment: datetime) -> Change | None:
        if row.status != SCHEDULED:
            return None
        if isinstance(engine, (Swiss, Ladder)):
            active = sum(1 for p in engine.players.values() if p.active)
            if active < row.table_size:
                reason = f"not enough players: {active} entered, a table needs {row.table_size}"
                return Change(row.state, CANCELLED, reason, None)
        if isinstance(engine, Ladder) and not any(p.active and not p.house for p in engine.players.values()):
            return Change(row.state, CANCELLED, "no bot account entered: the house bots don't play alone", None)
        return Change(row.state, RUNNING, None, moment)

    # pairing -------------------------------------------------------------------------

    async def _ended(self, row: TournamentRow, engine: Swiss | Ladder, reason: str, *, waiting: bool = False) -> bool:
        """Whether a Swiss or a ladder between rounds pairs nothing now: it is finished
        (stored so), it is ``waiting`` (for its next round's time), or too few of its
        players are left to fill a table (finished, for ``reason``)."""
        if engine.finished():
            await self.t.update(row.id, lambda r, e: Change(r.state, FINISHED) if r.status == RUNNING else None)
            return True
        if waiting:
            return True
        if sum(1 for p in engine.players.values() if p.active) < row.table_size:
            await self.t.update(row.id, lambda r, e: Change(r.state, FINISHED, reason))
            return True
        return False

    async def _pair(self, row: TournamentRow, moment: datetime) -> None:
        engine = _engine(row)
        now = stamp(moment)
        deal: int | None = None
        if isinstance(engine, Ladder):
            if engine.deals and not engine.deals[-1].complete:
                return
            if await self._ended(row, engine, "too few bots are left to pair the next deal"):
                return
            dealt = engine.pair_deal(self.t.rng)
            deal = dealt.seed
            named = [(game.id, game.seats) for group in dealt.groups for game in group.games]
        elif isinstance(engine, Arena):
            if engine.finished(now):
                await self.t.update(row.id, lambda r, e: _ending(r, e, now))
                return
            tables = engine.pairing(now, self.t.rng)
            if not tables:
                return
            first = len(engine.games) + 1
            named = [(f"g{first + i}", seats) for i, seats in enumerate(tables)]
        elif not engine.rounds or engine.rounds[-1].complete:
            reason = "too few players are left to pair the next round"
            if await self._ended(row, engine, reason, waiting=row.round_at is not None and moment < row.round_at):
                return
            paired = engine.pair_round(self.t.rng)
            named = [(f"r{paired.number}t{i + 1}", t.seats) for i, t in enumerate(paired.tables)]
        else:
            return
        await self._seat(row, engine, named, moment, deal)

    async def _seat(
        self,
        row: TournamentRow,
        engine: Engine,
        named: Sequence[tuple[str, Sequence[str]]],
        moment: datetime,
        deal: int | None = None,
    ) -> None:
        """Make the tables of ``named`` games; a ladder's share the die seed ``deal``."""
        entrants = {e.entrant: e for e in await in_thread(self.t.store.entrants, row.id)}
        made: list[tuple[LiveTable, GameRow]] = []
        try:
            for game, members in named:
                seats: list[Seat] = []
                tokens: dict[str, str] = {}
                for i, entrant in enumerate(members):
                    known = entrants[entrant]
                    if known.bot:
                        level = house_level(entrant) or BOT_LEVEL
                        seats.append(await self.lobby.bot_seat(i, level, rated=row.rated))
                        continue
                    tokens[entrant] = self.lobby._token(18)
                    seats.append(
                        Seat(
                            i,
                            "human",
                            name=known.name,
                            token_hash=hash_token(tokens[entrant]),
                            player_id=known.player_id,
                        )
                    )
                live = await self.lobby.insert(
                    row.rules,
                    tuple(seats),
                    None if deal is None else 0,
                    turn_seconds=row.turn_seconds,
                    rated=row.rated,
                    deal=deal,
                )
                made.append((live, GameRow(game, live.table.id, list(members), moment, tokens)))
                if isinstance(engine, Arena):
                    engine.start_game(game, members, stamp(moment))
        except Exception:
            await self._give_up([live for live, _ in made])
            raise
        state = to_json(engine)

        def store(r: TournamentRow, _e: Engine) -> Change | None:
            if r.version != row.version:  # paired from a stale read: another pass came first
                return None
            return Change(state, r.status, r.reason, None, new_games=[g for _, g in made])

        try:
            stored = (await self.t.update(row.id, store))[1]
        except ServiceError:
            stored = None
        if stored is None:
            await self._give_up([live for live, _ in made])
            return
        for live, _ in made:
            await self.lobby.start_seated(live)

    async def _give_up(self, made: Sequence[LiveTable]) -> None:
        for live in made:
            with contextlib.suppress(ServiceError):
                await self.lobby.give_up(live)

    # recording -----------------------------------------------------------------------

    async def _record(self, tournament_id: str) -> None:
        games = [g for g in await in_thread(self.t.store.games, tournament_id) if not g.recorded]
        if not games:
            return
        statuses = await in_thread(self.t.store.table_statuses, [g.table_id for g in games])
        results: dict[str, tuple[list[int], dict[str, int]]] = {}
        for game in games:
            status = statuses.get(game.table_id)
            if status == OPEN and self.t.clock() - game.started >= timedelta(seconds=STUCK_OPEN):
                live = await self.lobby.core.tables.get(game.table_id, fresh=True)
                if live.table.status == OPEN:  # stored, then its instance stopped before the start
                    await self.lobby.start_seated(live)
            if status != OVER:
                continue
            live = await self.lobby.core.tables.get(game.table_id, fresh=True)
            if live.game is None:
                continue
            ranks = places(live.game.state.scores)
            actions = len(live.game.history)
            left = {
                entrant: actions
                for entrant, seat in zip(game.seats, live.table.seats, strict=True)
                if seat.kind == "human" and seat.away and not seat.back
            }
            results[game.game] = (ranks, left)
        if not results:
            return
        moment = stamp(self.t.clock())

        def record(row: TournamentRow, engine: Engine) -> Change | None:
            if row.status not in (*ACTIVE, CANCELLED):
                return None
            done = []
            for game_id, (ranks, left) in results.items():
                if isinstance(engine, Ladder):
                    if engine.game(game_id).places is not None:
                        continue
                    engine.record(game_id, ranks, left)
                elif isinstance(engine, Arena):
                    if engine.games[game_id].places is not None:
                        continue
                    engine.finish_game(game_id, ranks, moment, left)
                else:
                    number, table = (int(x) for x in game_id[1:].split("t"))
                    if engine.rounds[number - 1].tables[table - 1].places is not None:
                        continue
                    engine.record(number, table, ranks, left)
                done.append(game_id)
            if not done:
                return None
            round_at = row.round_at
            if isinstance(engine, Swiss) and engine.rounds[-1].complete:
                pause = 0 if row.turn_seconds >= 3600 else ROUND_PAUSE
                round_at = self.t.clock() + timedelta(seconds=pause)
            return Change(to_json(engine), row.status, row.reason, round_at, recorded=done)

        await self.t.update(tournament_id, record)


def _engine(row: TournamentRow) -> Engine:
    from ghostparty.tournaments import from_json

    return from_json(row.state)


def _ending(row: TournamentRow, engine: Engine, now: float) -> Change | None:
    if row.status != RUNNING or not isinstance(engine, Arena) or not engine.finished(now):
        return None
    return Change(row.state, FINISHED, row.reason, None)


def _withdrawn(row: TournamentRow, engine: Engine, entrant: str, moment: datetime) -> Change | None:
    """``entrant`` paired no more (nothing if the tournament is over meanwhile)."""
    if row.status not in ACTIVE:
        return None
    if isinstance(engine, Arena):
        engine.leave(entrant, stamp(moment))
    else:
        engine.withdraw(entrant)
    return Change(to_json(engine), row.status, row.reason, row.round_at)
