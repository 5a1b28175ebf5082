"""``ghostparty analyze position``: the odds of each legal move in a position file, from
simulated continuations or from the analysis board's engine (:mod:`ghostparty.analysis.explore`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ghostparty.analysis.explore import Exploration, explore
from ghostparty.analysis.position import PositionAnalysis, analyze_position, options
from ghostparty.analysis.review.review import label
from ghostparty.analysis.simulate import PLACEMENTS
from ghostparty.cli.analyze_run import check_bot, dask_option, interval, jobs_of, pct, running, seat_label
from ghostparty.rules import InvalidPosition, position_from_dict


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


#: How the actions are valued: simulated continuations, or the analysis board's engine.
METHODS = ("simulate", "review", "deep")


@click.command("position")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="simulate",
    show_default=True,
    help="simulate: continuations played by --bot; review: the game review's search, as the analysis "
    "board shows it; deep: that and rollouts of a decision's every move or placement (the deep bot's settings).",
)
@click.option(
    "--games-per-move",
    type=click.IntRange(1),
    default=400,
    show_default=True,
    help="Continuations simulated after each move.",
)
@click.option(
    "--bot", default="random", show_default=True, callback=check_bot, help="The policy of every seat afterwards."
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
@dask_option
@click.option("--top", type=click.IntRange(1), help="Show only the best N moves of each table.")
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def position(
    file: Path,
    method: str,
    games_per_move: int,
    bot: str,
    placement: str,
    seed: int,
    jobs: int,
    dask: str | None,
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

    With --method review or deep the numbers are the analysis board's (the same engine):
    each legal action with the mover's win chance after it, in phase 'roll' each face.
    """
    start = load_position(file)
    if method != "simulate":
        found = explore(start, deep=method == "deep", seed=seed)
        if as_json:
            click.echo(json.dumps(found.to_dict(), indent=2, allow_nan=False))
        else:
            print_exploration(Console(highlight=False), found, top)
        return
    try:
        choices = options(start)
    except ValueError as error:
        raise click.ClickException(f"{file}: {error}") from None
    console = Console(highlight=False, stderr=as_json)
    jobs = jobs_of(jobs, dask)
    total = games_per_move * sum(len(lines) for _, _, lines in choices)
    what = f"{total // games_per_move} options × {games_per_move:,}, {bot}"
    with running(console, total, what, jobs, not no_progress, dask) as (pool, advance):
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


def print_exploration(console: Console, found: Exploration, top: int | None) -> None:
    """The analysis board's numbers as a table (``--method review`` or ``deep``)."""
    position, seat = found.position, found.position.to_move
    console.print(f"[bold]{position.describe()}[/]")
    chances = ", ".join(f"{seat_label(s)} {pct(w)}" for s, w in enumerate(found.win))
    console.print(f"Win chances: {chances}")
    if not found.options:
        console.print("The game is over: the win chances are its exact shares.")
        return
    table = Table(
        title=f"{position.phase}: {len(found.options)} option(s) for seat {seat_label(seat)}", title_justify="left"
    )
    columns = ["#", "action", "win"]
    if found.deep is not None:
        columns.append("deep ± 2 se")
    if position.phase == "roll":
        columns.insert(2, "chance")
    for column in columns:
        table.add_column(column, justify="left" if column == "action" else "right")
    for rank, option in enumerate(found.options[:top] if top else found.options, 1):
        row = [str(rank) + (" *" if option.best else ""), label(option.action), pct(option.win)]
        if position.phase == "roll":
            row.insert(2, pct(option.probability or 0.0))
        if found.deep is not None:
            row.append("–" if option.deep is None else f"{pct(option.deep[0])} ± {pct(2 * option.deep[1])}")
        table.add_row(*row)
    console.print(table)
    if found.deep is not None:
        rollouts, cut = found.deep
        console.print(
            f"* the best. Deep: {rollouts} rollouts of each {'placement' if position.phase == 'place' else 'move'}, "
            f"cut {cut} rolls on, the same dice for every one."
        )
