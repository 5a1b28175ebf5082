"""Game reviews kept with their games (table ``gp_reviews``, migration 0010), or in this
process's memory for a :class:`~ghostparty.server.stores.MemoryStore`'s server.

A review is written once, when its job is done (:mod:`ghostparty.server.reviews.pool`), and read by any
instance; a player's recent reviews (the games where one of their seats was theirs) feed
the profile's accuracy and PR per rule set (:mod:`ghostparty.server.http.routes.reviews`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import delete, insert, select

from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import seats, tables
from ghostparty.server.infra.rows import utc
from ghostparty.server.reviews.schema import reviews


@dataclass(frozen=True, slots=True)
class StoredReview:
    """One game's review as kept: the review code's version, the review
    (``ghostparty-review/1``), when it was made and the CPU seconds it took."""

    table_id: str
    version: str
    review: dict[str, Any]
    computed: datetime
    cpu_seconds: float


@dataclass(frozen=True, slots=True)
class SeatReview:
    """A player's seat in a reviewed game: the profile's raw material."""

    table_id: str
    rules: str
    seat: int
    computed: datetime
    review: dict[str, Any]


class ReviewStore(Protocol):
    def review(self, table_id: str) -> StoredReview | None:
        """The stored review of a game, of whatever version."""

    def put(self, stored: StoredReview) -> None:
        """Keep ``stored``, replacing the game's review of another version."""

    def of_player(self, player_id: int, limit: int) -> list[SeatReview]:
        """The player's seats in their ``limit`` most recently reviewed games, newest first."""


class SqlReviews:
    """Reviews in the store's database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def review(self, table_id: str) -> StoredReview | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews).where(reviews.c.table_id == table_id)).mappings().first()
        if row is None:
            return None
        return StoredReview(row.table_id, row.version, row.review, utc(row.computed), row.cpu_seconds)

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
            conn.execute(delete(reviews).where(reviews.c.table_id == stored.table_id))
            conn.execute(insert(reviews).values(**values))

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
        self._reviews: dict[str, StoredReview] = {}

    def review(self, table_id: str) -> StoredReview | None:
        with self._lock:
            return self._reviews.get(table_id)

    def put(self, stored: StoredReview) -> None:
        with self._lock:
            self._reviews[stored.table_id] = stored

    def of_player(self, player_id: int, limit: int) -> list[SeatReview]:
        return []
