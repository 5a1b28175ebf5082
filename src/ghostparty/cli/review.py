"""``ghostparty review``: a recorded game judged decision by decision, with each roll's luck."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import IO, Any

import click
from rich.console import Console
from rich.table import Table

from ghostparty.analysis.review import Evaluator, GameReview, review_game
from ghostparty.analysis.review.deep_review import ROLLOUTS, deep_review_game
from ghostparty.analysis.review.evaluator import DEPTH, HORIZON
from ghostparty.analysis.review.review import label
from ghostparty.cli.analyze_run import dask_option
from ghostparty.cli.progress import progress_bar
from ghostparty.cli.review_batch import review_many
from ghostparty.rules import GameRecord, InvalidRecord
from ghostparty.rules.narrate import seat_name

_BARS = "▁▂▃▄▅▆▇█"
_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}


def sparkline(values: list[float], width: int = 40) -> str:
    """Win chances (0 … 1) as a line of block characters, at most ``width`` wide."""
    if len(values) > width:
        values = [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)]
    return "".join(_BARS[min(len(_BARS) - 1, int(v * len(_BARS)))] for v in values)


def _points(value: float) -> str:
    """A win chance (or change of one) in signed percentage points: ``+12.3``."""
    return f"{100 * value:+.1f}"


@click.command("review")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the review as JSON (ghostparty-review/1); of many, one a line."
)
@click.option(
    "--depth",
    type=click.IntRange(1, 4),
    default=DEPTH,
    show_default=True,
    help="Rolls searched above the leaves (a close decision's leading moves one more).",
)
@click.option(
    "--horizon",
    type=click.IntRange(0, 5),
    default=HORIZON,
    show_default=True,
    help="Rolls the bounded solver looks ahead in late positions (0: no solver; 2 proves bounds late in a game).",
)
@click.option(
    "--jobs", type=click.IntRange(min=0), default=0, help="Of many files: processes to review them on (0: every core)."
)
@click.option(
    "--deep",
    is_flag=True,
    help="Judge the decisions by the deep analysis (rollouts of each candidate, the action played among them).",
)
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    default=None,
    help=f"With --deep: rollouts per candidate action [default: {ROLLOUTS}].",
)
@dask_option
def review(
    files: tuple[str, ...],
    as_json: bool,
    depth: int,
    horizon: int,
    jobs: int,
    deep: bool,
    rollouts: int | None,
    dask: str | None,
) -> None:
    """Review the game recorded in FILE (a ghostparty-record/1 JSON file, as `ghostparty
    play` saves it or /api/tables/ID/record serves it; '-' for stdin): every seat's win
    chance through the game, each decision's loss against the best one, marked
    inaccuracy (5 points of win chance), mistake (10) or blunder (15), accuracy and PR
    per player, and the luck of every roll.

    Given several files or a folder (its *.json files), reviews them all on local
    processes (--jobs) or a Dask cluster (--dask tcp://host:8786) and prints a line a
    game (with --json, each review on a line of its own, ndjson).

    With --deep, each decision's best action, loss and mark come from the deep analysis
    (the learned bot's rollouts of every candidate, seeded: the same review each time);
    it costs several times the default review's CPU."""
    if rollouts is not None and not deep:
        raise click.UsageError("--rollouts is for the deep review: add --deep")
    if deep and rollouts is None:
        rollouts = ROLLOUTS
    if len(files) > 1 or any(os.path.isdir(name) for name in files):
        review_many(files, depth=depth, horizon=horizon, jobs=jobs, dask=dask, as_json=as_json, rollouts=rollouts)
        return
    if jobs or dask:
        raise click.UsageError("--jobs and --dask are for reviewing several files")
    console = Console(highlight=False, stderr=as_json)
    try:
        opened = click.open_file(files[0], encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot read {files[0]}: {error.strerror or error}") from None
    with opened as file:
        _review_one(console, file, depth, horizon, as_json, rollouts)


def _review_one(console: Console, file: IO[str], depth: int, horizon: int, as_json: bool, rollouts: int | None) -> None:
    try:
        data = json.load(file)
    except ValueError as error:
        raise click.ClickException(f"{file.name} is not JSON: {error}") from None
    try:
        record = GameRecord.from_dict(data)
    except InvalidRecord as error:
        raise click.ClickException(f"{file.name} is not a game record that replays: {error}") from None
    with progress_bar(console) as progress:
        task = progress.add_task("reviewing" if rollouts is None else "deep review", total=len(record.actions))
        evaluator = Evaluator(depth=depth, horizon=horizon)
        advance = lambda done, total: progress.update(task, completed=done)  # noqa: E731
        if rollouts is None:
            result = review_game(record, evaluator=evaluator, progress=advance)
        else:
            result = deep_review_game(record, rollouts=rollouts, evaluator=evaluator, progress=advance)
    if as_json:
        json.dump(result.as_dict(), sys.stdout)
        print()
        return
    show(console, result)


def show(console: Console, result: GameReview) -> None:
    """Print the review: per player, the marked decisions, the dice's share."""
    winners = ", ".join(seat_name(s) for s in result.winners) or "none yet"
    console.print(
        f"[bold]{result.rules}[/], {result.players} players, {len(result.steps)} actions — "
        f"{'won by ' + winners if result.finished else 'unfinished'}; reviewed in "
        f"{result.stats['cpu_seconds']:.1f} s CPU (search depth {result.settings['depth']}, "
        f"close decisions {result.settings['depth'] + result.settings.get('deepen', 0)}, "
        f"solver horizon {result.settings['horizon']})"
    )
    if result.judge == "deep":
        deep = result.settings["deep"]
        console.print(
            f"decisions judged by the deep analysis: {deep['rollouts']} rollouts of each candidate "
            f"({deep['policy']}, cut after {deep['cut']} rolls, seed {deep['seed']}); ± is the loss's standard error"
        )
    # One column a seat, one row a measure: fits an 80-column terminal up to 6 players.
    # The rows from "start" add up: start + decisions = with average dice; + dice + drift = result.
    table = Table(title="per player: the rows from the start add up to the result, in points of win chance")
    table.add_column("")
    for s in result.summaries:
        table.add_column(seat_name(s.seat), justify="right")
    rows: list[tuple[str, Callable[[Any], str]]] = [
        ("accuracy (100: every decision best)", lambda s: "—" if s.accuracy is None else f"{s.accuracy:.1f}"),
        ("PR (mean loss × 500; 0 is best)", lambda s: "—" if s.pr is None else f"{s.pr:.1f}"),
        ("inaccuracies · mistakes · blunders", lambda s: "{inaccuracy} · {mistake} · {blunder}".format(**s.marks)),
        ("start", lambda s: f"{100 * s.start:.1f}"),
        ("+ own decisions", lambda s: _points(s.skill)),
        ("+ the others' decisions", lambda s: _points(s.skill_of_others)),
        ("= with average dice", lambda s: f"{100 * s.luck_adjusted:.1f}"),
        ("+ own rolls' luck", lambda s: _points(s.luck)),
        ("+ the others' rolls' luck", lambda s: _points(s.luck_from_others)),
        ("+ the analysis's drift", lambda s: _points(s.drift)),
        ("= result", lambda s: f"{100 * s.result:.1f}"),
    ]
    for name, cell in rows:
        table.add_row(name, *(cell(s) for s in result.summaries))
    console.print(table)
    console.print(
        "[dim]with average dice: the start and what every decision did (the result less the luck and the "
        "drift); it leaves 0 … 100 when the dice made up for more than the decisions lost, or undid more "
        "than they won[/]"
    )
    wins = result.wins()
    console.print("[bold]win chance over the game[/]")
    for s in result.summaries:
        console.print(f"  {seat_name(s.seat):9s} {sparkline([w[s.seat] for w in wins], width=48)}")
    marked = result.marked()
    if marked:
        console.print("[bold]marked decisions[/]")
    for step in marked:
        style = _STYLE.get(step.mark or "", "white")
        best = "" if step.best is None else f"best was {label(step.best)}, "
        console.print(
            f"  [dim]{step.index + 1:4d}[/] {seat_name(step.seat):9s} {label(step.action):22s} "
            f"[{style}]{step.mark}[/]: {best}−{100 * step.loss:.0f} %"
            + (f" ± {100 * step.loss_se:.0f}" if step.rollouts and step.loss_se is not None else "")
        )
    console.print(
        f"dice: {100 * result.dice_share:.0f} % of the game's swings of win chance, decisions {100 * (1 - result.dice_share):.0f} %"
    )
