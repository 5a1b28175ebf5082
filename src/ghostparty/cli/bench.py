"""``ghostparty bench``: how fast the rules engine plays random games."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ghostparty.cli.progress import progress_bar
from ghostparty.rules import RULESETS, ruleset
from ghostparty.sim.bench import INTERFACES, BenchResult, machine
from ghostparty.sim.bench import bench as run_bench


@click.command("bench")
@click.option("--games", default=300, show_default=True, help="Games per rule set, player count and interface.")
@click.option(
    "--rules", "rules", multiple=True, type=click.Choice(sorted(RULESETS)), help="Rule set(s) to time (default: both)."
)
@click.option(
    "--players", "players", multiple=True, type=click.IntRange(2, 8), help="Player counts (default: 2, 4, 8)."
)
@click.option(
    "--interface", "interfaces", multiple=True, type=click.Choice(INTERFACES), help="fast (typed API) and/or json."
)
@click.option("--seed", default=0, show_default=True, help="Seed of the random source.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench_command(
    games: int, rules: tuple[str, ...], players: tuple[int, ...], interfaces: tuple[str, ...], seed: int, as_json: bool
) -> None:
    """Play random games (uniform legal choices, the real die) on one core and print
    games per second and microseconds per action, through the fast typed API and
    through FORMAT.md's JSON interface."""
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    console = Console(highlight=False, stderr=as_json)
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
