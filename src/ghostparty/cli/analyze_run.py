"""What ``ghostparty analyze``'s subcommands share: options, workers and progress, the engine.

The workers are :mod:`ghostparty.sim.parallel`'s: local processes (``--jobs``) or a Dask
cluster (``--dask tcp://host:8786``); the numbers are the same on either.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from ghostparty import fast
from ghostparty.analysis.simulate import PLACEMENTS, Settings, Simulation, default_jobs, simulate
from ghostparty.bots import bot_names
from ghostparty.cli.progress import progress_bar
from ghostparty.rules import COLOURS, RULESETS
from ghostparty.sim.parallel import ParallelError, Workers, workers

F = TypeVar("F", bound=Callable[..., Any])
#: ``--engine``: the compiled simulator where it applies, or the typed rules core.
ENGINES = ("auto", "compiled", "typed")

#: ``--dask``, for every subcommand that plays games.
dask_option = click.option(
    "--dask",
    metavar="ADDRESS",
    help="Play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786) instead of local "
    "processes; the same numbers. Needs pip install 'ghostparty[dask]' here and on the workers.",
)


def check_bot(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--bot``'s callback: a registered bot name, else a usage error."""
    name = value.strip().lower()
    if name not in bot_names():
        raise click.BadParameter(f"unknown bot {value!r}: choose from {', '.join(bot_names())}")
    return name


def jobs_of(value: int, dask: str | None) -> int:
    """``--jobs``: 0 is every core; with ``--dask`` it must be left out (the cluster's workers are the processes)."""
    if dask is not None and value:
        raise click.UsageError("--jobs and --dask: give one (on a Dask cluster, its workers are the processes)")
    return value if value > 0 else default_jobs()


def seat_label(seat: int) -> str:
    """``"0 red"``: a seat with its colour (RULES.md §1.5)."""
    return f"{seat} {COLOURS[seat]}" if seat < len(COLOURS) else str(seat)


def pct(x: float, digits: int = 1) -> str:
    """``0.1234`` → ``"12.3%"``; NaN → ``"–"``."""
    return "–" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def interval(low: float, high: float) -> str:
    """A 95 % interval in percent, compactly: ``"21.3–27.9"``."""
    return f"{100 * low:.1f}–{100 * high:.1f}"


def run_options(games_default: int, placement_default: str) -> Callable[[F], F]:
    """The options every simulating subcommand shares."""

    def decorate(func: F) -> F:
        for option in reversed(
            [
                click.option(
                    "--rules",
                    type=click.Choice(sorted(RULESETS)),
                    default="hugo",
                    show_default=True,
                    help="Rule set (and board side).",
                ),
                click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True, help="2 to 8."),
                click.option(
                    "--bot",
                    default="random",
                    show_default=True,
                    callback=check_bot,
                    help=f"The policy every seat plays ({', '.join(bot_names())}).",
                ),
                click.option(
                    "--placement",
                    type=click.Choice(PLACEMENTS),
                    default=placement_default,
                    show_default=True,
                    help="uniform: every guest placed on a uniformly random empty square, the bot plays "
                    "the moves; bot: the bot places too.",
                ),
                click.option(
                    "--games",
                    type=click.IntRange(1),
                    default=games_default,
                    show_default=True,
                    help="Games to simulate.",
                ),
                click.option("--seed", type=int, default=0, show_default=True, help="Seed: same seed, same numbers."),
                click.option(
                    "--jobs",
                    type=click.IntRange(0),
                    default=0,
                    help="Worker processes (default 0: every core). The numbers do not depend on it.",
                ),
                click.option(
                    "--engine",
                    type=click.Choice(ENGINES),
                    default="auto",
                    show_default=True,
                    help="compiled: the Numba simulator (random bot only; other random numbers than the typed "
                    "engine's); typed: the rules core; auto: compiled where it applies and numba is installed.",
                ),
                dask_option,
                click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON."),
                click.option("--no-progress", is_flag=True, help="No progress bar."),
            ]
        ):
            func = option(func)
        return func

    return decorate


@contextmanager
def running(
    console: Console, total: int, what: str, jobs: int, show: bool, dask: str | None = None
) -> Iterator[tuple[Workers, Callable[[int], None]]]:
    """The workers (started first: local processes fork before the bar's thread) and a progress bar.

    :raises click.ClickException: when the Dask cluster at ``dask`` cannot be had, saying why.
    """
    with ExitStack() as stack:
        try:
            pool = stack.enter_context(workers(jobs, dask))
        except ParallelError as error:
            raise click.ClickException(str(error)) from None
        if dask is not None:
            console.print(f"on {pool.describe()}", markup=False, soft_wrap=True)
        if not show:
            yield pool, lambda n: None
            return
        progress = stack.enter_context(progress_bar(console))
        task = progress.add_task(what, total=total)
        yield pool, lambda n: progress.advance(task, n)


def choose_engine(engine: str, settings: Settings, console: Console) -> str:
    """``"compiled"`` or ``"typed"``: what ``--engine`` asks for, where it can run; says why on a fallback.

    :raises click.ClickException: for ``--engine compiled`` where it cannot run.
    """
    applies = settings.bot == "random"
    if engine == "typed" or (engine == "auto" and not applies):
        return "typed"
    if not applies:
        raise click.ClickException(f"--engine compiled plays the random bot only, not {settings.bot!r}")
    if not fast.available():
        if engine == "compiled":
            raise click.ClickException(fast.INSTALL_HINT)
        console.print(f"[yellow]{escape(fast.INSTALL_HINT)}[/]; using the typed engine (slower)")
        return "typed"
    return "compiled"


def run_simulation(
    settings: Settings, jobs: int, console: Console, show: bool, engine: str = "typed", dask: str | None = None
) -> Simulation:
    """The simulation for ``squares`` and ``seats``, on the engine chosen, with a progress bar."""
    try:
        settings.check()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    what = f"{settings.rules} {settings.players}p, {settings.bot}"
    if engine == "compiled":
        from ghostparty.fast.analysis import simulate_compiled
        from ghostparty.fast.runs import warm_up

        if dask is None:
            with console.status("compiling the simulator (or loading it from Numba's cache)"):
                warm_up()  # before the workers fork, so that they inherit it
        with running(console, settings.games, f"{what}, compiled", jobs, show, dask) as (pool, advance):
            return simulate_compiled(settings, jobs, advance, pool)
    with running(console, settings.games, what, jobs, show, dask) as (pool, advance):
        return simulate(settings, jobs, advance, pool)
