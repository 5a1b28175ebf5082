"""Deep reviews through the API: made only when asked for (``?judge=deep``), on the review
queue, stored beside the game's review; refused for games under way, from other sites,
for an unknown judge and past their own tighter limits."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from ghostparty.analysis.review import Evaluator
from ghostparty.analysis.review.deep_review import deep_review_game
from ghostparty.rules import GameRecord
from ghostparty.server.app import create_app
from ghostparty.server.common.errors import ServiceError
from ghostparty.server.infra.engine import database_url
from ghostparty.server.reviews.pool import DEEP_REVIEW_VERSION, REVIEW_VERSION, Reviewer
from ghostparty.server.reviews.schema import deep_reviews, reviews
from ghostparty.server.reviews.store import MemoryReviews, StoredReview

from .test_reviews import _Held, finished_game

#: Cheap reviews: one roll deep, no solver, two rollouts of two candidates cut after one roll.
DEEP = {"rollouts": 2, "cut": 1, "width": 2}
CHEAP: dict[str, Any] = {"depth": 1, "horizon": 0, "deep": DEEP}


@contextmanager
def server(url: str) -> Iterator[TestClient]:
    app = create_app(url, bot_delay=0.0, seed=3, tables_per_minute=1000, review_settings=CHEAP)
    with TestClient(app) as client:
        yield client


def deep_reviewed(client: TestClient, table_id: str) -> dict[str, Any]:
    """Ask until the deep review is done; every answer before is 202 with a progress."""
    for _ in range(900):
        response = client.get(f"/api/tables/{table_id}/review?judge=deep")
        if response.status_code == 200:
            return dict(response.json())
        assert response.status_code == 202, response.text
        body = response.json()
        assert body["status"] in {"queued", "running"} and 0 <= body["progress"] <= 1
        time.sleep(0.1)
    raise AssertionError("no deep review")


def test_a_deep_review_is_made_when_asked_for_and_stored_beside_the_review(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table_id = finished_game(client)
        first = client.get(f"/api/tables/{table_id}/review?judge=deep")
        assert first.status_code == 202 and first.json()["status"] in {"queued", "running"}
        answer = deep_reviewed(client, table_id)
        reviewer = client.app.state.parts.reviewer  # type: ignore[attr-defined]
        assert reviewer.store.review(table_id) is None  # the deep one starts no fast one
        record = GameRecord.from_dict(client.get(f"/api/tables/{table_id}/record").json())
        fast = client.get(f"/api/tables/{table_id}/review")
        assert fast.status_code == 202  # a job of its own
        for _ in range(600):
            fast = client.get(f"/api/tables/{table_id}/review")
            if fast.status_code == 200:
                break
            time.sleep(0.1)
    review = answer["review"]
    expected = deep_review_game(record, **DEEP, evaluator=Evaluator(depth=1, horizon=0)).as_dict()
    assert review["judge"] == "deep" and review["settings"]["deep"] == expected["settings"]["deep"]
    assert review["steps"] == expected["steps"] and answer["cpu_seconds"] > 0
    assert fast.status_code == 200 and fast.json()["review"]["judge"] == "fast"
    engine = create_engine(database_url(sqlite_url))
    with engine.connect() as conn:
        deep_rows = conn.execute(select(deep_reviews.c.table_id, deep_reviews.c.version)).all()
        fast_rows = conn.execute(select(reviews.c.table_id, reviews.c.version)).all()
    engine.dispose()
    assert [tuple(r) for r in deep_rows] == [(table_id, DEEP_REVIEW_VERSION)]
    assert [tuple(r) for r in fast_rows] == [(table_id, REVIEW_VERSION)]
    with server(sqlite_url) as client:  # stored: served at once, no job
        again = client.get(f"/api/tables/{table_id}/review?judge=deep")
        assert again.status_code == 200 and again.json()["review"] == review
        assert client.app.state.parts.reviewer.jobs == {}  # type: ignore[attr-defined]


def test_a_deep_review_is_refused_for_games_under_way_other_sites_and_unknown_judges(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        response = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot"}]})
        open_table = response.json()["table"]["id"]
        under_way = client.get(f"/api/tables/{open_table}/review?judge=deep")
        assert under_way.status_code == 400 and under_way.json()["error"]["code"] == "not_over"
        table_id = finished_game(client)
        for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://elsewhere.example"}):
            other_site = client.get(f"/api/tables/{table_id}/review?judge=deep", headers=headers)
            assert other_site.status_code == 403 and other_site.json()["error"]["code"] == "cross_site"
        unknown = client.get(f"/api/tables/{table_id}/review?judge=" + "x" * 500)
        assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "bad_request"
        assert "fast, deep" in unknown.json()["error"]["message"] and "x" * 21 not in unknown.text
        assert client.app.state.parts.reviewer.jobs == {}  # type: ignore[attr-defined]


def test_deep_reviews_have_their_own_tighter_limit_and_leave_the_reviews_their_own(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        reviewer = client.app.state.parts.reviewer  # type: ignore[attr-defined]
        reviewer.max_jobs = 100
        games = [finished_game(client) for _ in range(3)]
        started = [client.get(f"/api/tables/{t}/review?judge=deep") for t in games]
        assert [r.status_code for r in started[:2]] == [202, 202]
        refused = started[2]
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "2 deep reviews" in refused.json()["error"]["message"] and "Retry-After" in refused.headers
        assert set(reviewer.jobs) == {f"{t}:deep" for t in games[:2]}
        asking_again = client.get(f"/api/tables/{games[0]}/review?judge=deep")  # its progress: no new start
        assert asking_again.status_code in {200, 202}
        fast = client.get(f"/api/tables/{games[2]}/review")  # the reviews' own limit is untouched
        assert fast.status_code == 202


def test_the_stores_keep_each_judges_review_apart(store_url: str) -> None:
    from ghostparty.server.common.model import OVER, Seat, Table
    from ghostparty.server.stores import SqlStores

    when = datetime(2026, 11, 26, 12, tzinfo=UTC)
    fast = StoredReview("t1", REVIEW_VERSION, {"judge": "fast"}, when, 1.0)
    deep = StoredReview("t1", DEEP_REVIEW_VERSION, {"judge": "deep"}, when, 9.0, "deep")
    memory = MemoryReviews()
    store = SqlStores.open(store_url)
    try:
        seats = tuple(Seat(s, "bot", name="x") for s in range(2))
        assert store.tables.create(Table("t1", "hugo", 2, seats, seed=1, status=OVER, version=9))
        for kept in (memory, store.reviews):
            assert kept.review("t1", "deep") is None
            kept.put(deep)
            assert kept.review("t1") is None and kept.review("t1", "deep") == deep
            kept.put(fast)
            assert kept.review("t1") == fast and kept.review("t1", "deep") == deep
            with pytest.raises(ValueError, match="one of fast, deep"):
                kept.put(StoredReview("t1", "v", {}, when, 1.0, "other"))
    finally:
        store.close()


def test_a_games_review_and_its_deep_review_are_two_jobs_of_one_bounded_queue() -> None:
    async def scenario() -> None:
        reviewer = Reviewer(MemoryReviews(), max_jobs=2, clock=lambda: datetime(2026, 11, 26, tzinfo=UTC))
        held = _Held()
        reviewer._executor = lambda: held  # type: ignore[assignment,method-assign,return-value]
        records = 0

        async def record() -> dict[str, Any]:
            nonlocal records
            records += 1
            await asyncio.sleep(0)
            return {}

        answers = await asyncio.gather(*(reviewer.review("a", record, "deep") for _ in range(5)))
        assert [a["status"] for a in answers] == ["queued"] * 5 and held.submitted == ["a:deep"] and records == 1
        await reviewer.review("a", record)  # the review: a job of its own
        assert held.submitted == ["a:deep", "a"]
        with pytest.raises(ServiceError) as full:  # deep reviews wait in the same bounded queue
            await reviewer.review("b", record, "deep")
        assert full.value.code == "busy"
        held.release()
        await reviewer.wait("a", "deep")
        await reviewer.wait("a")
        stored = reviewer.store.review("a", "deep")
        assert stored is not None and stored.version == DEEP_REVIEW_VERSION and stored.judge == "deep"
        assert (await reviewer.review("a", record, "deep"))["review"] == {"table": "a:deep"}
        assert (await reviewer.review("a", record))["review"] == {"table": "a"} and records == 2

    asyncio.run(scenario())
