"""``ghostparty ratings``: measure the bot levels' anchored ratings (rated bot games)."""

from __future__ import annotations

import json
import os
import time
from importlib.resources import files
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from ghostparty.cli.progress import progress_bar


@click.command()
@click.option("--rules", type=click.Choice(["hugo", "midnight-party"]), default="hugo", show_default=True)
@click.option("--games", type=click.IntRange(1), default=200, show_default=True, help="Rated games between the bots.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=os.cpu_count() or 1, help="Processes (default: every core).")
@click.option(
    "--write",
    is_flag=True,
    help="Save the result as the server's anchors for these rules (the package's bot_ratings.json).",
)
def ratings(rules: str, games: int, seed: int, jobs: int, write: bool) -> None:
    """Play GAMES rated games between the bot levels (2–4 of them a game) and print each
    level's rating, with greedy at 1500: the fixed ratings the server gives its bots."""
    from ghostparty.server.common.calibrate import calibrate
    from ghostparty.server.common.ratings import shown

    console = Console()
    bar = progress_bar(console, auto_refresh=False)
    task = bar.add_task(f"rated {rules} games", total=games)
    started = time.perf_counter()
    cpu = time.process_time()

    def advance(n: int) -> None:
        bar.advance(task, n)
        bar.refresh()

    with bar:
        result = calibrate(rules, games, seed, jobs, advance)
    seconds = time.perf_counter() - started
    table = Table(title=f"bot ratings, {rules}: {games} rated games, seed {seed}")
    for column in ("level", "rating", "mu", "sigma", "games"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for level, rating in sorted(result.ratings.items(), key=lambda item: -item[1].mu):
        table.add_row(
            level, str(shown(rating.mu)), f"{rating.mu:.2f}", f"{rating.sigma:.2f}", str(result.played[level])
        )
    console.print(table)
    console.print(f"{seconds:.0f} s on {jobs} processes (this process {time.process_time() - cpu:.1f} s of CPU)")
    if write:
        path = Path(str(files("ghostparty.server.common") / "bot_ratings.json"))
        data = json.loads(path.read_text(encoding="utf-8"))
        data["ratings"][rules] = {
            level: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "games": result.played[level]}
            for level, r in result.ratings.items()
        }
        data["about"] = (
            "Anchored ratings of the bot levels, measured by `ghostparty ratings --rules RULES --games N "
            "--seed S --write` (the games of each rule set are under 'commands')."
        )
        data.setdefault("commands", {})[rules] = (
            f"ghostparty ratings --rules {rules} --games {games} --seed {seed} --write"
        )
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        console.print(f"saved to {path}", soft_wrap=True)
