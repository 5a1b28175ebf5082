"""``ghostparty analyze`` on the compiled simulator: the same tallies, from far more games.

Random play only (every seat the ``random`` bot, whose placement is the uniform one): the
compiled kernel follows each guest by identity as
:class:`~ghostparty.analysis.tracker.GuestTracker` does and counts per starting square
what :class:`~ghostparty.analysis.simulate.SquareTally` counts, so the result is a
:class:`~ghostparty.analysis.simulate.Simulation` like the typed engine's — with other
random numbers: the same seed gives the same numbers on this engine (whatever ``jobs``),
not the typed engine's numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ghostparty.analysis.simulate import Settings, Simulation, SquareTally, Tally
from ghostparty.fast.play import SQUARE_ROWS
from ghostparty.fast.runs import REASONS, tally
from ghostparty.rules import ruleset
from ghostparty.sim.parallel import Workers
from ghostparty.sim.stats import WinTally


def supports(settings: Settings) -> bool:
    """Whether the compiled simulator can play these settings (random play)."""
    return settings.bot == "random"


def simulate_compiled(
    settings: Settings, jobs: int = 1, progress: Callable[[int], None] | None = None, pool: Workers | None = None
) -> Simulation:
    """:func:`ghostparty.analysis.simulate.simulate` for random play, compiled.

    ``pool`` is used as :func:`ghostparty.fast.runs.run_jobs` says.

    :raises ValueError: for settings it cannot play (see :func:`supports`) or that are wrong.
    """
    settings.check()
    if not supports(settings):
        raise ValueError(f"the compiled simulator plays the random bot only, not {settings.bot!r}")
    started = time.perf_counter()
    counts, _ = tally(
        settings.rules,
        settings.players,
        settings.games,
        settings.seed,
        settings.horizon == "game",
        jobs,
        progress,
        pool,
    )
    squares = ruleset(settings.rules).board.squares
    players = settings.players
    rows = [[int(x) for x in counts[i * squares : (i + 1) * squares]] for i in range(len(SQUARE_ROWS))]
    square_tally = SquareTally(squares, *rows)
    at = len(SQUARE_ROWS) * squares
    shared = [[int(x) for x in counts[at + seat * players : at + (seat + 1) * players]] for seat in range(players)]
    at += players * players
    wins = WinTally(players, settings.games, shared, [int(x) for x in counts[at : at + players]])
    at += players
    ends = {REASONS[code]: int(counts[at + code]) for code in range(1, len(REASONS)) if counts[at + code]}
    slots = pool.slots if pool is not None else max(1, jobs)
    return Simulation(settings, Tally(square_tally, wins, ends), time.perf_counter() - started, slots)
