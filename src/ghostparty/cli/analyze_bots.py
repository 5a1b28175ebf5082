"""``ghostparty analyze bots``: each bot level's accuracy and PR, from reviews of its games.

The bots measured in the same unit as a person's game review: seeded
games between distinct levels, every set of them seated in every rotation in turn, each
game reviewed as ``ghostparty review`` would, and per level PR pooled over its decisions
and the mean of its games' accuracies, with 95 % intervals. With ``--deep``, every game is
reviewed by the deep review too (each decision judged by rollouts, an independent and
stronger yardstick than the review's own search) and both judges' PR and accuracy are
printed side by side.
"""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ghostparty.analysis.deep import CUT, ROLLOUTS
from ghostparty.analysis.review.batch import LevelStanding, SeatScore, bot_lineups, judge_bot_game, standings
from ghostparty.analysis.review.evaluator import DEPTH, HORIZON
from ghostparty.bots import bot_names
from ghostparty.cli.analyze_run import dask_option, jobs_of, running
from ghostparty.rules import RULESETS

#: The levels measured unless told otherwise: the server's five.
LEVELS = ("random", "greedy", "learned", "expectimax", "mcts")


def _levels(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    levels = tuple(name.strip().lower() for name in value.split(",") if name.strip())
    unknown = [name for name in levels if name not in bot_names()]
    if unknown:
        raise click.BadParameter(f"unknown bot {unknown[0]!r}: choose from {', '.join(bot_names())}")
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise click.BadParameter("name at least two different levels, each once")
    return levels


@click.command("bots")
@click.option("--rules", type=click.Choice(sorted(RULESETS)), default="hugo", show_default=True, help="Rule set.")
@click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True, help="Players a game.")
@click.option(
    "--levels", default=",".join(LEVELS), show_default=True, callback=_levels, help="Bot levels, comma-separated."
)
@click.option("--games", type=click.IntRange(min=1), default=250, show_default=True, help="Games in all.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option("--depth", type=click.IntRange(1, 4), default=DEPTH, show_default=True, help="The review's search depth.")
@click.option("--horizon", type=click.IntRange(0, 5), default=HORIZON, show_default=True, help="The solver's horizon.")
@click.option("--deep", is_flag=True, help="Review every game by the deep review too: fast and deep PR side by side.")
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    default=None,
    help=f"With --deep: rollouts per candidate action [default: {ROLLOUTS}].",
)
@click.option(
    "--cut", type=click.IntRange(min=0), default=None, help=f"With --deep: rolls each rollout plays [default: {CUT}]."
)
@click.option("--jobs", type=click.IntRange(min=0), default=0, help="Local processes (0: every core).")
@dask_option
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def bots(
    rules: str,
    players: int,
    levels: tuple[str, ...],
    games: int,
    seed: int,
    depth: int,
    horizon: int,
    deep: bool,
    rollouts: int | None,
    cut: int | None,
    jobs: int,
    dask: str | None,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Each bot level's accuracy and PR over reviewed games between the levels: the
    strength of a bot in the unit of a person's game review. Every level plays
    games × players / levels games."""
    if players > len(levels):
        raise click.BadParameter(f"{players} players need {players} different levels", param_hint="--players")
    if not deep and (rollouts is not None or cut is not None):
        raise click.UsageError("--rollouts and --cut are for the deep review: add --deep")
    deep_settings = {"rollouts": rollouts or ROLLOUTS, "cut": CUT if cut is None else cut} if deep else None
    console = Console(highlight=False, stderr=as_json)
    extra = (deep_settings["rollouts"], deep_settings["cut"]) if deep_settings else ()
    tasks = [
        (rules, lineup, game_seed, depth, horizon, *extra)
        for lineup, game_seed in bot_lineups(levels, players, games, seed)
    ]
    scores: dict[str, list[SeatScore]] = {"fast": [], "deep": []}
    jobs = min(jobs_of(jobs, dask), games)
    with running(console, games, "playing and reviewing", jobs, not no_progress, dask) as (pool, advance):
        for judged in pool.map(judge_bot_game, tasks, advance):
            for judge, seats in judged.items():
                scores[judge].extend(seats)
    found = standings(scores["fast"])
    settings = {"rules": rules, "players": players, "games": games, "seed": seed, "depth": depth, "horizon": horizon}
    title = f"{rules}, {players} players, {games} games (review depth {depth}, horizon {horizon}"
    if deep_settings is not None:
        deep_found = standings(scores["deep"])
        if as_json:
            levels_json = [standing.as_dict() for standing in found]
            deep_json = {**deep_settings, "levels": [standing.as_dict() for standing in deep_found]}
            print(json.dumps({**settings, "levels": levels_json, "deep": deep_json}))
            return
        title += f"; deep: {deep_settings['rollouts']} rollouts, cut {deep_settings['cut']})"
        console.print(_side_by_side(title, found, deep_found))
        console.print(
            "PR: 500 × the mean loss of win chance per non-forced decision (0 is best), fast: by the review's own "
            "search, deep: by rollouts; ± a 95 % interval. Best deep PR first."
        )
        return
    if as_json:
        print(json.dumps({**settings, "levels": [standing.as_dict() for standing in found]}))
        return
    table = Table(title=title + ")")
    for column in ("level", "games", "decisions", "PR", "accuracy", "inacc. · mist. · blund. / 100"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for s in found:
        marks = " · ".join(f"{s.marks_per_100.get(name, 0.0):.1f}" for name in ("inaccuracy", "mistake", "blunder"))
        table.add_row(
            s.level,
            str(s.games),
            f"{s.decisions:,}",
            f"{s.pr:.2f} ± {s.pr_margin:.2f}",
            f"{s.accuracy:.1f} ± {s.accuracy_margin:.1f}",
            marks,
        )
    console.print(table)
    console.print("PR: 500 × the mean loss of win chance per non-forced decision (0 is best); ± a 95 % interval.")


def _side_by_side(title: str, fast: list[LevelStanding], deep: list[LevelStanding]) -> Table:
    """Each level's PR and accuracy by both judges, in the deep judge's order."""
    by_level = {standing.level: standing for standing in fast}
    table = Table(title=title)
    for column in ("level", "games", "decisions", "PR fast", "PR deep", "accuracy fast", "accuracy deep"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for d in deep:
        f = by_level[d.level]
        table.add_row(
            d.level,
            str(d.games),
            f"{d.decisions:,}",
            f"{f.pr:.2f} ± {f.pr_margin:.2f}",
            f"{d.pr:.2f} ± {d.pr_margin:.2f}",
            f"{f.accuracy:.1f} ± {f.accuracy_margin:.1f}",
            f"{d.accuracy:.1f} ± {d.accuracy_margin:.1f}",
        )
    return table
