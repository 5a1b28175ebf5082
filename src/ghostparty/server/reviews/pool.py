"""Game reviews made off the game's path: a job queue over a local process pool.

:class:`Reviewer` takes a finished game's record and reviews it
(:func:`~ghostparty.analysis.review.review_game`) in a
:class:`~concurrent.futures.ProcessPoolExecutor` (``serve --review-workers``, 1 by
default), never on the event loop nor in its threads (a review is seconds of CPU and
holds the GIL). Each game has at most one job; asking again while it runs gives its
progress, which the worker sends every few actions over a queue a thread reads into
:attr:`Reviewer.progress`. The review is stored with the game (:mod:`ghostparty.server.reviews.store`),
so it is made once and any instance serves it; a stored review of another
:data:`REVIEW_VERSION` is made again when asked for.

A game's deep review (``judge="deep"``: :mod:`ghostparty.analysis.review.deep_review`) is
another job of the same queue, made only when asked for and stored beside the review
(versioned by :data:`DEEP_REVIEW_VERSION`); its rollouts' settings are ``settings["deep"]``.

The queue is bounded (``max_jobs`` waiting or running: more are refused with 503
``busy``); how often a person may ask is :mod:`ghostparty.server.http.quotas`' business.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from ghostparty.analysis.review import REVIEW_FORMAT, GameReview
from ghostparty.analysis.review.deep_review import review_afresh
from ghostparty.analysis.review.review import Progress
from ghostparty.rules import GameRecord
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.reviews.store import ReviewStore, StoredReview

T = TypeVar("T")

log = logging.getLogger("ghostparty.server.reviews.pool")

#: The review code's version, kept with each review: change it when reviews change.
REVIEW_VERSION = f"{REVIEW_FORMAT}:4"
#: The deep review code's version, kept likewise.
DEEP_REVIEW_VERSION = f"{REVIEW_FORMAT}:deep:1"
#: Jobs waiting or running at most (per instance).
MAX_JOBS = 20
#: The worker reports its progress after this many actions.
PROGRESS_EVERY = 4

#: In a worker process: its end of the progress queue (``"queue"``, set by :func:`_start_worker`).
_WORKER: dict[str, Any] = {}


def _start_worker(queue: Any) -> None:
    _WORKER["queue"] = queue
    parent = os.getppid()

    def watch() -> None:  # a worker dies with its server (killed, it can't say goodbye)
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="review-parent-watch", daemon=True).start()


def version_of(judge: str) -> str:
    """The code's version kept with a review by ``judge``."""
    return DEEP_REVIEW_VERSION if judge == "deep" else REVIEW_VERSION


def job_key(table_id: str, judge: str) -> str:
    """A job's name among the jobs: the game's id, with ``:deep`` for its deep review."""
    return table_id if judge == "fast" else f"{table_id}:{judge}"


def make_review(record: dict[str, Any], settings: dict[str, Any], judge: str, progress: Progress) -> GameReview:
    """The review of ``record`` by ``judge``: the evaluator takes ``settings`` but
    ``"deep"``, the deep review's rollouts ``settings["deep"]``."""
    return review_afresh(GameRecord.from_dict(record), settings, judge, progress)


def review_job(
    key: str, record: dict[str, Any], settings: dict[str, Any], judge: str = "fast"
) -> tuple[dict[str, Any], float]:
    """In a worker process: the review of ``record`` (``ghostparty-review/1``) by ``judge``
    and its CPU seconds; the progress goes to the queue as ``(key, done, total)``."""
    started = time.process_time()

    def progress(done: int, total: int) -> None:
        queue = _WORKER.get("queue")
        if queue is not None and (done % PROGRESS_EVERY == 0 or done == total):
            queue.put((key, done, total))

    review = make_review(record, settings, judge, progress)
    return review.as_dict(), time.process_time() - started


@dataclass
class Job:
    """A game's review being made: queued until the worker's first report."""

    table_id: str
    future: asyncio.Future[None] = field(repr=False)
    progress: float = 0.0
    running: bool = False
    judge: str = "fast"

    @property
    def key(self) -> str:
        return job_key(self.table_id, self.judge)

    def status(self) -> dict[str, Any]:
        return {"status": "running" if self.running else "queued", "progress": round(self.progress, 3)}


class Reviewer:
    """The review jobs of one instance, stored in ``store``; ``clock`` dates them."""

    def __init__(
        self,
        store: ReviewStore,
        *,
        workers: int = 1,
        max_jobs: int = MAX_JOBS,
        settings: dict[str, Any] | None = None,
        clock: Callable[[], datetime],
    ) -> None:
        if workers < 1:
            raise ValueError(f"review workers must be at least 1, not {workers}")
        self.store = store
        self.workers = workers
        self.max_jobs = max_jobs
        #: The evaluator's settings (``depth``, ``horizon``, …) and the deep review's
        #: (``"deep"``: ``rollouts``, ``cut``, …): tests make reviews cheap.
        self.settings = settings or {}
        self.clock = clock
        self.jobs: dict[str, Job] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._listener: threading.Thread | None = None
        #: Set when the pool is forgotten: its progress thread stops.
        self._stop = threading.Event()
        self._tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        """The pool, started on first use (spawned: a forked copy of a server with
        threads and open connections would inherit their locks)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._queue = context.Queue()
            self._stop = threading.Event()
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(self._queue,)
            )
            self._listener = threading.Thread(
                target=self._listen, args=(self._queue, self._stop), name="review-progress", daemon=True
            )
            self._listener.start()
        return self._pool

    def _listen(self, reports: Any, stop: threading.Event) -> None:
        """The progress reports, into the jobs (a float's assignment: no lock needed),
        until ``stop``. Nothing is ever put on the queue from this process: a worker
        stopped while sending holds the queue's lock for good, and a put here would
        then hang this process's exit (its feeder thread is joined at exit)."""
        while not stop.is_set():
            try:
                message = reports.get(timeout=0.25)
            except queue.Empty:
                continue
            except (OSError, EOFError, ValueError):  # the queue is gone
                return
            key, done, total = message
            job = self.jobs.get(key)
            if job is not None:
                job.running = True
                job.progress = done / total if total else 1.0

    async def review(
        self, table_id: str, record: Callable[[], Awaitable[dict[str, Any]]], judge: str = "fast"
    ) -> dict[str, Any]:
        """The stored review by ``judge`` (``{"status": "done", "review": …}``) or the
        job's status, after starting one if there is none; ``record()`` gives the
        finished game's record (it refuses a game that isn't over)."""
        key = job_key(table_id, judge)
        job = self.jobs.get(key)
        if job is not None:
            return job.status()
        stored = await in_thread(self.store.review, table_id, judge)
        if stored is not None and stored.version == version_of(judge):
            return done(stored)
        job = self.jobs.get(key)  # asked for meanwhile
        if job is not None:
            return job.status()
        if len(self.jobs) >= self.max_jobs:
            raise ServiceError(
                ErrorCode.BUSY, f"{len(self.jobs)} games are being reviewed, at most {self.max_jobs}: ask again later",
                retry_after=30,
            )  # fmt: skip
        job = Job(table_id, asyncio.get_running_loop().create_future(), judge=judge)
        self.jobs[key] = job  # before the record is read: whoever asks meanwhile waits for this job
        try:
            data = await record()
        except BaseException:
            self._drop(job)
            raise
        self._submit(job, data)
        return job.status()

    def game_over(self, table_id: str, record: dict[str, Any]) -> None:
        """A game this instance ended: review it now if the queue has room (else it is
        reviewed when someone asks). Called on the event loop."""
        if table_id in self.jobs or len(self.jobs) >= self.max_jobs:
            return
        job = Job(table_id, asyncio.get_running_loop().create_future())
        self.jobs[table_id] = job
        with contextlib.suppress(ServiceError):  # logged; asked for later, it is tried again
            self._submit(job, record)

    def _submit(self, job: Job, record: dict[str, Any]) -> None:
        """Hand the job to the pool, and store its review once made."""
        try:
            submitted = self._executor().submit(review_job, job.key, record, self.settings, job.judge)
        except Exception as error:
            log.exception("the review of table %s could not be queued", job.table_id)
            self._drop(job)
            self._forget_pool()
            message = "the game review could not be started: try again in a moment"
            raise ServiceError(ErrorCode.UNAVAILABLE, message) from error
        task = asyncio.get_running_loop().create_task(self._finish(job, submitted))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _drop(self, job: Job) -> None:
        """The job is over (done, failed or never started)."""
        self.jobs.pop(job.key, None)
        if not job.future.done():
            job.future.set_result(None)

    async def _finish(self, job: Job, submitted: Future[tuple[dict[str, Any], float]]) -> None:
        """Store the job's review once made; a failed job is logged and forgotten
        (the next request tries again)."""
        try:
            review, cpu = await outcome(submitted)
            version = version_of(job.judge)
            stored = StoredReview(job.table_id, version, review, self.clock(), round(cpu, 3), job.judge)
            await in_thread(self.store.put, stored)
            log.info("reviewed table %s (%s) in %.1f s of CPU", job.table_id, job.judge, cpu)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
            if self._closed:
                log.info("the review of table %s was abandoned: the server stopped", job.table_id)
            else:
                log.exception("the review worker died while reviewing table %s", job.table_id)
                self._forget_pool()
        except Exception:
            log.exception("the review of table %s failed", job.table_id)
        finally:
            self._drop(job)

    async def wait(self, table_id: str, judge: str = "fast") -> None:
        """Until the game's job by ``judge`` (if any) is done (tests, shutting down)."""
        job = self.jobs.get(job_key(table_id, judge))
        if job is not None:
            await asyncio.shield(job.future)

    def _forget_pool(self) -> None:
        """Stop the pool and its progress thread; the next job starts new ones."""
        if self._pool is not None:
            # shutdown() lets a running review finish (seconds), which would hold the
            # server's exit or leave the worker behind it: the workers are stopped now.
            workers = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            self._stop.set()  # (not a message on the queue: see _listen)
            self._pool = None

    def close(self) -> None:
        """Stop the pool: running reviews are abandoned (asked for again, they start afresh)."""
        self._closed = True
        self._forget_pool()


async def outcome(submitted: Future[T]) -> T:
    """What the pool's ``submitted`` work gives, awaited without ever cancelling it.

    :func:`asyncio.wrap_future` cancels the pool's future when its waiter is cancelled
    (a server shutting down cancels its tasks); the pool, stopping its workers at the
    same moment, then finds a future cancelled under it and its manager thread raises
    ``InvalidStateError`` (CPython's ``terminate_broken``). Here a cancelled wait leaves
    the work to the pool, which stops it with its workers.
    """
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[T] = loop.create_future()

    def settle() -> None:
        if waiter.done():
            return
        if submitted.cancelled():
            waiter.cancel()
        elif (error := submitted.exception()) is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(submitted.result())

    def finished(_: Future[T]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle)

    submitted.add_done_callback(finished)
    return await waiter


def done(stored: StoredReview) -> dict[str, Any]:
    """The answer for a stored review."""
    return {
        "status": "done",
        "review": stored.review,
        "computed": stored.computed.isoformat(),
        "cpu_seconds": stored.cpu_seconds,
    }
