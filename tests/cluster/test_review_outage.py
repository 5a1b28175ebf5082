"""The review workers through outages: Redis stops while reviews run (and starts again,
empty), then the database is cut off while a review is being stored. Every review asked
for is stored afterwards, and each worker's log tells each outage as one warning line,
with no traceback and no worker quitting."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable

import psycopg

from .client import http_json
from .conftest import Cluster
from .tcpproxy import TcpProxy

#: Games reviewed (two bots each: a review takes a second or two, so enough of them are
#: still to do when Redis comes back and when the database is cut).
GAMES = 10
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
#: Times Redis is stopped at most, waiting for a review to be stored while it is away.
OUTAGES = 3


def unstored(database: str, tables: list[str]) -> list[str]:
    """The tables whose review is not in the database yet."""
    stored = stored_reviews(database)
    return [table for table in tables if table not in stored]


def more_stored(database: str, count: int) -> Callable[[], bool]:
    """Whether more than ``count`` reviews are stored, when asked."""
    return lambda: len(stored_reviews(database)) > count


def stored_reviews(database: str) -> set[str]:
    """The tables whose review is in the database (read directly, not through the proxy)."""
    with psycopg.connect(database, connect_timeout=3) as conn:
        return {row[0] for row in conn.execute("SELECT table_id FROM gp_reviews").fetchall()}


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    assert within(condition, timeout), f"timed out after {timeout:g} s waiting for {what}"


def within(condition: Callable[[], bool], timeout: float) -> bool:
    """Whether ``condition`` holds within ``timeout`` seconds (asked every 0.2 s)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)
    return True


def games(cluster: Cluster) -> list[str]:
    """Games of bots, started at once: each one's review is queued as it ends (``serve``
    reviews every finished game)."""
    made = [http_json("POST", f"{cluster.base}/api/tables", {"rules": "hugo", "seats": BOTS}) for _ in range(GAMES)]
    tables = [answer["table"]["id"] for status, answer in made if status == 201]
    assert len(tables) == GAMES, made
    return tables


def ask(cluster: Cluster, tables: list[str]) -> dict[str, int]:
    """Ask each instance in turn for each table's review, as a reader of its own (5
    reviews started in 5 minutes per address): one neither stored nor queued (a job lost
    with Redis's contents) is queued again. The statuses answered, by table."""
    bases = list(cluster.live_bases().values())
    answered = {}
    for i, table in enumerate(tables):
        request = urllib.request.Request(
            f"{bases[i % len(bases)]}/api/tables/{table}/review", headers={"X-Forwarded-For": f"198.51.100.{i + 1}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answered[table] = response.status
        except urllib.error.HTTPError as error:
            answered[table] = error.code
    return answered


def jobs(cluster: Cluster, tables: list[str]) -> dict[str, tuple[str, float]]:
    """The review jobs in Redis that are under way: their status and progress, by table."""
    from redis import Redis
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    from ghostparty.server.reviews.queue import job_id

    found = {}
    connection = Redis.from_url(cluster.redis.url)
    try:
        for table in tables:
            try:
                job = Job.fetch(job_id(table), connection=connection)
            except NoSuchJobError:
                continue
            found[table] = (job.get_status(), float(job.get_meta().get("progress", 0.0)))
    finally:
        connection.close()
    return found


def test_every_review_is_stored_through_a_redis_restart_and_a_database_cut(
    cluster: Cluster, database: str, db_proxy: TcpProxy
) -> None:
    tables = games(cluster)

    def running() -> bool:
        return any(status == "started" for status, _ in jobs(cluster, tables).values())

    # Redis stops while reviews run, until one of them has been stored meanwhile (its
    # end told to no Redis), and starts again, empty. A review of the compiled core takes
    # a tenth of a second or two: it can end between being seen to run and Redis
    # stopping, with no other review queued (the games end one by one). Then no review
    # is stored while Redis is away; once it is back, the reviews missing are asked for
    # again, all queued at once, and Redis stops again.
    outages = 0
    while True:
        assert outages < OUTAGES, f"no review was stored while Redis was away, {OUTAGES} times"
        if outages:
            wait_for(lambda: bool(ask(cluster, unstored(database, tables))) and running(), 60, "a review asked again")
        else:
            wait_for(running, 120, "a review to run")
        before = stored_reviews(database)
        cluster.redis.stop()
        outages += 1
        stopped = time.monotonic()
        stored = within(more_stored(database, len(before)), 30)
        time.sleep(max(0.0, 3 - (time.monotonic() - stopped)))
        cluster.redis.start()
        if stored:
            break

    # The database is cut off while a review is being stored: until a job has worked its
    # review out (its progress 1) and is still under way, storing it, for a second.
    left = unstored(database, tables)
    assert left, "every review was done before the database could be cut"
    wait_for(lambda: bool(ask(cluster, left)) and running(), 60, "a review to run after Redis came back")
    asyncio.run(db_proxy.cut())
    try:
        wait_for(
            lambda: any(status == "started" and progress == 1.0 for status, progress in jobs(cluster, left).values()),
            90,
            "a review being stored while the database is cut off",
        )
        time.sleep(1.5)
    finally:
        asyncio.run(db_proxy.restore())

    wait_for(lambda: ask(cluster, tables) == dict.fromkeys(tables, 200), 240, "every review to be stored")
    assert stored_reviews(database) >= set(tables)
    for server in cluster.servers:
        text = server.log.read_text(errors="replace")
        assert "Traceback" not in text and "quitting" not in text, f"{server.name}:\n{server.tail(80)}"
        for what, times in (("Redis", outages), ("the database", 1)):
            warned = re.findall(rf"^WARNING .*review worker: {what} is unavailable", text, re.MULTILINE)
            assert len(warned) <= times, (
                f"{server.name} told {times} outage(s) of {what} {len(warned)} times:\n{server.tail(80)}"
            )
    logs = "".join(server.log.read_text(errors="replace") for server in cluster.servers)
    assert "review worker: Redis is unavailable" in logs, cluster.digest()
    assert "review worker: the database is unavailable" in logs, cluster.digest()
