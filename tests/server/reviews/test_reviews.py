"""Game reviews through the API: made once off the event loop, stored, served; refused
for games under way, from other sites, past the limits and when the queue is full."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.rules import GameRecord
from ghostparty.server.app import create_app
from ghostparty.server.common.errors import ServiceError
from ghostparty.server.http.edge import http_status
from ghostparty.server.http.routes.reviews import review_stats
from ghostparty.server.infra.engine import database_url
from ghostparty.server.reviews.pool import REVIEW_VERSION, Reviewer
from ghostparty.server.reviews.schema import reviews
from ghostparty.server.reviews.store import MemoryReviews, SeatReview

#: Cheap reviews: one roll deep, no solver.
CHEAP = {"depth": 1, "horizon": 0}
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


@contextmanager
def server(url: str, *, review_finished: bool = False) -> Iterator[TestClient]:
    app = create_app(
        url, bot_delay=0.0, seed=3, tables_per_minute=1000, review_settings=CHEAP, review_finished=review_finished
    )
    with TestClient(app) as client:
        yield client


def finished_game(client: TestClient) -> str:
    """A bots' game, played to its end."""
    response = client.post("/api/tables", json={"rules": "hugo", "seats": BOTS, "first_player": 0})
    assert response.status_code == 201, response.text
    table_id = str(response.json()["table"]["id"])
    for _ in range(500):
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
            return table_id
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} did not finish")


def reviewed(client: TestClient, table_id: str) -> dict[str, Any]:
    """Ask until the review is done; every answer before is 202 with a progress."""
    seen = []
    for _ in range(600):
        response = client.get(f"/api/tables/{table_id}/review")
        if response.status_code == 200:
            return dict(response.json())
        assert response.status_code == 202, response.text
        body = response.json()
        assert body["status"] in {"queued", "running"} and 0 <= body["progress"] <= 1
        seen.append(body["progress"])
        time.sleep(0.1)
    raise AssertionError(f"no review after {seen}")


def test_a_finished_game_is_reviewed_once_stored_and_served_by_a_restarted_server(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table_id = finished_game(client)
        first = client.get(f"/api/tables/{table_id}/review")
        assert first.status_code == 202 and first.json()["status"] in {"queued", "running"}
        answer = reviewed(client, table_id)
        record = GameRecord.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    expected = review_game(record, evaluator=Evaluator(**CHEAP)).as_dict()
    review = answer["review"]
    assert answer["status"] == "done" and answer["cpu_seconds"] > 0
    assert review["format"] == "ghostparty-review/1" and review["winners"] == expected["winners"]
    assert review["win_chances"] == expected["win_chances"] and len(review["steps"]) == len(record.actions)
    engine = create_engine(database_url(sqlite_url))
    with engine.connect() as conn:
        rows = conn.execute(select(reviews.c.table_id, reviews.c.version)).all()
    engine.dispose()
    assert [tuple(row) for row in rows] == [(table_id, REVIEW_VERSION)]
    with server(sqlite_url) as client:  # stored: served at once, no job
        again = client.get(f"/api/tables/{table_id}/review")
        assert again.status_code == 200 and again.json()["review"] == review
        assert client.app.state.parts.reviewer.jobs == {}  # type: ignore[attr-defined]


def test_with_review_finished_a_game_is_reviewed_as_it_ends_unasked(sqlite_url: str) -> None:
    with server(sqlite_url, review_finished=True) as client:
        reviewer = client.app.state.parts.reviewer  # type: ignore[attr-defined]
        table_id = finished_game(client)
        deadline = time.monotonic() + 60
        while reviewer.store.review(table_id) is None:
            assert time.monotonic() < deadline, "the finished game was not reviewed"
            time.sleep(0.1)
        answer = client.get(f"/api/tables/{table_id}/review")
        assert answer.status_code == 200 and answer.json()["review"]["finished"] is True


def test_games_under_way_unknown_tables_and_other_sites_get_no_review(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        response = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, BOTS[0]]})
        open_table = response.json()["table"]["id"]
        under_way = client.get(f"/api/tables/{open_table}/review")
        assert under_way.status_code == 400 and under_way.json()["error"]["code"] == "not_over"
        missing = client.get("/api/tables/nosuchtable/review")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_table"
        table_id = finished_game(client)
        other_site = client.get(f"/api/tables/{table_id}/review", headers={"Sec-Fetch-Site": "cross-site"})
        assert other_site.status_code == 403 and other_site.json()["error"]["code"] == "cross_site"
        assert client.app.state.parts.reviewer.jobs == {}  # type: ignore[attr-defined]


def test_one_address_may_start_only_so_many_reviews_and_ask_only_so_often(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        client.app.state.parts.reviewer.max_jobs = 100  # type: ignore[attr-defined]
        games = [finished_game(client) for _ in range(6)]
        first_read = time.monotonic()
        started = [client.get(f"/api/tables/{t}/review") for t in games]
        assert [r.status_code for r in started[:5]] == [202] * 5
        refused = started[5]
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "5 game reviews" in refused.json()["error"]["message"] and "Retry-After" in refused.headers
        assert set(client.app.state.parts.reviewer.jobs) <= set(games[:5])  # type: ignore[attr-defined]
        # Polling is limited too: 120 reads a minute, a read's room coming back every 0.5 s
        # (limits.py counts like a leaky bucket): refused at the 115th read (6 came first),
        # give or take the reads that came back while these were made (a loaded machine).
        statuses: list[int] = []
        while 429 not in statuses and len(statuses) < 240:
            statuses.append(client.get(f"/api/tables/{games[0]}/review").status_code)
        came_back = int((time.monotonic() - first_read) / 0.5) + 1
        assert set(statuses) <= {200, 202, 429}
        assert statuses[-1] == 429, statuses
        assert 120 - len(games) + 1 <= len(statuses) <= 120 - len(games) + 1 + came_back, (len(statuses), came_back)


class _Held:
    """An executor whose jobs wait for :meth:`release`: the queue stays full meanwhile."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.gate = threading.Event()
        self.submitted: list[str] = []

    def submit(
        self, job: Any, table_id: str, record: dict[str, Any], settings: dict[str, Any], judge: str = "fast"
    ) -> Future[Any]:
        self.submitted.append(table_id)

        def held() -> Any:
            self.gate.wait(10)
            return {"table": table_id}, 0.5

        return self.pool.submit(held)

    def release(self) -> None:
        self.gate.set()
        self.pool.shutdown()


def test_the_queue_takes_each_game_once_and_refuses_more_than_it_holds() -> None:
    async def scenario() -> None:
        store = MemoryReviews()
        reviewer = Reviewer(store, max_jobs=2, clock=lambda: datetime(2026, 11, 26, tzinfo=UTC))
        held = _Held()
        reviewer._executor = lambda: held  # type: ignore[assignment,method-assign,return-value]
        records = 0

        async def record() -> dict[str, Any]:
            nonlocal records
            records += 1
            await asyncio.sleep(0)
            return {}

        answers = await asyncio.gather(*(reviewer.review("a", record) for _ in range(5)))
        assert [a["status"] for a in answers] == ["queued"] * 5 and held.submitted == ["a"] and records == 1
        await reviewer.review("b", record)
        with pytest.raises(ServiceError) as full:
            await reviewer.review("c", record)
        assert http_status(full.value.code) == 503 and full.value.code == "busy" and full.value.retry_after == 30
        held.release()
        await reviewer.wait("a")
        await reviewer.wait("b")
        assert (await reviewer.review("a", record))["review"] == {"table": "a"}
        assert records == 2 and held.submitted == ["a", "b"]

    asyncio.run(scenario())


#: A review of many seconds: every action of every decision searched three rolls deep.
HEAVY = {"depth": 2, "horizon": 0, "screen": None, "leaders": None}


def test_a_review_job_does_not_hold_the_event_loop(sqlite_url: str) -> None:
    """While a heavy review runs in its process, the loop's lag stays small."""
    app = create_app(sqlite_url, bot_delay=0.0, seed=4, tables_per_minute=1000, review_settings=HEAVY)
    with TestClient(app) as client:
        table_id = finished_game(client)
        client.get(f"/api/tables/{table_id}/review")
        lags = []
        for _ in range(20):
            started = time.perf_counter()
            assert client.get("/api/health").status_code == 200
            lags.append(time.perf_counter() - started)
            time.sleep(0.05)
        assert table_id in client.app.state.parts.reviewer.jobs  # type: ignore[attr-defined]
        assert sorted(lags)[len(lags) // 2] < 0.05, lags


def test_a_server_stopping_mid_review_stops_its_workers_at_once(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A running review is abandoned at the server's stop: its worker must not hold the
    exit for the review's seconds nor outlive the server (an orphan held the load test's
    output open, so it never ended)."""
    app = create_app(sqlite_url, bot_delay=0.0, seed=5, tables_per_minute=1000, review_settings=HEAVY)
    with TestClient(app) as client:
        table_id = finished_game(client)
        client.get(f"/api/tables/{table_id}/review")  # a heavy review: many seconds of CPU
        pool = client.app.state.parts.reviewer._pool  # type: ignore[attr-defined]
        workers = list(pool._processes.values())
        assert workers and all(worker.is_alive() for worker in workers)
    deadline = time.monotonic() + 5
    while any(worker.is_alive() for worker in workers):
        assert time.monotonic() < deadline, "a review worker outlived its server"
        time.sleep(0.05)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # stopping is no failure


def test_stopping_puts_nothing_on_the_progress_queue(sqlite_url: str) -> None:
    """A worker stopped while it sends its progress holds the queue's lock for good: a
    put from the server then (its progress thread's stop message, before) blocked the
    queue's feeder thread, which the interpreter joins at exit — pytest hung after its
    summary, once in CI. The server never puts on the queue; its progress thread ends."""
    with TestClient(create_app(sqlite_url, bot_delay=0.0, seed=5, tables_per_minute=1000)) as client:
        table_id = finished_game(client)
        client.get(f"/api/tables/{table_id}/review")
        reviewer = client.app.state.parts.reviewer  # type: ignore[attr-defined]
        reports, listener = reviewer._queue, reviewer._listener
        assert listener is not None and listener.is_alive()
    listener.join(5)
    assert not listener.is_alive(), "the progress thread outlived its server"
    assert reports._thread is None, "the server put something on the workers' progress queue"


def test_a_profile_gets_each_rule_sets_mean_accuracy_pr_and_trend() -> None:
    def seat(table: str, accuracy: float | None, pr: float, rules: str = "hugo") -> SeatReview:
        summary = {"seat": 1, "accuracy": accuracy, "pr": pr}
        return SeatReview(table, rules, 1, datetime(2026, 11, 26, tzinfo=UTC), {"players_review": [summary]})

    newest_first = [
        seat("t6", 90, 2),
        seat("t5", 80, 4),
        seat("t4", 70, 6),
        seat("t3", 60, 8),
        seat("m1", 50, 1, "midnight-party"),
    ]
    newest_first.append(seat("t0", None, 0))  # no decision of their own: left out
    stats = review_stats(newest_first)
    hugo = stats["hugo"]
    assert hugo["games"] == 4 and hugo["accuracy"] == 75.0 and hugo["pr"] == 5.0
    assert [g["table"] for g in hugo["series"]] == ["t3", "t4", "t5", "t6"]
    assert hugo["trend"] == {"accuracy": 20.0, "pr": -4.0}  # the newer half better
    assert stats["midnight-party"]["trend"] == {"accuracy": None, "pr": None}


def _review_of(seat_figures: dict[int, tuple[float, float]]) -> dict[str, Any]:
    return {"players_review": [{"seat": s, "accuracy": a, "pr": p} for s, (a, p) in seat_figures.items()]}


def test_a_players_reviewed_games_come_newest_first_on_both_databases(store_url: str) -> None:
    from ghostparty.server.common.model import OVER, Seat, Table
    from ghostparty.server.reviews.store import StoredReview
    from ghostparty.server.stores import SqlStores

    store = SqlStores.open(store_url)
    try:
        when = datetime(2026, 11, 26, 12, tzinfo=UTC)
        ann = store.accounts.create_player("ann", "ann", "x", when)
        bob = store.accounts.create_player("bob", "bob", "x", when)
        assert ann is not None and bob is not None
        for n, (rules, ids) in enumerate(
            [
                ("hugo", (ann.id, bob.id)),
                ("hugo", (bob.id, ann.id)),
                ("midnight-party", (bob.id, bob.id)),
                ("hugo", (ann.id, ann.id)),
            ]
        ):
            seats = tuple(Seat(s, "human", name="x", player_id=i) for s, i in enumerate(ids))
            assert store.tables.create(Table(f"t{n}", rules, 2, seats, seed=n, status=OVER, version=9))
            review = _review_of({0: (90.0 - n, 1.0 + n), 1: (50.0, 9.0)})
            store.reviews.put(StoredReview(f"t{n}", REVIEW_VERSION, review, when.replace(hour=n), 1.5))
        store.reviews.put(StoredReview("t0", "old", _review_of({0: (1.0, 1.0)}), when.replace(hour=5), 1.0))
        assert store.reviews.review("t0") == StoredReview(
            "t0", "old", _review_of({0: (1.0, 1.0)}), when.replace(hour=5), 1.0
        )
        found = store.reviews.of_player(ann.id, 3)  # t0 is now the newest; ann sits twice at t3
        assert [(s.table_id, s.seat) for s in found] == [("t0", 0), ("t3", 0), ("t3", 1), ("t1", 1)]
        assert [s.table_id for s in store.reviews.of_player(bob.id, 10)] == ["t0", "t2", "t2", "t1"]
    finally:
        store.close()


def test_a_profile_reads_the_players_reviews_through_the_api(sqlite_url: str) -> None:
    from ghostparty.server.common.model import OVER, Seat, Table
    from ghostparty.server.reviews.store import StoredReview
    from ghostparty.server.stores import SqlStores

    store = SqlStores.open(sqlite_url)
    when = datetime(2026, 11, 26, 12, tzinfo=UTC)
    ann = store.accounts.create_player("Ann", "ann", "x", when)
    assert ann is not None
    for n in range(5):
        assert store.tables.create(
            Table(
                f"t{n}",
                "hugo",
                2,
                (Seat(0, "human", name="Ann", player_id=ann.id), Seat(1, "bot", bot="random")),
                seed=n,
                status=OVER,
                version=9,
            )
        )
        store.reviews.put(
            StoredReview(f"t{n}", REVIEW_VERSION, _review_of({0: (60.0 + 10 * n, 10.0 - n)}), when.replace(hour=n), 1.0)
        )
    store.close()
    with server(sqlite_url) as client:
        answer = client.get("/api/players/ann/reviews")
        assert answer.status_code == 200, answer.text
        hugo = answer.json()["rules"]["hugo"]
        assert hugo["games"] == 5 and hugo["accuracy"] == 80.0 and hugo["pr"] == 8.0
        assert hugo["trend"] == {"accuracy": 30.0, "pr": -3.0}  # the newer two against the older two
        missing = client.get("/api/players/nobody/reviews")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_player"


def test_a_cancelled_wait_for_a_review_leaves_the_pools_future_alone() -> None:
    """A server shutting down cancels the task that waits for a review; the pool's own
    future must not be cancelled by it (the pool's manager thread, stopping its workers at
    that moment, would meet a cancelled future and raise InvalidStateError)."""
    import asyncio
    from concurrent.futures import Future

    from ghostparty.server.reviews.pool import outcome

    async def scenario() -> tuple[bool, object]:
        submitted: Future[int] = Future()
        waiting = asyncio.ensure_future(outcome(submitted))
        await asyncio.sleep(0)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        cancelled = submitted.cancelled()
        submitted.set_exception(RuntimeError("the pool broke"))  # what the pool does next: no error
        finished: Future[int] = Future()
        answer = asyncio.ensure_future(outcome(finished))
        await asyncio.sleep(0)
        finished.set_result(7)
        return cancelled, await answer

    assert asyncio.run(scenario()) == (False, 7)
