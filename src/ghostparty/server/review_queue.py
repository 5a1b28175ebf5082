"""Game reviews on Redis, for servers of several instances: an rq queue that every
instance's worker takes jobs from.

:class:`RedisReviewer` answers as :class:`~.reviews.Reviewer` does (the stored review,
or the job's status and progress), but its jobs are rq jobs in Redis (id
``review-{table}``, so a game has one job whichever instance is asked), and each
instance runs ``workers`` rq worker processes (:func:`run_worker`) that take them from
any instance. The job reviews the game in the worker's work horse, reports its progress
in the job's ``meta`` every few actions, and stores the review in the database
(:mod:`.review_store`), so any instance serves it.

A job lost with its instance (killed: its workers die with it, and their work horses
with them, :func:`die_with`) stays *started* until its heartbeat expires (rq: 60 s past the
last one); rq's clean-up, which the instances run when asked about such a job, then
puts it back in the queue (``Retry(max=2)``) and another instance's worker takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from ghostparty.server.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.review_store import ReviewStore, StoredReview
from ghostparty.server.reviews import MAX_JOBS, PROGRESS_EVERY, REVIEW_VERSION, done

log = logging.getLogger("ghostparty.server.reviews")

QUEUE = "ghostparty-reviews"
#: A review taking longer than this is stopped (rq's job timeout).
JOB_TIMEOUT = 600
#: How many times a job lost with its worker is put back in the queue.
RETRIES = 2
#: A worker that found Redis away starts again after this many seconds.
RECONNECT_SECONDS = 2
_WAITING = {"queued", "deferred", "scheduled"}


def job_id(table_id: str) -> str:
    return f"review-{table_id}"


def rq_review_job(
    table_id: str, record: dict[str, Any], settings: dict[str, Any], database_url: str, version: str
) -> float:
    """In a worker's work horse: review ``record``, report the progress in the job's
    meta, store the review in the database at ``database_url``; its CPU seconds."""
    from rq import get_current_job
    from sqlalchemy import create_engine

    from ghostparty.analysis.review import Evaluator, review_game
    from ghostparty.rules import GameRecord
    from ghostparty.server.review_store import SqlReviews
    from ghostparty.server.store import database_url as with_driver

    job = get_current_job()
    started = time.process_time()

    def progress(count: int, total: int) -> None:
        if job is not None and (count % PROGRESS_EVERY == 0 or count == total):
            job.meta["progress"] = count / total if total else 1.0
            job.save_meta()  # type: ignore[no-untyped-call]

    review = review_game(GameRecord.from_dict(record), evaluator=Evaluator(**settings), progress=progress)
    cpu = time.process_time() - started
    engine = create_engine(with_driver(database_url))
    try:
        stored = StoredReview(table_id, version, review.as_dict(), datetime.now(UTC), round(cpu, 3))
        SqlReviews(engine, contextlib.nullcontext()).put(stored)
    finally:
        engine.dispose()
    return cpu


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
    worker likewise."""
    from redis import Redis
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
    from rq import Queue, Worker

    class _Worker(Worker):
        def main_work_horse(self, *args: Any, **kwargs: Any) -> None:
            die_with(os.getppid())  # the worker: the horse's parent, just forked
            super().main_work_horse(*args, **kwargs)

    os.setpgrp()  # the worker and what it starts: one group, killed together
    die_with(os.getppid() if parent is None else parent, group=True)
    connection = Redis.from_url(redis_url)
    while True:
        try:
            _Worker([Queue(queue_name, connection=connection)], connection=connection).work(logging_level="WARNING")
        except (RedisConnectionError, RedisTimeoutError) as error:
            # rq retries a lost connection while it waits for jobs, not while it starts
            # (registering the worker) or stops: a worker is never lost to Redis being away.
            print(f"review worker: Redis is unavailable ({error}); again in {RECONNECT_SECONDS} s", flush=True)
            time.sleep(RECONNECT_SECONDS)
        else:
            return  # stopped (SIGTERM: a warm shut-down)


class RedisReviewer:
    """Review jobs in an rq queue on ``redis_url``, stored in ``store`` (the database at
    ``database_url``, which the workers write to)."""

    def __init__(
        self,
        store: ReviewStore,
        redis_url: str,
        database_url: str,
        *,
        workers: int = 1,
        max_jobs: int = MAX_JOBS,
        settings: dict[str, Any] | None = None,
        queue_name: str = QUEUE,
    ) -> None:
        from redis import Redis
        from rq import Queue

        self.store = store
        self.redis_url = redis_url
        self.database_url = database_url
        self.workers = workers
        self.max_jobs = max_jobs
        self.settings = settings or {}
        self.connection = Redis.from_url(redis_url)
        self.queue = Queue(queue_name, connection=self.connection)
        self._processes: list[Any] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def jobs(self) -> dict[str, Any]:
        """Jobs are in Redis, not here (the local reviewer's tests read this)."""
        return {}

    def start_workers(self) -> None:
        """This instance's worker processes (spawned: the server has threads); once, at the
        first job this instance queues or at the start with ``serve --review-finished``, so
        an instance that reviews nothing runs no worker."""
        if self._processes:
            return
        context = multiprocessing.get_context("spawn")
        for _ in range(self.workers):
            process = context.Process(
                target=run_worker, args=(self.redis_url, self.queue.name, os.getpid()), daemon=False
            )
            process.start()
            self._processes.append(process)

    def status(self, table_id: str) -> dict[str, Any] | None:
        """The game's job as the API tells it, ``None`` if there is none under way."""
        from rq.exceptions import NoSuchJobError
        from rq.job import Job
        from rq.registry import StartedJobRegistry

        try:
            job = Job.fetch(job_id(table_id), connection=self.connection)
        except NoSuchJobError:
            return None
        state = job.get_status()
        if state == "started":
            StartedJobRegistry(queue=self.queue).cleanup()  # a lost job: back in the queue
            state = job.get_status()
        progress = round(float(job.get_meta().get("progress", 0.0)), 3)
        if state in _WAITING:
            return {"status": "queued", "progress": progress}
        if state == "started":
            return {"status": "running", "progress": progress}
        return None  # finished (and stored), failed, stopped: a new job if not stored

    def enqueue(self, table_id: str, record: dict[str, Any]) -> bool:
        """Queue the game's job unless another request just did (a 5 s lock)."""
        self.start_workers()
        from rq import Retry

        if not self.connection.set(f"{self.queue.name}:lock:{table_id}", 1, nx=True, px=5000):
            return False
        self.queue.enqueue(
            rq_review_job,
            args=(table_id, record, self.settings, self.database_url, REVIEW_VERSION),
            job_id=job_id(table_id),
            job_timeout=JOB_TIMEOUT,
            result_ttl=600,
            failure_ttl=3600,
            retry=Retry(max=RETRIES),
        )
        return True

    def waiting(self) -> int:
        from rq.registry import StartedJobRegistry

        return int(self.queue.count) + len(StartedJobRegistry(queue=self.queue))

    async def review(self, table_id: str, record: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """As :meth:`.reviews.Reviewer.review`, with the job in Redis."""
        stored = await in_thread(self.store.review, table_id)
        if stored is not None and stored.version == REVIEW_VERSION:
            return done(stored)
        found = await in_thread(self.status, table_id)
        if found is not None:
            return found
        if await in_thread(self.waiting) >= self.max_jobs:
            message = f"at most {self.max_jobs} games are reviewed at once: ask again later"
            raise ServiceError(ErrorCode.BUSY, message, retry_after=30)
        data = await record()
        await in_thread(self.enqueue, table_id, data)
        return {"status": "queued", "progress": 0.0}

    def game_over(self, table_id: str, record: dict[str, Any]) -> None:
        """A game this instance ended: queue its review (off the event loop)."""

        async def queue() -> None:
            try:
                if await in_thread(self.waiting) < self.max_jobs:
                    await in_thread(self.enqueue, table_id, record)
            except ServiceError:
                log.warning("the review of table %s was not queued: Redis is unavailable", table_id)

        task = asyncio.get_running_loop().create_task(queue())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self, table_id: str) -> None:
        while await in_thread(self.status, table_id) is not None:
            await asyncio.sleep(0.1)

    def close(self) -> None:
        """Stop this instance's workers (a job they were running is retaken elsewhere)."""
        for process in self._processes:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()  # one still starting has no group of its own yet
            process.join(timeout=5)
        self._processes.clear()
        self.connection.close()


__all__ = ["QUEUE", "RedisReviewer", "die_with", "job_id", "rq_review_job", "run_worker"]
