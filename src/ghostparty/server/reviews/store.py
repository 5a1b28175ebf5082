"""Game reviews kept with their games (table ``gp_reviews``, migration 0010; the deep
reviews, made only when asked for, beside them in ``gp_deep_reviews``, migration 0021), or
in this process's memory for a :class:`~ghostparty.server.stores.MemoryStore`'s server.

A review is written once, when its job is done (:mod:`ghostparty.server.reviews.pool`), and read by any
instance; a player's recent reviews (the games where one of their seats was theirs) feed
the profile's accuracy and PR per rule set (:mod:`ghostparty.server.http.routes.reviews`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Table, delete, insert, select

from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import seats, tables
from ghostparty.server.infra.rows import utc
from ghostparty.server.reviews.schema import deep_reviews, reviews

#: Who judged a review's decisions: the evaluator's search (every finished game's) or the deep analysis.
JUDGES = ("fast", "deep")


@dataclass(frozen=True, slots=True)
class StoredReview:
    """One game's review as kept: the review code's version, the review
    (``ghostparty-review/1``), when it was made, the CPU seconds it took and its judge
    (one of :data:`JUDGES`)."""

    table_id: str
    version: str
    review: dict[str, Any]
    computed: datetime
    cpu_seconds: float
    judge: str = "fast"


@dataclass(frozen=True, slots=True)
class SeatReview:
    """A player's seat in a reviewed game: the profile's raw material."""

    table_id: str
    rules: str
    seat: int
    computed: datetime
    review: dict[str, Any]


class ReviewStore(Protocol):
    def review(self, table_id: str, judge: str = "fast") -> StoredReview | None:
        """The stored review of a game by ``judge``, of whatever version."""

    def put(self, stored: StoredReview) -> None:
        """Keep ``stored``, replacing the game's review by the same judge of another version."""

    def of_player(self, player_id: int, limit: int) -> list[SeatReview]:
        """The player's seats in their ``limit`` most recently reviewed games, newest first."""


class SqlReviews:
    """Reviews in the store's database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def review(self, table_id: str, judge: str = "fast") -> StoredReview | None:
        table = _table(judge)
        with self.engine.connect() as conn:
            row = conn.execute(select(table).where(table.c.table_id == table_id)).mappings().first()
        if row is None:
            return None
        return StoredReview(row.table_id, row.version, row.review, utc(row.computed), row.cpu_seconds, judge)

    def put(self, stored: StoredReview) -> None:
        values = {
            "table_id": stored.table_id,
            "version": stored.version,
            "review": stored.review,
            "computed": stored.computed,
            "cpu_seconds": stored.cpu_seconds,
        }
        with self._writing, self.engine.begin() as conn:
            # The game's row locked first: reviews of one game stored at once (two
            # workers, two instances) take turns instead of both inserting after the delete.
            conn.execute(select(tables.c.id).where(tables.c.id == stored.table_id).with_for_update())
            table = _table(stored.judge)
            conn.execute(delete(table).where(table.c.table_id == stored.table_id))
            conn.execute(insert(table).values(**values))

    def of_player(self, player_id: int, limit: int) -> list[SeatReview]:
        recent = (
            select(reviews.c.table_id)
            .join(seats, seats.c.table_id == reviews.c.table_id)
            .where(seats.c.player_id == player_id)
            .group_by(reviews.c.table_id, reviews.c.computed)
            .order_by(reviews.c.computed.desc())
            .limit(limit)
        ).subquery()
        query = (
            select(reviews.c.table_id, tables.c.rules, seats.c.seat, reviews.c.computed, reviews.c.review)
            .join(recent, recent.c.table_id == reviews.c.table_id)
            .join(tables, tables.c.id == reviews.c.table_id)
            .join(seats, seats.c.table_id == reviews.c.table_id)
            .where(seats.c.player_id == player_id)
            .order_by(reviews.c.computed.desc(), seats.c.seat)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [SeatReview(r.table_id, r.rules, r.seat, utc(r.computed), r.review) for r in rows]


class MemoryReviews:
    """Reviews in this process (a server on a :class:`~ghostparty.server.stores.MemoryStore`:
    no accounts, so no player has reviews to list)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reviews: dict[tuple[str, str], StoredReview] = {}

    def review(self, table_id: str, judge: str = "fast") -> StoredReview | None:
        with self._lock:
            return self._reviews.get((table_id, judge))

    def put(self, stored: StoredReview) -> None:
        _table(stored.judge)
        with self._lock:
            self._reviews[stored.table_id, stored.judge] = stored

    def of_player(self, player_id: int, limit: int) -> list[SeatReview]:
        return []


def _table(judge: str) -> Table:
    """The table of ``judge``'s reviews.

    :raises ValueError: for a judge not in :data:`JUDGES`."""
    if judge not in JUDGES:
        raise ValueError(f"a review's judge is one of {', '.join(JUDGES)}, not {judge!r}")
    return deep_reviews if judge == "deep" else reviews
