"""Quick-match ("Play now"): players wait in a queue kept in the database, and tables
are formed from it (:mod:`ghostparty.server.quickmatch.matching`) and started.

Forming runs on the instance keeping shard 0 (every second) and, for speed, on the
instance where someone just joined; two instances forming at once can't seat a player
twice, since seating claims every member's ticket in one transaction (a
compare-and-set each: still waiting?) and gives up the table if any was taken first.
Two players of whom one blocked the other are never seated together (the blocks are
read from the store at each forming). A waiting page asks for its ticket every few seconds; a page that stopped asking for
:data:`STALE` seconds has left the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.quickmatch.matching import RELIABLE_AFTER, Group, Waiting, counts, propose, rating_range, waited
from ghostparty.server.quickmatch.store import QueueStore
from ghostparty.server.tables.lobby import Lobby
from ghostparty.server.tables.standings import Reliability

log = logging.getLogger("ghostparty.server")

#: Seconds after which a page that stopped asking has left the queue.
STALE = 20.0
#: Seconds a seated ticket is kept, for a page whose answer was lost to ask again.
FORGET = 300.0
#: The longest wait before bots one may ask for, in seconds.
MAX_BOTS_AFTER = 3600
#: The level of the bots that fill empty seats.
FILL_BOT = "greedy"
#: Strangers' tables are timed: seconds per decision (then the table's bot plays on).
TURN_SECONDS = 60


#: Refused tickets remembered for their next look, at most (the oldest forgotten first).
MAX_REFUSED = 1000


def ticket_hash(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


class QuickMatch:
    """The queue and the forming of its tables.

    ``rating`` gives a registered player's shown rating in a rule set (for the rated
    queue); ``clock`` the time (tests move it).
    """

    def __init__(
        self,
        queue: QueueStore,
        lobby: Lobby,
        *,
        rating: Callable[[int, str], Awaitable[int]],
        avoided: Callable[[Iterable[int]], dict[int, frozenset[int]]] | None = None,
        finishing: Callable[[Sequence[int]], dict[int, Reliability]] | None = None,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.queue = queue
        self.lobby = lobby
        self.rating = rating
        #: Per waiting account, the others waiting it blocked or was blocked by (read
        #: from the store on every forming, so any instance keeps them apart).
        self.avoided = avoided
        #: Per waiting account, how often it finished its games (:attr:`Waiting.finishes`).
        self.finishing = finishing
        self.clock = clock
        self._forming = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: Tickets taken out of the queue by a ban from rated play while they waited, with
        #: the ban's words: their next look says why (on this instance; elsewhere, gone).
        self._refused: dict[str, str] = {}

    def run(self, keeps: Callable[[], bool], every: float = 1.0) -> None:
        """Form tables every ``every`` seconds while ``keeps()`` (this instance keeps
        shard 0: one instance forms in the background, any may after a join)."""
        self._task = asyncio.get_running_loop().create_task(self._loop(keeps, every))

    async def _loop(self, keeps: Callable[[], bool], every: float) -> None:
        while True:
            await asyncio.sleep(every)
            if keeps():
                try:
                    await self.form()
                except StoreUnavailable as error:
                    log.warning("quick-match: the store is unavailable (%s)", error)
                except Exception:
                    log.exception("quick-match: forming tables failed")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def join(
        self,
        rules: str,
        players: int | None,
        rated: bool,
        bots_after: int | None,
        *,
        player: tuple[int, str] | None = None,
        name: str | None = None,
        bot: bool = False,
        allow_bots: bool = False,
    ) -> str:
        """Wait for a table; returns the ticket (a secret) the page asks with."""
        if rules not in ("hugo", "midnight-party"):
            raise ServiceError(ErrorCode.BAD_REQUEST, f"unknown rules {rules!r}: expected 'hugo' or 'midnight-party'")
        if players is not None and not 2 <= players <= 8:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"players must be 2 to 8 or null for any, not {players}")
        if bots_after is not None and not 0 <= bots_after <= MAX_BOTS_AFTER:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"bots_after must be 0 to {MAX_BOTS_AFTER} seconds or null (never)"
            )
        if rated and player is None:
            raise ServiceError(
                ErrorCode.REGISTERED_ONLY, "rated games are for registered players: log in to play rated"
            )
        shown_name = player[1] if player is not None else await self.lobby.guest_name(name)
        rating = await self.rating(player[0], rules) if rated and player is not None else None
        ticket = secrets.token_urlsafe(24)
        entry = Waiting(
            ticket_hash(ticket),
            rules,
            players,
            rated,
            bots_after,
            self.clock(),
            player[0] if player is not None else None,
            rating,
            bot=bot,
            allow_bots=allow_bots or bot,
        )
        await in_thread(self.queue.add, entry.ticket, shown_name, entry)
        await self.form()
        return ticket

    async def look(self, ticket: str) -> dict[str, Any]:
        """Where a ticket stands: waiting (for how long, the ratings it accepts) or seated."""
        refused = self._refused.pop(ticket_hash(ticket), None)
        if refused is not None:
            raise ServiceError(ErrorCode.RATED_BANNED, refused)
        found = await in_thread(self.queue.look, ticket_hash(ticket), self.clock())
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_TICKET, "no such ticket: it was seated long ago, or left the queue")
        if found.table_id is not None:
            return {"status": "seated", "table": found.table_id, "seat": found.seat, "token": found.token}
        now = self.clock()
        limits = rating_range(found.waiting, now)
        return {
            "status": "waiting",
            "waited": round(waited(found.waiting, now)),
            "range": list(limits) if limits is not None else None,
        }

    async def leave(self, ticket: str) -> bool:
        return await in_thread(self.queue.leave, ticket_hash(ticket))

    async def waiting(self) -> list[dict[str, Any]]:
        """How many wait per setting, for the lobby."""
        entries = await in_thread(self.queue.all_waiting)
        return [
            {"rules": rules, "players": players, "rated": rated, "count": n}
            for rules, players, rated, n in counts(entries)
        ]

    async def form(self) -> int:
        """Form and start the tables the queue makes now; how many."""
        async with self._forming:
            now = self.clock()
            tickets = await in_thread(
                self.queue.waiting, now - timedelta(seconds=STALE), now - timedelta(seconds=FORGET)
            )
            names = {t.waiting.ticket: t.name for t in tickets}
            waiting = await self._without_banned([t.waiting for t in tickets])
            if self.avoided is not None:
                ids = [w.player_id for w in waiting if w.player_id is not None]
                avoid = await in_thread(self.avoided, ids)
                waiting = [replace(w, avoid=avoid.get(w.player_id, frozenset())) if w.player_id else w for w in waiting]
            if self.finishing is not None:
                records = await in_thread(self.finishing, [w.player_id for w in waiting if w.player_id is not None])
                waiting = [
                    replace(w, finishes=_finishes(records.get(w.player_id))) if w.player_id else w for w in waiting
                ]
            formed = 0
            for group in propose(waiting, now):
                try:
                    formed += await self._seat(group, names)
                except (ServiceError, StoreUnavailable) as error:
                    log.warning("could not form a quick-match table: %s", error)
            return formed

    async def _without_banned(self, waiting: list[Waiting]) -> list[Waiting]:
        """``waiting`` less the rated tickets of accounts banned from rated play since they
        joined (:meth:`~ghostparty.server.tables.lobby.Lobby.may_sit`, the check every way
        to a seat passes), which leave the queue."""
        kept = []
        for entry in waiting:
            if entry.rated and entry.player_id is not None:
                try:
                    await self.lobby.may_sit(entry.player_id, rated=True)
                except ServiceError as error:
                    if error.code != ErrorCode.RATED_BANNED:
                        raise
                    if await in_thread(self.queue.leave, entry.ticket):
                        if len(self._refused) >= MAX_REFUSED:
                            self._refused.pop(next(iter(self._refused)))
                        self._refused[entry.ticket] = error.message
                    continue
            kept.append(entry)
        return kept

    async def _seat(self, group: Group, names: dict[str, str]) -> int:
        people = [(names[m.ticket], m.player_id) for m in group.members]
        live, tokens = await self.lobby.create_seated(
            group.rules, people, bots=group.bots, bot_level=FILL_BOT, rated=group.rated, turn_seconds=TURN_SECONDS
        )
        claims = {
            m.ticket: (live.table.id, seat, token) for m, (seat, token) in zip(group.members, tokens, strict=True)
        }
        if not await in_thread(self.queue.claim, claims):  # another instance seated one first: give it up
            await self.lobby.give_up(live)
            return 0
        await self.lobby.start_seated(live)
        return 1


def _finishes(record: Reliability | None) -> float | None:
    """The share finished as quick-match weighs it: ``None`` (trusted) for guests and
    players of fewer than :data:`~ghostparty.server.quickmatch.matching.RELIABLE_AFTER` games."""
    return record.share if record is not None and record.games >= RELIABLE_AFTER else None
