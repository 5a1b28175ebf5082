"""What every store of reviews promises (:class:`~ghostparty.server.reviews.store.ReviewStore`),
held against each one: :class:`MemoryReviews`, and :class:`SqlReviews` on a SQLite file and
on PostgreSQL (the ``any_store`` fixture). A player's reviews (``of_player``) need the
accounts' seats, which only a database keeps: tests/server/reviews/test_reviews.py has them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ghostparty.server.common.model import OVER, Seat, Table
from ghostparty.server.reviews.store import MemoryReviews, ReviewStore, StoredReview
from ghostparty.server.stores import MemoryStore, SqlStores
from ghostparty.server.tables.store import SqlTables, Store
from tests.server.tables.test_store_contract import race

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


@pytest.fixture
def reviews(any_store: Store) -> ReviewStore:
    """The reviews kept beside ``any_store``: in memory, or the domain's SQL store on its database."""
    for n in range(3):
        seats = (Seat(0, "bot", bot="random"), Seat(1, "bot", bot="greedy"))
        assert any_store.create(Table(f"game{n}", "hugo", 2, seats, seed=n, status=OVER, version=9))
    if isinstance(any_store, SqlTables):
        return SqlStores.on(any_store).reviews
    assert isinstance(any_store, MemoryStore)
    return MemoryReviews()


def _review(table_id: str, version: str = "v1", accuracy: float = 80.0, minutes: int = 0) -> StoredReview:
    body = {"format": "ghostparty-review/1", "players_review": [{"seat": 0, "accuracy": accuracy}]}
    return StoredReview(table_id, version, body, T0 + timedelta(minutes=minutes), 1.25)


def test_a_game_without_a_review_has_none(reviews: ReviewStore) -> None:
    assert reviews.review("game0") is None
    assert reviews.review("no-such-game") is None


def test_a_review_put_is_read_back_as_it_was(reviews: ReviewStore) -> None:
    stored = _review("game0")
    reviews.put(stored)
    assert reviews.review("game0") == stored
    assert reviews.review("game1") is None


def test_a_review_of_another_version_replaces_the_games_review(reviews: ReviewStore) -> None:
    reviews.put(_review("game0", "v1", 80.0))
    reviews.put(_review("game1", "v1", 60.0))
    newer = _review("game0", "v2", 90.0, minutes=5)
    reviews.put(newer)
    assert reviews.review("game0") == newer
    assert reviews.review("game1") == _review("game1", "v1", 60.0)


def test_reviews_put_at_once_leave_exactly_one_of_them(reviews: ReviewStore) -> None:
    made = [_review("game2", f"v{n}", 50.0 + n, minutes=n) for n in range(6)]
    race(len(made), lambda i: reviews.put(made[i]))
    assert reviews.review("game2") in made
