"""Running compiled games from Python: warm-up, batches over processes, their results.

Game ``i`` of a run depends on ``(seed, i)`` alone and results are integer counts, so a
run gives the same numbers with any ``jobs``. Work is split into chunks of games, each
played by :func:`ghostparty.fast.play.batch` on the project's one parallel driver
(:mod:`ghostparty.sim.parallel`): in a worker process (forked after the kernel is
loaded where the platform allows, so workers do not load it again) or on a Dask cluster.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ghostparty.fast.play import SUMMARY, batch, tally_size
from ghostparty.fast.tables import tables
from ghostparty.fast.trace import policy_codes
from ghostparty.rules import GUESTS_PER_PLAYER, ruleset
from ghostparty.sim.parallel import Workers, workers

#: End reasons by code (``GameOver.reason``), index 0 unused.
REASONS = ("", "score", "clock", "rounds")


@dataclass(frozen=True)
class Job:
    """One chunk of a run: everything a worker needs to play it."""

    rules: str
    players: int
    policies: tuple[str, ...]
    seed: int
    first: int
    count: int
    horizon_game: bool = False
    tally: bool = False

    def arrays(self) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.int32], np.uint64]:
        """The kernel's table, guests per player, policy codes and 64-bit seed."""
        return (
            tables(ruleset(self.rules)),
            GUESTS_PER_PLAYER[self.players],
            policy_codes(self.policies, self.players),
            np.uint64(self.seed % 2**64),
        )


def _empty(*shape: int, dtype: Any = np.int32) -> npt.NDArray[Any]:
    return np.zeros(shape, dtype=dtype)


def play_chunk(job: Job) -> tuple[npt.NDArray[np.int64], float]:
    """Play one chunk; its per-game summary rows (or its tally) and the CPU seconds it took."""
    started = time.process_time()
    t, per, codes, seed = job.arrays()
    if job.tally:
        result = np.zeros(tally_size(ruleset(job.rules).board.squares, job.players), dtype=np.int64)
        rows = _empty(0, 0)
    else:
        rows = np.zeros((job.count, SUMMARY + job.players), dtype=np.int32)
        result = _empty(0, dtype=np.int64)
    batch(
        t, job.players, per, codes, seed, job.first, job.count, int(job.horizon_game),
        rows, result, _empty(0, 2, dtype=np.int64), _empty(0, 0), _empty(0, 2),
    )  # fmt: skip
    return (result if job.tally else rows.astype(np.int64)), time.process_time() - started


@dataclass(frozen=True)
class WarmUp:
    """How long the kernel took to be ready: compiled, or loaded from Numba's cache."""

    seconds: float
    cpu_seconds: float
    from_cache: bool


def warm_up() -> WarmUp:
    """Compile the kernel (or load it from the cache) by playing one tiny game."""
    wall, cpu = time.perf_counter(), time.process_time()
    play_chunk(Job("hugo", 2, ("random",), 0, 0, 1))
    stats = batch.stats
    return WarmUp(time.perf_counter() - wall, time.process_time() - cpu, bool(stats.cache_hits))


def chunks(first: int, count: int, jobs: int, most: int = 50_000) -> list[tuple[int, int]]:
    """``(first, count)`` pieces of a run: a few per process, none larger than ``most``."""
    size = max(1, min(most, -(-count // max(1, jobs * 4))))
    return [(start, min(size, first + count - start)) for start in range(first, first + count, size)]


def run_jobs(
    jobs: Sequence[Job], processes: int, progress: Callable[[int], None] | None = None, pool: Workers | None = None
) -> list[tuple[npt.NDArray[np.int64], float]]:
    """Every job's result, in order: on ``pool``, else in this process or over ``processes`` new workers.

    A local pool passed in should have been started after :func:`warm_up` (its workers
    then inherit the loaded kernel) and before any thread (forking a threaded process is unsafe).
    """
    with ExitStack() as stack:
        if pool is None:
            processes = processes if len(jobs) > 1 else 1
            if processes > 1:
                warm_up()  # load once before forking
            pool = stack.enter_context(workers(processes))
        return list(pool.map(play_chunk, [(job,) for job in jobs], progress, [job.count for job in jobs]))


@dataclass(frozen=True)
class Summaries:
    """Per-game results of a compiled run, with the time it took."""

    rules: str
    players: int
    policies: tuple[str, ...]
    seed: int
    #: One row per game: actions, guests captured, end reason, winners mask, final scores.
    rows: npt.NDArray[np.int64]
    seconds: float
    #: CPU seconds of every process that played (the workers' own, summed).
    cpu_seconds: float
    jobs: int

    @property
    def games(self) -> int:
        return len(self.rows)

    @property
    def actions(self) -> npt.NDArray[np.int64]:
        return self.rows[:, 0]

    @property
    def captured(self) -> npt.NDArray[np.int64]:
        return self.rows[:, 1]

    @property
    def scores(self) -> npt.NDArray[np.int64]:
        return self.rows[:, SUMMARY:]

    def wins(self) -> npt.NDArray[np.float64]:
        """Each game's win per seat, a shared win counting 1/k."""
        mask = (self.rows[:, 3:4] >> np.arange(self.players) & 1).astype(np.float64)
        wins: npt.NDArray[np.float64] = mask / mask.sum(axis=1, keepdims=True)
        return wins

    def reasons(self) -> dict[str, int]:
        """Games per end reason."""
        codes, counts = np.unique(self.rows[:, 2], return_counts=True)
        return {REASONS[int(c)]: int(n) for c, n in zip(codes, counts, strict=True)}


def simulate(
    rules: str,
    players: int,
    games: int,
    seed: int = 0,
    policies: Sequence[str] = ("random",),
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Summaries:
    """Play ``games`` compiled games from the start; one summary row each.

    ``policies`` are the seats' policies, repeated round the table (``("safe", "random")``
    seats ``safe`` at the even seats). The numbers depend on the arguments, not on ``jobs``.
    """
    policy_codes(policies, players)  # check the names before starting workers
    pieces = [Job(rules, players, tuple(policies), seed, a, n) for a, n in chunks(0, games, jobs)]
    wall = time.perf_counter()
    results = run_jobs(pieces, jobs, progress)
    seconds = time.perf_counter() - wall
    rows = np.concatenate([rows for rows, _ in results])
    return Summaries(rules, players, tuple(policies), seed, rows, seconds, sum(c for _, c in results), max(1, jobs))


def tally(
    rules: str,
    players: int,
    games: int,
    seed: int = 0,
    horizon_game: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    pool: Workers | None = None,
) -> tuple[npt.NDArray[np.int64], float]:
    """The random-play tally of ``games`` games (laid out by :func:`~ghostparty.fast.play.tally_size`)
    and the CPU seconds it took, over ``jobs`` processes."""
    pieces = [
        Job(rules, players, ("random",), seed, a, n, horizon_game=horizon_game, tally=True)
        for a, n in chunks(0, games, pool.slots if pool is not None else jobs)
    ]
    results = run_jobs(pieces, jobs, progress, pool)
    return np.sum([part for part, _ in results], axis=0), sum(c for _, c in results)
