"""``ghostparty bench``: how fast the rules engine plays random games, and — with
``--bots`` — how long each bot level takes to choose a move."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ghostparty.cli.progress import progress_bar
from ghostparty.cli.tournament import parse_bots
from ghostparty.rules import RULESETS, ruleset
from ghostparty.sim.bench import INTERFACES, BenchResult, machine
from ghostparty.sim.bench import bench as run_bench
from ghostparty.sim.thinktime import ThinkTime, decision_positions, think_time

#: Games per setting when none is given: random games for the engine, greedy games
#: whose positions the bots are timed on.
ENGINE_GAMES = 300
BOT_GAMES = 3


@click.command("bench")
@click.option(
    "--games",
    type=int,
    default=None,
    help=f"Games per setting: random games per rule set, player count and interface ({ENGINE_GAMES}); "
    f"with --bots, greedy games whose move decisions the bots are timed on ({BOT_GAMES}).",
)
@click.option(
    "--rules", "rules", multiple=True, type=click.Choice(sorted(RULESETS)), help="Rule set(s) to time (default: both)."
)
@click.option(
    "--players",
    "players",
    multiple=True,
    type=click.IntRange(2, 8),
    help="Player counts (default: 2, 4, 8; with --bots 2 and 4).",
)
@click.option(
    "--interface", "interfaces", multiple=True, type=click.Choice(INTERFACES), help="fast (typed API) and/or json."
)
@click.option(
    "--bots",
    "bots_text",
    metavar="BOT,BOT…",
    help="Time these bots' move decisions instead (think time per level), e.g. greedy,expectimax,mcts.",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the random source.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench_command(
    games: int | None,
    rules: tuple[str, ...],
    players: tuple[int, ...],
    interfaces: tuple[str, ...],
    bots_text: str | None,
    seed: int,
    as_json: bool,
) -> None:
    """Play random games (uniform legal choices, the real die) on one core and print
    games per second and microseconds per action, through the fast typed API and
    through FORMAT.md's JSON interface.

    With --bots: time each bot choosing a move at every decision (more than one legal
    move) of seeded greedy games, the same positions for every bot, one core; print the
    median, 90th percentile and slowest think time.
    """
    if games is not None and games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    console = Console(highlight=False, stderr=as_json)
    if bots_text is not None:
        if interfaces:
            raise click.BadParameter(
                "times the engine's interfaces, not bots: leave it out with --bots", param_hint="--interface"
            )
        bots = parse_bots(bots_text)
        settings = [(r, p) for r in (rules or ("hugo", "midnight-party")) for p in (players or (2, 4))]
        _bench_bots(console, bots, settings, games or BOT_GAMES, seed, as_json)
        return
    games = games or ENGINE_GAMES
    jobs = [
        (r, p, i)
        for r in (rules or ("hugo", "midnight-party"))
        for p in (players or (2, 4, 8))
        for i in (interfaces or INTERFACES)
    ]
    results: list[BenchResult] = []
    with progress_bar(console) as progress:
        task = progress.add_task("benchmarking", total=len(jobs))
        for r, p, i in jobs:
            progress.update(task, description=f"{r} {p}p {i}")
            results.append(run_bench(ruleset(r), p, i, games, seed))
            progress.advance(task)
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "rules": x.rules,
                        "players": x.players,
                        "interface": x.interface,
                        "games": x.games,
                        "games_per_second": round(x.games_per_second, 1),
                        "us_per_action": round(x.microseconds_per_action, 2),
                        "actions_per_game": round(x.actions_per_game, 1),
                    }
                    for x in results
                ],
                indent=2,
            )
        )
        return
    table = Table(title=f"random games, one core — {machine()}")
    for column in ("rules", "players", "interface", "games/s", "µs/action", "actions/game"):
        table.add_column(column, justify="left" if column in ("rules", "interface") else "right")
    for x in results:
        table.add_row(
            x.rules,
            str(x.players),
            x.interface,
            f"{x.games_per_second:,.0f}",
            f"{x.microseconds_per_action:.2f}",
            f"{x.actions_per_game:.0f}",
        )
    console.print(table)


bench = bench_command


def _bench_bots(
    console: Console, bots: list[str], settings: list[tuple[str, int]], games: int, seed: int, as_json: bool
) -> None:
    """Time every bot on every setting's decision positions and print the table or JSON."""
    results: list[ThinkTime] = []
    with progress_bar(console) as progress:
        task = progress.add_task("finding positions", total=None)
        for rules_id, count in settings:
            progress.update(task, description=f"{rules_id} {count}p: {games} greedy game(s)", total=None, completed=0)
            positions = decision_positions(ruleset(rules_id), count, games, seed)
            for bot in bots:
                progress.update(task, description=f"{rules_id} {count}p: {bot}", total=len(positions), completed=0)
                results.append(think_time(bot, positions, seed, lambda: progress.advance(task)))
    if as_json:
        print(json.dumps([x.to_dict() for x in results], indent=2))
        return
    table = Table(title=f"think time per move decision, one core — {machine()}")
    for column in ("bot", "rules", "players", "decisions", "median ms", "p90 ms", "max ms"):
        table.add_column(column, justify="left" if column in ("bot", "rules") else "right")
    for x in results:
        table.add_row(x.bot, x.rules, str(x.players), str(x.decisions), _ms(x.median_ms), _ms(x.p90_ms), _ms(x.max_ms))
    console.print(table)


def _ms(value: float) -> str:
    """``0.0081``, ``1.93``, ``98.4``, ``1,204``: three significant digits, no exponent."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:#.3g}".rstrip(".")
