"""A silent database: its connections stay open but nothing comes back (a network
partition), made by :meth:`.tcpproxy.TcpProxy.hold`. Every wait on it is bounded
(``ghostparty.server.infra.engine``): the store's calls fail within seconds, requests answer
``unavailable``, and everything works again once the database answers.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from ghostparty.server.app import create_app
from ghostparty.server.infra.engine import (
    CONNECT_TIMEOUT,
    OPERATION_TIMEOUT,
    POOL_TIMEOUT,
    PROBE_GAP,
    STATEMENT_TIMEOUT,
    Watchdog,
)
from ghostparty.server.tables.store import SqlTables

from .client import create_table, request
from .conftest import Cluster
from .tcpproxy import TcpProxy
from .test_failover import probe_act
from .traffic import Games, check, finish, start_games, summary, verify, wait_progress, wait_resumed

#: Slack for a loaded machine (two cores shared by several test runs) over each bound.
SLACK = 1.5
#: A call that lost its connection fails with the driver's error as SQLAlchemy wraps it,
#: or the driver's own where the store runs its statement on the driver (writer.py).
LOST = (OperationalError, psycopg.OperationalError)
#: Seconds within which a request answers while the database is silent (docs/operating.md):
#: a call on an open connection, or a new connection after waiting for a free one.
ANSWER = max(OPERATION_TIMEOUT, POOL_TIMEOUT + CONNECT_TIMEOUT)
#: How long the database stays silent in the cluster test.
SILENCE = 6.0


def timed(call: Callable[[], Any], limit: float) -> tuple[float, BaseException | None]:
    """Run ``call`` in a thread; the seconds it took and what it raised. Fails if it
    hasn't returned after ``limit`` seconds (the thread is left to end on its own)."""
    outcome: list[BaseException | None] = []
    start = time.monotonic()

    def body() -> None:
        try:
            call()
        except BaseException as error:  # handed to the test
            outcome.append(error)
        else:
            outcome.append(None)

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(limit)
    took = time.monotonic() - start
    assert outcome, f"the call hung: no answer after {took:.1f} s (the bound is {limit:g} s)"
    return took, outcome[0]


@pytest.fixture
def proxied_store(database: str, db_proxy: TcpProxy) -> Iterator[SqlTables]:
    """A store on the test's database, through ``db_proxy``."""
    SqlTables(database).close()  # the tables, made directly
    url = make_url(database).set(host="127.0.0.1", port=db_proxy.port)
    store = SqlTables(url.render_as_string(hide_password=False))
    yield store
    store.close()


def test_a_call_on_an_open_connection_fails_within_the_operation_bound(
    proxied_store: SqlTables, db_proxy: TcpProxy
) -> None:
    assert proxied_store.version("nope") is None  # a connection is open, in the pool
    asyncio.run(db_proxy.hold())
    took, error = timed(lambda: proxied_store.version("nope"), OPERATION_TIMEOUT + POOL_TIMEOUT + SLACK)
    assert isinstance(error, LOST), error
    assert OPERATION_TIMEOUT - 0.5 <= took <= OPERATION_TIMEOUT + SLACK, took
    assert db_proxy.held_bytes > 0  # the query went out and was held


def test_connecting_to_a_silent_database_fails_within_the_connect_timeout(
    proxied_store: SqlTables, db_proxy: TcpProxy
) -> None:
    proxied_store.engine.dispose()  # no connection open: the next call connects
    asyncio.run(db_proxy.hold())
    took, error = timed(lambda: proxied_store.list_tables("playing"), CONNECT_TIMEOUT + SLACK + 2)
    assert isinstance(error, LOST), error
    assert took <= CONNECT_TIMEOUT + SLACK, took


def test_the_first_call_once_the_database_answers_again_succeeds(proxied_store: SqlTables, db_proxy: TcpProxy) -> None:
    """No cool-down after the silence beyond half a second: the next call tries the
    database, and it answers."""
    assert proxied_store.version("nope") is None
    asyncio.run(db_proxy.hold())
    _, error = timed(lambda: proxied_store.version("nope"), OPERATION_TIMEOUT + SLACK)
    assert isinstance(error, LOST), error
    asyncio.run(db_proxy.release())
    time.sleep(PROBE_GAP)
    took, error = timed(lambda: proxied_store.version("nope"), 5)
    assert error is None and took < 1.0, f"{error!r} after {took:.2f} s"


def test_the_first_action_once_the_database_answers_again_is_applied(database: str, db_proxy: TcpProxy) -> None:
    """A request meanwhile answers ``unavailable``; the first action sent once the
    database answers again is applied (no cool-down beyond half a second refuses it)."""
    SqlTables(database).close()  # the tables, made directly
    url = make_url(database).set(host="127.0.0.1", port=db_proxy.port).render_as_string(hide_password=False)
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        table = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}], "first_player": 0}
        table_id = client.post("/api/tables", json=table).json()["table"]["id"]
        tokens = [
            client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name}).json()["token"]
            for seat, name in enumerate(("Ann", "Bob"))
        ]
        started = client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": tokens[0]}).json()
        asyncio.run(db_proxy.hold())
        during = client.post("/api/tables", json=table)
        assert during.status_code == 503 and during.json()["error"]["code"] == "unavailable", during.text
        asyncio.run(db_proxy.release())
        time.sleep(PROBE_GAP)
        act = {"seat": 0, "token": tokens[0], "version": started["table"]["version"], "action": {"place": "G12"}}
        start = time.monotonic()
        after = client.post(f"/api/tables/{table_id}/actions", json=act)
        took = time.monotonic() - start
    assert after.status_code == 200, f"the first action once the database answers: {after.text}"
    assert after.json()["table"]["version"] == act["version"] + 1 and took < 1.0, (after.json(), took)


def test_a_slow_statement_is_cancelled_by_the_server_and_its_connection_kept(proxied_store: SqlTables) -> None:
    with proxied_store.engine.connect() as conn:
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
        start = time.monotonic()
        with pytest.raises(OperationalError, match="statement timeout"):
            conn.execute(text("SELECT pg_sleep(:s)"), {"s": STATEMENT_TIMEOUT + 1})
        assert time.monotonic() - start < STATEMENT_TIMEOUT + SLACK
    with proxied_store.engine.connect() as conn:  # the same connection, still good
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar() == pid


def test_the_watchdog_shuts_what_is_held_too_long_and_nothing_returned_in_time() -> None:
    shut: list[int] = []
    watchdog = Watchdog(0.05, shut=shut.append)
    watchdog.arm(1, 11)  # not started: never shuts
    watchdog.start()
    watchdog.arm(2, 12)
    watchdog.arm(3, 13)
    watchdog.disarm(3)
    assert not watchdog.silent
    time.sleep(0.15)
    assert shut == [12] and watchdog.fired == 1
    time.sleep(0.1)
    assert watchdog.silent  # until a connection attempt is answered
    watchdog.arm(4, 14)
    watchdog.disarm(4)
    time.sleep(0.2)
    watchdog.close()
    assert shut == [12] and watchdog.fired == 1


def test_while_silent_one_call_tries_the_database_and_the_others_fail_at_once(
    proxied_store: SqlTables, db_proxy: TcpProxy
) -> None:
    """A circuit breaker: for a moment after a timeout every call fails at once (those
    queued behind it don't each try in turn), then one call at a time connects afresh
    (the probe) while the others fail at once; the probe's answer lets every call through
    again."""

    def refused_at_once() -> None:
        for call in (lambda: proxied_store.version("nope"), lambda: proxied_store.list_tables("open")):
            took, error = timed(call, 1.0)
            assert isinstance(error, LOST) and "one call at a time tries it" in str(error), error
            assert took < 0.25, took

    assert proxied_store.version("nope") is None
    asyncio.run(db_proxy.hold())
    _, error = timed(lambda: proxied_store.version("nope"), OPERATION_TIMEOUT + SLACK)
    assert isinstance(error, LOST), error
    refused_at_once()  # right after the timeout
    time.sleep(PROBE_GAP)
    took, error = timed(lambda: proxied_store.version("nope"), CONNECT_TIMEOUT + SLACK)
    assert isinstance(error, LOST) and took >= CONNECT_TIMEOUT - 0.5, f"the probe: {error!r} after {took:.1f} s"
    refused_at_once()  # right after a probe that got no answer
    time.sleep(PROBE_GAP)
    probe: list[tuple[float, BaseException | None]] = []
    trying = threading.Thread(target=lambda: probe.append(timed(lambda: proxied_store.version("nope"), 10)))
    trying.start()
    time.sleep(0.3)  # the probe is connecting, held
    refused_at_once()
    asyncio.run(db_proxy.release())
    trying.join(5)
    assert probe and probe[0][1] is None, f"the probe once the database answered: {probe}"
    took, error = timed(lambda: proxied_store.list_tables("open"), 5)
    assert error is None and took < 1.0


async def timed_request(method: str, url: str, body: object) -> tuple[float, int | None, Any]:
    """``(seconds, status, answer)`` of a request; status ``None`` if it got no answer
    within ``ANSWER + SLACK`` + 3 s."""
    start = time.monotonic()
    try:
        status, answer = await request(method, url, body, timeout=ANSWER + SLACK + 3)
    except OSError as error:
        return time.monotonic() - start, None, repr(error)
    return time.monotonic() - start, status, answer


def test_silent_database_in_a_cluster(cluster: Cluster, database: str, db_proxy: TcpProxy) -> None:
    """The database stops answering for 6 s with its connections open: an action and
    HTTP requests meanwhile answer ``unavailable`` within the bound (no hang, no 500);
    afterwards the games move on and finish, nothing half-applied, no server restarted."""

    async def scenario() -> tuple[Games, list[str], float, float]:
        humans = [{"kind": "human"}, {"kind": "human"}]
        probe = await create_table(cluster.base, humans)
        url = cluster.base.replace("http", "ws", 1) + f"/ws/tables/{probe.table_id}"
        run = await start_games(cluster, database, seed=4)
        await wait_progress(run)
        pids = [server.popen.pid for server in cluster.servers if server.popen]
        await db_proxy.hold()
        silent = time.monotonic()
        timings: list[str] = []
        start = time.monotonic()
        during = await probe_act(url, 0, probe.tokens[0], timeout=ANSWER + SLACK + 3)
        took = time.monotonic() - start
        timings.append(f"an action: {during.get('code', during.get('type'))} after {took:.1f} s")
        if during.get("type") != "error" or during.get("code") != "unavailable":
            run.problems.append(f"an action while the database is silent: expected `unavailable`, got {during}")
        elif took > ANSWER + SLACK:
            run.problems.append(f"an action while the database is silent: `unavailable` after {took:.1f} s")
        for method, path, body, expected in [
            ("POST", "/api/tables", {"rules": "hugo", "seats": humans}, {503}),
            ("GET", "/api/tables", None, {200, 503}),
            ("GET", f"/api/tables/{probe.table_id}", None, {200, 503}),
        ]:
            took, status, answer = await timed_request(method, cluster.base + path, body)
            timings.append(f"{method} {path}: {status} after {took:.1f} s")
            if status is None:
                run.problems.append(f"{method} {path} while the database is silent: no answer ({answer})")
            elif status not in expected or took > ANSWER + SLACK:
                run.problems.append(f"{method} {path} while the database is silent: {status} after {took:.1f} s")
            elif status == 503 and answer.get("error", {}).get("code") != "unavailable":
                run.problems.append(f"{method} {path} answered 503 without the error `unavailable`: {answer}")
        await asyncio.sleep(max(0.0, SILENCE - (time.monotonic() - silent)))
        if db_proxy.held_bytes == 0:
            run.problems.append("the silence held back nothing: no query was made meanwhile")
        await db_proxy.release()
        resumed = await wait_resumed(run)
        after = await probe_act(url, 0, probe.tokens[0], timeout=10)
        if after.get("type") != "update":
            run.problems.append(f"an action after the silence: expected its update, got {after}")
        took_all = await finish(run)
        await verify(run, allowed_errors={"stale_version", "unavailable"})
        run.problems += [f"{s.name} died" for s in cluster.servers if not s.alive]
        if [server.popen.pid for server in cluster.servers if server.popen] != pids:
            run.problems.append("a server process was replaced")
        return run, timings, resumed, took_all

    run, timings, resumed, took = asyncio.run(scenario())
    print(f"while silent: {'; '.join(timings)}")
    print(f"every game moved on within {resumed:.1f} s of the silence, finished {took:.1f} s later; {summary(run)}")
    check(run)
