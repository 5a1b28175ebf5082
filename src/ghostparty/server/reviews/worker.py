"""The review worker: a process of its own that takes review jobs from the rq queue in
Redis (:mod:`ghostparty.server.reviews.queue`), reviews each game in a work horse and stores the review in
the database; and rides out Redis or the database being away.

Each outage is told once, as one warning (:class:`Outage`), its end as an info line:

* Redis away: rq's worker retries while it waits for jobs (an error line each time),
  but quits with a traceback on a lost connection anywhere else — registering, the
  heartbeat of a job under way, recording a job's end. Here a heartbeat that fails lets
  the job under way go on (the next one tries again), rq's lines about a lost
  connection are that one warning instead (:class:`QuietOutages`), and a worker that
  quit anyway starts again once Redis answers (:func:`run_worker`).
* the database away: the review, once worked out, is stored with retries, waiting
  :data:`FIRST_WAIT` s and twice as long after each failure up to :data:`LONGEST_WAIT`,
  until it is (within the job's time, rq's job timeout).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("ghostparty.server.reviews.pool")

#: Seconds before trying Redis or the database again, doubled after each failure up to
#: :data:`LONGEST_WAIT`.
FIRST_WAIT, LONGEST_WAIT = 0.5, 5.0


def redis_errors() -> tuple[type[Exception], ...]:
    """What redis-py raises when Redis can't be reached or doesn't answer in time."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError)


class Outage:
    """Tells that ``what`` is away once, however often it fails meanwhile (a warning),
    and that it answers again once (an info line)."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.clock = clock
        #: When (``clock``) the outage began; ``None`` while ``what`` answers.
        self.since: float | None = None

    def failed(self, error: object) -> None:
        if self.since is None:
            self.since = self.clock()
            log.warning("review worker: %s is unavailable (%s); waiting for it", self.what, _first_line(error))

    def answered(self) -> None:
        if self.since is not None:
            log.info("review worker: %s answers again after %.1f s", self.what, self.clock() - self.since)
            self.since = None


class QuietOutages(logging.Filter):
    """Lets every record through but rq's about Redis being away (one a retry while the
    worker waits for jobs, a traceback where it quits), which ``outage`` tells once."""

    def __init__(self, outage: Outage, errors: tuple[type[Exception], ...]) -> None:
        super().__init__()
        self.outage = outage
        self.errors = errors

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("rq."):
            return True
        error: object = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, self.errors):
            args = record.args if isinstance(record.args, tuple) else ()
            error = next((arg for arg in args if isinstance(arg, self.errors)), None)
        if error is None and "Redis connection timeout" in str(record.msg):
            error = "no answer in time"
        if error is None:
            return True
        self.outage.failed(error)
        return False


def _first_line(error: object) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def rq_review_job(
    table_id: str,
    record: dict[str, Any],
    settings: dict[str, Any],
    database_url: str,
    version: str,
    judge: str = "fast",
) -> float:
    """In a worker's work horse: review ``record`` by ``judge``, report the progress in the job's
    meta (where Redis answers: it is only shown), store the review in the database at
    ``database_url`` (:func:`store_review`); its CPU seconds."""
    from rq import get_current_job

    from ghostparty.server.reviews.pool import PROGRESS_EVERY, make_review
    from ghostparty.server.reviews.store import StoredReview

    job = get_current_job()
    started = time.process_time()
    away = redis_errors()

    def progress(count: int, total: int) -> None:
        if job is not None and (count % PROGRESS_EVERY == 0 or count == total):
            job.meta["progress"] = count / total if total else 1.0
            with contextlib.suppress(*away):  # the worker tells of Redis being away
                job.save_meta()  # type: ignore[no-untyped-call]

    review = make_review(record, settings, judge, progress)
    cpu = time.process_time() - started
    stored = StoredReview(table_id, version, review.as_dict(), datetime.now(UTC), round(cpu, 3), judge)
    store_review(database_url, stored)
    return cpu


def store_review(database_url: str, stored: Any, sleep: Callable[[float], None] = time.sleep) -> None:
    """Store ``stored`` (a :class:`~ghostparty.server.reviews.store.StoredReview`) in the database at
    ``database_url``, trying again while the database can't be reached (every wait on it
    bounded, :mod:`ghostparty.server.infra.engine`); any other error is raised."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    from ghostparty.server.infra.database import Database
    from ghostparty.server.infra.engine import database_url as with_driver
    from ghostparty.server.infra.engine import make_engine
    from ghostparty.server.reviews.store import SqlReviews

    engine, watchdog = make_engine(with_driver(database_url))
    if watchdog is not None:
        watchdog.start()
    database, wait = Outage("the database"), FIRST_WAIT
    try:
        while True:
            try:
                SqlReviews(Database(engine, contextlib.nullcontext())).put(stored)
            except DBAPIError as error:
                if not (isinstance(error, OperationalError | InterfaceError) or error.connection_invalidated):
                    raise
                database.failed(error.orig if error.orig is not None else error)
                sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT)
            else:
                database.answered()
                return
    finally:
        engine.dispose()
        if watchdog is not None:
            watchdog.close()


def die_with(parent: int, *, group: bool = False) -> None:
    """Kill this process (``group``: its whole process group) once ``parent`` is no longer
    its parent (it died, and the process was handed to init): a watch thread, once a
    second."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        if group:
            os.killpg(0, signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def run_worker(redis_url: str, queue_name: str, parent: int | None = None) -> None:
    """An rq worker (a process of its own): takes review jobs until stopped, and dies
    with the instance that started it, ``parent`` (so that its jobs count as lost, and
    are retaken). ``parent`` is the instance's pid as the instance read it: read here,
    it would already be init's if the instance died while this process started. Each
    work horse (rq forks one per job, in a process group of its own) dies with its
    worker likewise. Its log goes to standard error, at warning level."""
    from redis import Redis
    from rq import Queue

    os.setpgrp()  # the worker and what it starts: one group, killed together
    die_with(os.getppid() if parent is None else parent, group=True)
    away = redis_errors()
    redis = Outage("Redis")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(QuietOutages(redis, away))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    connection = Redis.from_url(redis_url)
    worker_type = _worker_class(redis, away)
    while True:
        worker = None
        try:
            worker = worker_type([Queue(queue_name, connection=connection)], connection=connection)
            worker.work(logging_level="WARNING")
        except away as error:  # rq doesn't catch it while it starts (registering) or stops
            redis.failed(error)
        if worker is not None and worker.stopping:
            return  # SIGTERM: a warm shut-down
        for number in (signal.SIGTERM, signal.SIGINT):  # rq's, for a worker that is gone
            signal.signal(number, signal.SIG_DFL)
        _wait_for_redis(connection, redis, away)


def _worker_class(redis: Outage, away: tuple[type[Exception], ...]) -> Any:
    """rq's worker, whose work horses die with it, whose heartbeats ride out ``redis``
    being away while a job runs, and which knows whether it was asked to stop."""
    from rq import Worker

    class ReviewWorker(Worker):
        stopping = False

        def main_work_horse(self, *args: Any, **kwargs: Any) -> None:
            die_with(os.getppid())  # the worker: the horse's parent, just forked
            super().main_work_horse(*args, **kwargs)

        def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
            super().heartbeat(timeout, pipeline)
            if pipeline is None:  # (in a pipeline: sent later)
                redis.answered()

        def maintain_heartbeats(self, job: Any, execution: Any) -> None:
            try:
                super().maintain_heartbeats(job, execution)
            except away as error:  # the job goes on; the next heartbeat tries again
                redis.failed(error)
            else:
                redis.answered()

        def request_stop(self, signum: Any, frame: Any) -> None:
            self.stopping = True
            super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    return ReviewWorker


def _wait_for_redis(connection: Any, redis: Outage, away: tuple[type[Exception], ...]) -> None:
    """Until ``connection`` answers a ping, trying again after longer and longer waits."""
    wait = FIRST_WAIT
    while True:
        time.sleep(wait)
        try:
            connection.ping()
        except away as error:
            redis.failed(error)
            wait = min(wait * 2, LONGEST_WAIT)
        else:
            return


__all__ = ["Outage", "QuietOutages", "die_with", "rq_review_job", "run_worker", "store_review"]
