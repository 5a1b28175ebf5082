"""The quick-match queue in the database: one queue for every server instance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, select, update

from ghostparty.server.infra.database import Database
from ghostparty.server.infra.rows import utc
from ghostparty.server.quickmatch.matching import Waiting
from ghostparty.server.quickmatch.schema import queue


@dataclass(frozen=True, slots=True)
class Ticket:
    """A waiting page's entry: still waiting, or seated (table, seat, token)."""

    waiting: Waiting
    name: str
    table_id: str | None
    seat: int | None
    token: str | None


class QueueStore(Protocol):
    """The quick-match queue (:class:`~ghostparty.server.quickmatch.service.QuickMatch` uses it)."""

    def add(self, ticket: str, name: str, entry: Waiting) -> None:
        """Put a player in the queue; a registered player's earlier waiting ticket is replaced."""

    def waiting(self, stale_before: datetime, forget_before: datetime) -> list[Ticket]:
        """Everyone still waiting, the first to join first; drops the waiting tickets last
        seen before ``stale_before`` and the seated ones last seen before ``forget_before``."""

    def claim(self, seats: Mapping[str, tuple[str, int, str]]) -> bool:
        """Seat the waiting tickets (ticket -> table, seat, token), all or none."""

    def look(self, ticket: str, now: datetime) -> Ticket | None:
        """The ticket, seen at ``now``."""

    def leave(self, ticket: str) -> bool:
        """Leave the queue; ``False`` if the ticket was already seated (or unknown)."""

    def count_waiting(self) -> int:
        """How many tickets wait (seated ones not counted)."""

    def all_waiting(self) -> Sequence[Waiting]:
        """Every waiting ticket's entry, in no particular order."""


class SqlQueue:
    """The queue on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def add(self, ticket: str, name: str, entry: Waiting) -> None:
        """Put a player in the queue; a registered player's earlier ticket is replaced."""
        with self._writing, self.engine.begin() as conn:
            if entry.player_id is not None:
                conn.execute(delete(queue).where(queue.c.player_id == entry.player_id, queue.c.table_id.is_(None)))
            conn.execute(
                insert(queue).values(
                    id=ticket,
                    player_id=entry.player_id,
                    name=name,
                    rules=entry.rules,
                    players=entry.players,
                    rated=entry.rated,
                    bots_after=entry.bots_after,
                    rating=entry.rating,
                    bot_account=entry.bot,
                    allow_bots=entry.allow_bots,
                    joined=entry.joined,
                    seen=entry.joined,
                )
            )

    def waiting(self, stale_before: datetime, forget_before: datetime) -> list[Ticket]:
        """Everyone still waiting; drops those whose page stopped asking before
        ``stale_before`` and seated tickets older than ``forget_before``."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(queue).where(queue.c.table_id.is_(None), queue.c.seen < stale_before))
            conn.execute(delete(queue).where(queue.c.table_id.is_not(None), queue.c.seen < forget_before))
        with self.engine.connect() as conn:
            rows = conn.execute(select(queue).where(queue.c.table_id.is_(None)).order_by(queue.c.joined))
            return [_ticket(row) for row in rows]

    def claim(self, seats: Mapping[str, tuple[str, int, str]]) -> bool:
        """Seat the waiting tickets (ticket -> table, seat, token), all or none: ``False``
        (and nothing changed) if one of them is no longer waiting."""
        try:
            with self._writing, self.engine.begin() as conn:
                for ticket, (table_id, seat, token) in seats.items():
                    done = conn.execute(
                        update(queue)
                        .where(queue.c.id == ticket, queue.c.table_id.is_(None))
                        .values(table_id=table_id, seat=seat, token=token)
                    )
                    if done.rowcount != 1:
                        raise _Taken
        except _Taken:
            return False
        return True

    def look(self, ticket: str, now: datetime) -> Ticket | None:
        """The ticket, and the page is still there (its ``seen`` moves on)."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(queue).where(queue.c.id == ticket).values(seen=now))
            row = conn.execute(select(queue).where(queue.c.id == ticket)).first()
        return _ticket(row) if row is not None else None

    def leave(self, ticket: str) -> bool:
        """Leave the queue; ``False`` if the ticket was already seated (or unknown)."""
        with self._writing, self.engine.begin() as conn:
            return conn.execute(delete(queue).where(queue.c.id == ticket, queue.c.table_id.is_(None))).rowcount == 1

    def count_waiting(self) -> int:
        """How many tickets wait (seated ones not counted)."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(queue).where(queue.c.table_id.is_(None))).scalar_one()
            )

    def all_waiting(self) -> Sequence[Waiting]:
        with self.engine.connect() as conn:
            return [_ticket(row).waiting for row in conn.execute(select(queue).where(queue.c.table_id.is_(None)))]


class _Taken(Exception):
    """A ticket was seated by another instance first: roll back."""


def _ticket(row: Any) -> Ticket:
    waiting = Waiting(
        ticket=row.id,
        rules=row.rules,
        players=row.players,
        rated=bool(row.rated),
        bots_after=row.bots_after,
        joined=utc(row.joined),
        player_id=row.player_id,
        rating=row.rating,
        bot=bool(row.bot_account),
        allow_bots=bool(row.allow_bots),
    )
    return Ticket(waiting, row.name, row.table_id, row.seat, row.token)
