"""Game reviews on Redis, for servers of several instances: an rq queue that every
instance's worker takes jobs from.

:class:`RedisReviewer` answers as :class:`~ghostparty.server.reviews.pool.Reviewer` does (the stored review,
or the job's status and progress), but its jobs are rq jobs in Redis (id
``review-{table}``, so a game has one job whichever instance is asked), and each
instance runs ``workers`` rq worker processes (:func:`run_worker`) that take them from
any instance. The job reviews the game in the worker's work horse, reports its progress
in the job's ``meta`` every few actions, and stores the review in the database
(:mod:`ghostparty.server.reviews.store`), so any instance serves it. The worker's side, and how it rides
out Redis or the database being away, is :mod:`ghostparty.server.reviews.worker`.

A game's deep review is another job of the same queue (id ``deep-review-{table}``).

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
from collections.abc import Awaitable, Callable
from typing import Any

from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.reviews.pool import MAX_JOBS, done, version_of
from ghostparty.server.reviews.store import ReviewStore
from ghostparty.server.reviews.worker import die_with, rq_review_job, run_worker

log = logging.getLogger("ghostparty.server.reviews.pool")

QUEUE = "ghostparty-reviews"
#: A review taking longer than this is stopped (rq's job timeout).
JOB_TIMEOUT = 600
#: How many times a job lost with its worker is put back in the queue.
RETRIES = 2
_WAITING = {"queued", "deferred", "scheduled"}


def job_id(table_id: str, judge: str = "fast") -> str:
    return f"review-{table_id}" if judge == "fast" else f"{judge}-review-{table_id}"


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

    def status(self, table_id: str, judge: str = "fast") -> dict[str, Any] | None:
        """The game's job by ``judge`` as the API tells it, ``None`` if there is none under way."""
        from rq.exceptions import NoSuchJobError
        from rq.job import Job
        from rq.registry import StartedJobRegistry

        try:
            job = Job.fetch(job_id(table_id, judge), connection=self.connection)
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

    def enqueue(self, table_id: str, record: dict[str, Any], judge: str = "fast") -> bool:
        """Queue the game's job by ``judge`` unless another request just did (a 5 s lock)."""
        self.start_workers()
        from rq import Retry

        lock = f"{self.queue.name}:lock:{table_id}" + ("" if judge == "fast" else f":{judge}")
        if not self.connection.set(lock, 1, nx=True, px=5000):
            return False
        self.queue.enqueue(
            rq_review_job,
            args=(table_id, record, self.settings, self.database_url, version_of(judge), judge),
            job_id=job_id(table_id, judge),
            job_timeout=JOB_TIMEOUT,
            result_ttl=600,
            failure_ttl=3600,
            retry=Retry(max=RETRIES),
        )
        return True

    def waiting(self) -> int:
        from rq.registry import StartedJobRegistry

        return int(self.queue.count) + len(StartedJobRegistry(queue=self.queue))

    async def review(
        self, table_id: str, record: Callable[[], Awaitable[dict[str, Any]]], judge: str = "fast"
    ) -> dict[str, Any]:
        """As :meth:`ghostparty.server.reviews.pool.Reviewer.review`, with the job in Redis."""
        stored = await in_thread(self.store.review, table_id, judge)
        if stored is not None and stored.version == version_of(judge):
            return done(stored)
        found = await in_thread(self.status, table_id, judge)
        if found is not None:
            return found
        if await in_thread(self.waiting) >= self.max_jobs:
            message = f"at most {self.max_jobs} games are reviewed at once: ask again later"
            raise ServiceError(ErrorCode.BUSY, message, retry_after=30)
        data = await record()
        await in_thread(self.enqueue, table_id, data, judge)
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

    async def wait(self, table_id: str, judge: str = "fast") -> None:
        while await in_thread(self.status, table_id, judge) is not None:
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
