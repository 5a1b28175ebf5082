"""One parallel driver: chunks of games in this process, a local process pool or a Dask cluster.

Every run that plays many games (tournaments, analyses, the compiled bulk simulator)
splits them into chunks by game index (:func:`chunks`) and maps a module-level function
over the chunks with :meth:`Workers.map`, which hands the results back **in chunk
order**, whatever order they finished in, and reports progress as each chunk finishes.
Since a game depends only on its run's seed and its index (:mod:`ghostparty.sim.seeds`),
the results are the same on one process, on many, or on a cluster.

* ``workers(1)``: in this process.
* ``workers(jobs)``: a :class:`multiprocessing.Pool` of ``jobs`` processes, forked on
  Linux (fast, and the workers know every bot registered at run time), spawned
  elsewhere (which needs the usual ``if __name__ == "__main__":`` guard in a script).
  Enter it *before* starting threads such as a progress bar's refresh thread: forking a
  process that runs threads is unsafe.
* ``workers(dask="tcp://host:8786")``: a :class:`distributed.Client` of a Dask scheduler
  (``pip install "ghostparty[dask]"`` here and on every worker machine). The chunks are
  submitted as tasks and gathered with ``as_completed``; the cluster's worker threads
  stand for ``jobs`` when chunking.
"""

from __future__ import annotations

import importlib
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import Any, TypeVar

__all__ = ["DASK_HINT", "ParallelError", "Workers", "chunks", "default_jobs", "workers"]

R = TypeVar("R")

#: What to install for ``--dask``.
DASK_HINT = "--dask needs Dask's distributed scheduler: pip install 'ghostparty[dask]'"
#: Seconds to wait for a Dask scheduler to answer, and for its first worker.
CONNECT_TIMEOUT = 5.0


class ParallelError(Exception):
    """The workers could not be had: no Dask scheduler at the address, no worker, no Dask."""


def default_jobs() -> int:
    """The number of processes to use when none is given: every core."""
    return multiprocessing.cpu_count()


def chunks(total: int, slots: int, most: int, per_slot: int = 16) -> list[tuple[int, int]]:
    """Split ``range(total)`` into ``(start, stop)`` pieces: about ``per_slot`` per worker
    slot (an even load and a smooth progress bar), none longer than ``most``.

    >>> chunks(10, 1, most=4)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10)]
    >>> chunks(10, 1, most=4, per_slot=2)
    [(0, 4), (4, 8), (8, 10)]
    """
    size = max(1, min(most, total // (max(1, slots) * per_slot)))
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def _call(job: tuple[int, Callable[..., Any], tuple[Any, ...]]) -> tuple[int, Any]:
    index, func, args = job
    return index, func(*args)


def _ignore_interrupts() -> None:
    """Worker initializer: leave Ctrl-C to the parent, which terminates the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Workers:
    """Where chunks run: this process, a local :class:`~multiprocessing.pool.Pool`, or a
    Dask ``Client``. Make one with :func:`workers`."""

    def __init__(self, jobs: int = 1, pool: Pool | None = None, client: Any = None) -> None:
        self.pool = pool
        self.client = client
        #: Worker slots: processes, or the Dask cluster's worker threads.
        self.slots = max(1, jobs)

    @property
    def local(self) -> bool:
        """Whether the chunks run in this process."""
        return self.pool is None and self.client is None

    def describe(self) -> str:
        """``"1 process"``, ``"4 processes"`` or ``"6 Dask worker threads at tcp://…"``."""
        if self.client is not None:
            return f"{self.slots} Dask worker thread{'s' if self.slots > 1 else ''} at {self.client.scheduler.address}"
        return f"{self.slots} process{'es' if self.slots > 1 else ''}"

    def map(
        self,
        func: Callable[..., R],
        tasks: Sequence[tuple[Any, ...]],
        progress: Callable[[int], None] | None = None,
        sizes: Sequence[int] | None = None,
    ) -> Iterator[R]:
        """``func(*task)`` for every task, yielded in task order; ``progress(sizes[i])``
        (default 1) is called in this process as task ``i`` finishes.

        ``func`` must be a module-level function (it is sent to the workers by name).
        An exception of a task is raised here (the other tasks are abandoned).
        """
        weights = sizes if sizes is not None else [1] * len(tasks)
        if self.client is not None:
            yield from self._map_dask(func, tasks, progress, weights)
        elif self.pool is None or len(tasks) <= 1:
            for task, weight in zip(tasks, weights, strict=True):
                result = func(*task)
                if progress is not None:
                    progress(weight)
                yield result
        else:
            finished = self.pool.imap_unordered(_call, [(i, func, task) for i, task in enumerate(tasks)])
            yield from _in_order(finished, progress, weights)

    def _map_dask(
        self,
        func: Callable[..., R],
        tasks: Sequence[tuple[Any, ...]],
        progress: Callable[[int], None] | None,
        weights: Sequence[int],
    ) -> Iterator[R]:
        as_completed = _distributed().as_completed
        futures = [self.client.submit(_call, (i, func, task), pure=False) for i, task in enumerate(tasks)]
        try:
            yield from _in_order(
                (future.result() for future in as_completed(futures, loop=self.client.loop)), progress, weights
            )
        finally:
            self.client.cancel(futures)


def _in_order(
    finished: Iterator[tuple[int, R]], progress: Callable[[int], None] | None, weights: Sequence[int]
) -> Iterator[R]:
    """The results of ``(index, result)`` pairs arriving in any order, in index order."""
    waiting: dict[int, R] = {}
    after = 0
    for index, result in finished:
        if progress is not None:
            progress(weights[index])
        waiting[index] = result
        while after in waiting:
            yield waiting.pop(after)
            after += 1


def _context() -> multiprocessing.context.BaseContext:
    """``fork`` on Linux (fast, and workers see every registered bot), else ``spawn``."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _distributed() -> Any:
    """Dask's ``distributed`` (untyped: used through ``Any``).

    :raises ParallelError: when it is not installed, saying what to install.
    """
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ParallelError(DASK_HINT) from None


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask ``Client`` of the scheduler at ``address`` with at least one worker.

    :raises ParallelError: without Dask, or when the scheduler does not answer or has no
        worker within ``timeout`` seconds — saying which.
    """
    try:
        client = _distributed().Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ParallelError(
            f"no Dask scheduler answered at {address!r} within {timeout:g} s ({error}): start one with "
            "`dask scheduler` and give its address, e.g. --dask tcp://host:8786"
        ) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as error:
        client.close()
        raise ParallelError(
            f"the Dask scheduler at {address} has no worker ({error}): start some with `dask worker {address}`"
        ) from None
    return client


@contextmanager
def workers(jobs: int = 1, dask: str | None = None, timeout: float = CONNECT_TIMEOUT) -> Iterator[Workers]:
    """The :class:`Workers` of a run: this process (``jobs`` 1), ``jobs`` local processes,
    or the Dask cluster whose scheduler is at ``dask`` (``jobs`` is then ignored).

    :raises ParallelError: as :func:`connect` says.
    :raises ValueError: for ``jobs`` below 1.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if dask is not None:
        client = connect(dask, timeout)
        try:
            yield Workers(sum(client.nthreads().values()), client=client)
        finally:
            client.close()
        return
    if jobs == 1:
        yield Workers(1)
        return
    with _context().Pool(jobs, initializer=_ignore_interrupts) as pool:
        yield Workers(jobs, pool=pool)
