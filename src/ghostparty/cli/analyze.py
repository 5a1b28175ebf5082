"""``ghostparty analyze``: capture odds per square, the first player's advantage, move odds.

The simulations, statistics and drawing are :mod:`ghostparty.analysis`'s; this module
parses the options and prints tables (or JSON). Examples::

    ghostparty analyze squares --rules hugo --players 4 --games 5000 --out docs/heatmap-hugo-4p
    ghostparty analyze seats --rules midnight-party --players 3 --bot greedy
    ghostparty analyze position FILE.json --games-per-move 500
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ghostparty import fast
from ghostparty.analysis.heatmap import INSTALL_HINT, heatmap_paths, matplotlib_available, save_heatmap, top_squares
from ghostparty.analysis.position import PositionAnalysis, analyze_position, options
from ghostparty.analysis.simulate import HORIZONS, PLACEMENTS, Settings, Simulation, default_jobs, simulate, workers
from ghostparty.bots import bot_names
from ghostparty.cli.progress import progress_bar
from ghostparty.rules import COLOURS, RULESETS, InvalidPosition, position_from_dict

F = TypeVar("F", bound=Callable[..., Any])
#: ``--engine``: the compiled simulator where it applies, or the typed rules core.
ENGINES = ("auto", "compiled", "typed")


def _check_bot(ctx: click.Context, param: click.Parameter, value: str) -> str:
    name = value.strip().lower()
    if name not in bot_names():
        raise click.BadParameter(f"unknown bot {value!r}: choose from {', '.join(bot_names())}")
    return name


def _jobs(value: int) -> int:
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
                    callback=_check_bot,
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
                click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON."),
                click.option("--no-progress", is_flag=True, help="No progress bar."),
            ]
        ):
            func = option(func)
        return func

    return decorate


@contextmanager
def running(
    console: Console, total: int, what: str, jobs: int, show: bool
) -> Iterator[tuple[Any, Callable[[int], None]]]:
    """The worker pool (started first: its processes fork before the bar's thread) and a progress bar."""
    with ExitStack() as stack:
        pool = stack.enter_context(workers(jobs))
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


def _simulate(settings: Settings, jobs: int, console: Console, show: bool, engine: str = "typed") -> Simulation:
    try:
        settings.check()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    what = f"{settings.rules} {settings.players}p, {settings.bot}"
    if engine == "compiled":
        from ghostparty.fast.analysis import simulate_compiled
        from ghostparty.fast.runs import warm_up

        with console.status("compiling the simulator (or loading it from Numba's cache)"):
            warm_up()  # before the workers fork, so that they inherit it
        with running(console, settings.games, f"{what}, compiled", jobs, show) as (pool, advance):
            return simulate_compiled(settings, jobs, advance, pool)
    with running(console, settings.games, what, jobs, show) as (pool, advance):
        return simulate(settings, jobs, advance, pool)


@click.group("analyze")
def analyze() -> None:
    """Capture odds per starting square (with a heat-map), the first player's advantage, and
    the odds of each move in a position — from simulated games where every seat plays one
    bot policy.

    \b
    ghostparty analyze squares   capture probability and spooky points per starting square
    ghostparty analyze seats     win rate per seat with 95% intervals (first-player advantage)
    ghostparty analyze position  win probability of each legal move in a position file
    """


# -- squares ---------------------------------------------------------------------------------------


@analyze.command("squares")
@run_options(games_default=2000, placement_default="uniform")
@click.option(
    "--horizon",
    type=click.Choice(HORIZONS),
    default="round",
    show_default=True,
    help="midnight-party: follow each starting guest to the end of round 1, or of the game (hugo: one round).",
)
@click.option("--out", metavar="PATH", help="Write the heat-map: PATH.png and PATH.svg (or PATH.png / PATH.svg alone).")
@click.option("--png", metavar="FILE", help="Write the heat-map as PNG to FILE.")
@click.option("--svg", metavar="FILE", help="Write the heat-map as SVG to FILE.")
@click.option(
    "--min-samples",
    type=click.IntRange(1),
    default=30,
    show_default=True,
    help="Squares with fewer starting guests are hatched, not coloured.",
)
def squares(
    rules: str,
    players: int,
    bot: str,
    placement: str,
    games: int,
    seed: int,
    jobs: int,
    engine: str,
    as_json: bool,
    no_progress: bool,
    horizon: str,
    out: str | None,
    png: str | None,
    svg: str | None,
    min_samples: int,
) -> None:
    """How dangerous is each starting square? For a guest placed on a square at the start:
    the probability that Hugo captures it (at least once; in midnight-party during round 1,
    or the whole game with --horizon game) and the spooky points it costs its owner.

    With --placement uniform (the default) every square gets about the same number of
    samples; with --placement bot the numbers are those of the bot's own games, and
    squares it seldom chooses have few samples (see the n column). --out, --png or --svg
    draw the board as a heat-map (needs matplotlib).
    """
    try:
        paths = heatmap_paths(out, png, svg)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--out") from None
    if paths and not matplotlib_available():
        raise click.ClickException(INSTALL_HINT)
    console = Console(highlight=False, stderr=as_json)
    settings = Settings(rules, players, bot, placement, horizon, games, seed)
    jobs = _jobs(jobs)
    engine = choose_engine(engine, settings, console)
    simulation = _simulate(settings, jobs, console, not no_progress, engine)
    written = save_heatmap(simulation, paths, min_samples=min_samples) if paths else []
    stats = simulation.squares()
    if as_json:
        data = {
            **simulation.settings_dict(),
            "engine": engine,
            "min_samples": min_samples,
            "squares": [s.as_dict() for s in stats],
            "files": [str(p) for p in written],
        }
        click.echo(json.dumps(data, indent=2, allow_nan=False))
        return
    midnight = rules == "midnight-party"
    table = Table(title=f"Starting squares — {settings.describe()}, seed {seed}")
    columns = ["square", "n", "captured", "95% CI", "points", "net"]
    if midnight:
        columns.append("cellar")
    for column in columns:
        table.add_column(column, justify="left" if column == "square" else "right")
    for s in stats:
        thin = s.samples < min_samples
        row = [
            f"{s.name} {s.door_of}" if s.door_of else s.name,
            f"{s.samples:,}",
            pct(s.capture_probability),
            interval(s.ci_low, s.ci_high),
            f"{s.mean_capture_points:.2f}",
            f"{s.mean_points:.2f}",
        ]
        if midnight:
            row.append(pct(s.cellar_probability))
        table.add_row(*row, style="dim" if thin else None)
    console.print(table)
    when = "during round 1" if midnight and horizon == "round" else "before the game ends"
    ends = "round 1" if horizon == "round" else "a round"
    console.print(
        f"n: guests that started there; captured: probability that Hugo captures such a guest {when} "
        "(95% CI in percent); points: mean spooky points of its captures; net: all points booked to it, "
        "shields included"
        + (
            f", and the wine cellar; cellar: probability it was left on the gallery at the end of {ends}"
            if midnight
            else ""
        )
        + " (lower is better). More numbers with --json."
    )
    worst = top_squares(stats, 5, min_samples)
    best = top_squares(stats, 5, min_samples, safest=True)
    if worst:
        console.print("most dangerous: " + ", ".join(f"{s.name} {pct(s.capture_probability)}" for s in worst))
        console.print("safest:         " + ", ".join(f"{s.name} {pct(s.capture_probability)}" for s in best))
    thin_count = sum(s.samples < min_samples for s in stats)
    if thin_count:
        console.print(f"{thin_count} squares have fewer than {min_samples} samples (dim; hatched in the heat-map).")
    for path in written:
        console.print(f"wrote {path}")
    console.print(_timing(simulation, engine))


def _timing(simulation: Simulation, engine: str) -> str:
    jobs = simulation.jobs
    return (
        f"{simulation.settings.games:,} games in {simulation.seconds:.1f} s on {jobs} process{'es' if jobs > 1 else ''}"
        f" ({engine} engine)"
    )


# -- seats -----------------------------------------------------------------------------------------


@analyze.command("seats")
@run_options(games_default=2000, placement_default="bot")
def seats(
    rules: str,
    players: int,
    bot: str,
    placement: str,
    games: int,
    seed: int,
    jobs: int,
    engine: str,
    as_json: bool,
    no_progress: bool,
) -> None:
    """The first player's advantage: each seat's win rate (a win shared by k players counts
    1/k) with 95% Wilson intervals, and mean final score, when every seat plays the same bot.
    Seat 0 places first and moves first."""
    console = Console(highlight=False, stderr=as_json)
    settings = Settings(rules, players, bot, placement, "round", games, seed)
    jobs = _jobs(jobs)
    engine = choose_engine(engine, settings, console)
    simulation = _simulate(settings, jobs, console, not no_progress, engine)
    stats = simulation.seats()
    fair = 1 / players
    if as_json:
        data = {
            **simulation.settings_dict(),
            "engine": engine,
            "fair_share": round(fair, 5),
            "seats": [s.as_dict() for s in stats],
        }
        del data["horizon"]
        click.echo(json.dumps(data, indent=2, allow_nan=False))
        return
    table = Table(title=f"Wins per seat — {settings.describe()}, seed {seed}")
    for column in ("seat", "wins", "win rate", "95% CI", "vs fair", "mean score"):
        table.add_column(column, justify="left" if column == "seat" else "right")
    for s in stats:
        edge = s.win_rate - fair
        colour = "green" if s.ci_low > fair else "red" if s.ci_high < fair else ""
        table.add_row(
            seat_label(s.seat),
            f"{s.wins:,.1f}",
            pct(s.win_rate),
            interval(s.ci_low, s.ci_high),
            f"[{colour}]{100 * edge:+.1f} pp[/]" if colour else f"{100 * edge:+.1f} pp",
            f"{s.mean_score:.2f}",
        )
    console.print(table)
    first = stats[0]
    verdict = "above" if first.ci_low > fair else "below" if first.ci_high < fair else "not distinguishable from"
    console.print(
        f"Fair share {pct(fair)}. Seat 0 (first to place and to move) wins {pct(first.win_rate)} "
        f"[{pct(first.ci_low)}–{pct(first.ci_high)}]: {verdict} the fair share at 95%. "
        f"Game ends: {', '.join(f'{k} {v:,}' for k, v in sorted(simulation.tally.ends.items()))}."
    )
    console.print(_timing(simulation, engine))


# -- position --------------------------------------------------------------------------------------


def load_position(path: Path) -> Any:
    """Read a position file: a ``hugo-position/1`` object, or a scenario holding one under ``position``.

    :raises click.ClickException: naming the file and what is wrong with it.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise click.ClickException(f"{path} is not a JSON file: {error}") from None
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("position"), dict):
        data = data["position"]
    try:
        return position_from_dict(data)
    except InvalidPosition as error:
        raise click.ClickException(f"invalid position in {path}: {error}") from None


@analyze.command("position")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--games-per-move",
    type=click.IntRange(1),
    default=400,
    show_default=True,
    help="Continuations simulated after each move.",
)
@click.option(
    "--bot", default="random", show_default=True, callback=_check_bot, help="The policy of every seat afterwards."
)
@click.option(
    "--placement",
    type=click.Choice(PLACEMENTS),
    default="bot",
    show_default=True,
    help="Who places guests still to be placed (also in later Midnight Party rounds).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: same seed, same numbers.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default 0: every core).")
@click.option("--top", type=click.IntRange(1), help="Show only the best N moves of each table.")
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def position(
    file: Path,
    games_per_move: int,
    bot: str,
    placement: str,
    seed: int,
    jobs: int,
    top: int | None,
    as_json: bool,
    no_progress: bool,
) -> None:
    """The odds of each legal move in the position in FILE (FORMAT.md's hugo-position/1
    JSON, or a scenario file with a position): win probability and the spooky points still
    to come for the player to move, from simulated continuations — best first.

    In phase 'move' or 'place' the options are the legal moves or placements; in phase
    'roll' each die outcome gets its own table. Every continuation is played by --bot
    for every seat; continuation j uses the same dice after every move.
    """
    start = load_position(file)
    try:
        choices = options(start)
    except ValueError as error:
        raise click.ClickException(f"{file}: {error}") from None
    console = Console(highlight=False, stderr=as_json)
    jobs = _jobs(jobs)
    total = games_per_move * sum(len(lines) for _, _, lines in choices)
    what = f"{total // games_per_move} options × {games_per_move:,}, {bot}"
    with running(console, total, what, jobs, not no_progress) as (pool, advance):
        result = analyze_position(start, games_per_move, bot, placement, seed, jobs, advance, pool)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2, allow_nan=False))
        return
    print_position(console, result, top)


def print_position(console: Console, result: PositionAnalysis, top: int | None) -> None:
    """The tables of a position analysis."""
    seat = result.seat
    console.print(f"[bold]{result.position.describe()}[/]")
    console.print(
        f"Odds for seat {seat_label(seat)} (to move), score now {result.position.scores[seat]}; "
        f"{result.games:,} continuations per move, every seat playing {result.bot}, seed {result.seed}."
    )
    for outcome in result.outcomes:
        if outcome.roll is None:
            title = f"{result.position.phase}: {len(outcome.moves)} option(s)"
        else:
            face = "HUGO" if outcome.roll.face == "hugo" else str(outcome.roll.face)
            title = f"roll {face} (probability {outcome.probability}): {len(outcome.moves)} option(s)"
        table = Table(title=title, title_justify="left")
        for column in ("#", "move", "win", "95% CI", "points to come", "final score"):
            table.add_column(column, justify="left" if column == "move" else "right")
        for rank, odds in enumerate(outcome.moves[:top] if top else outcome.moves, 1):
            table.add_row(
                str(rank),
                odds.label,
                pct(odds.win_probability),
                interval(odds.ci_low, odds.ci_high),
                f"{odds.mean_points:+.2f}",
                f"{odds.mean_final_score:.2f}",
            )
        console.print(table)
    if len(result.outcomes) > 1:
        console.print(
            f"Win probability before the roll, playing the best move after each outcome: {pct(result.win_probability)}"
        )
    console.print(
        "win: a shared win counts 1/k; points to come: mean final score minus the score now (lower is better). "
        f"{result.seconds:.1f} s."
    )
