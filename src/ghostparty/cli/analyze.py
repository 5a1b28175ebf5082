"""``ghostparty analyze``: capture odds per square, the first player's advantage, move odds.

The simulations, statistics and drawing are :mod:`ghostparty.analysis`'s; this module
parses the options and prints tables (or JSON): ``squares`` and ``seats`` here, the
shared options and runner in :mod:`.analyze_run`, ``position`` in
:mod:`.analyze_position`. Examples::

    ghostparty analyze squares --rules hugo --players 4 --games 5000 --out docs/heatmap-hugo-4p
    ghostparty analyze seats --rules midnight-party --players 3 --bot greedy
    ghostparty analyze position FILE.json --games-per-move 500
    ghostparty analyze seats --bot greedy --games 100000 --dask tcp://10.0.0.5:8786
"""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ghostparty.analysis.heatmap import INSTALL_HINT, heatmap_paths, matplotlib_available, save_heatmap, top_squares
from ghostparty.analysis.simulate import HORIZONS, Settings, Simulation
from ghostparty.cli.analyze_bots import bots
from ghostparty.cli.analyze_position import position
from ghostparty.cli.analyze_run import choose_engine, interval, jobs_of, pct, run_options, run_simulation, seat_label


@click.group("analyze")
def analyze() -> None:
    """Capture odds per starting square (with a heat-map), the first player's advantage, and
    the odds of each move in a position — from simulated games where every seat plays one
    bot policy.

    \b
    ghostparty analyze squares   capture probability and spooky points per starting square
    ghostparty analyze seats     win rate per seat with 95% intervals (first-player advantage)
    ghostparty analyze position  win probability of each legal move in a position file
    ghostparty analyze bots      each bot level's accuracy and PR, from reviews of its games

    Every subcommand plays its games over local processes (--jobs) or on a Dask
    cluster (--dask tcp://host:8786), with the same numbers for the same --seed.
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
    dask: str | None,
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
    jobs = jobs_of(jobs, dask)
    engine = choose_engine(engine, settings, console)
    simulation = run_simulation(settings, jobs, console, not no_progress, engine, dask)
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
        console.print(f"wrote {path}", soft_wrap=True)
    console.print(_timing(simulation, engine, dask))


def _timing(simulation: Simulation, engine: str, dask: str | None) -> str:
    jobs = simulation.jobs
    where = (
        f"{jobs} Dask worker thread{'s' if jobs > 1 else ''} at {dask}"
        if dask is not None
        else f"{jobs} process{'es' if jobs > 1 else ''}"
    )
    return f"{simulation.settings.games:,} games in {simulation.seconds:.1f} s on {where} ({engine} engine)"


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
    dask: str | None,
    as_json: bool,
    no_progress: bool,
) -> None:
    """The first player's advantage: each seat's win rate (a win shared by k players counts
    1/k) with 95% Wilson intervals, and mean final score, when every seat plays the same bot.
    Seat 0 places first and moves first."""
    console = Console(highlight=False, stderr=as_json)
    settings = Settings(rules, players, bot, placement, "round", games, seed)
    jobs = jobs_of(jobs, dask)
    engine = choose_engine(engine, settings, console)
    simulation = run_simulation(settings, jobs, console, not no_progress, engine, dask)
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
    console.print(_timing(simulation, engine, dask))


analyze.add_command(position)
analyze.add_command(bots)
