"""``ghostparty puzzles``: puzzles from real games (:mod:`ghostparty.analysis.puzzles`).

Examples::

    ghostparty puzzles mine games/ --out puzzles.json --csv puzzles.csv
    ghostparty puzzles mine --games 40 --rules hugo --players 2 --bots learned,greedy --out puzzles.json
    ghostparty puzzles mine --database postgresql://ghostparty@db/ghostparty --since 7 --out week.json
    ghostparty puzzles mine games/ --dask tcp://10.0.0.5:8786 --out puzzles.json
    ghostparty puzzles load puzzles.json --database postgresql://ghostparty@db/ghostparty
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from ghostparty.analysis.deep import check_settings
from ghostparty.analysis.puzzle_runs import (
    CSV_COLUMNS,
    csv_row,
    lineup,
    mine_bot_game,
    mine_file,
    mine_game_record,
    puzzles_to_dict,
    unique,
)
from ghostparty.analysis.puzzles import CUT, MARGIN, ROLLOUTS, Puzzle
from ghostparty.cli.analyze_run import dask_option, jobs_of, pct, running
from ghostparty.cli.tournament import parse_bots
from ghostparty.rules import RULESETS
from ghostparty.sim.seeds import game_seed

#: Sample puzzles printed at the end.
SAMPLES = 5


@click.group("puzzles")
def puzzles() -> None:
    """Puzzles from real games: decisions where one move is clearly best.

    \b
    ghostparty puzzles mine [FOLDER]   find and confirm puzzles in recorded, stored or fresh bot games
    ghostparty puzzles load FILE       add a file of puzzles to a server's database
    """


@puzzles.command("mine")
@click.argument("folder", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--out", metavar="FILE", required=True, help="Write the puzzles here (JSON, ghostparty-puzzles/1).")
@click.option("--csv", "csv_path", metavar="FILE", help="Also write them as CSV, one row a puzzle.")
@click.option(
    "--margin",
    type=click.FloatRange(0, 1, min_open=True),
    default=MARGIN,
    show_default=True,
    help="Win chance by which the best move must beat every other.",
)
@click.option("--rollouts", type=click.IntRange(1), default=ROLLOUTS, show_default=True, help="Rollouts per move.")
@click.option("--cut", type=click.IntRange(0), default=CUT, show_default=True, help="Rolls before a rollout's cut.")
@click.option("--games", type=click.IntRange(1), default=20, show_default=True, help="Without FOLDER: bot games.")
@click.option(
    "--rules", type=click.Choice(sorted(RULESETS)), default="hugo", show_default=True, help="Bot games' rules."
)
@click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True, help="Bot games' players.")
@click.option(
    "--bots",
    default="learned",
    show_default=True,
    help="Bot games' bots, comma-separated; seat s of game i plays bot (s + i) mod their number.",
)
@click.option(
    "--database",
    metavar="URL",
    help="Mine the finished games of a server's store: a SQLAlchemy URL as given to `ghostparty serve` "
    "(sqlite:///games.db, postgresql://…) or a SQLite file's path.",
)
@click.option(
    "--since",
    type=click.IntRange(1),
    metavar="DAYS",
    help="With --database: the games that ended in the last DAYS days.",
)
@click.option("--limit", type=click.IntRange(1), metavar="N", help="With --database: the N games that ended last.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: the bot games' and the rollouts'.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default 0: every core).")
@dask_option
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def mine(
    folder: str | None,
    out: str,
    csv_path: str | None,
    margin: float,
    rollouts: int,
    cut: int,
    games: int,
    rules: str,
    players: int,
    bots: str,
    database: str | None,
    since: int | None,
    limit: int | None,
    seed: int,
    jobs: int,
    dask: str | None,
    no_progress: bool,
) -> None:
    """Mine every game record (ghostparty-record/1, *.json, searched recursively) in FOLDER,
    the finished games of a server's store (--database), or without either --games fresh
    seeded bot games, for puzzles: decisions where the best move's win chance beats every
    other by --margin, confirmed by the deep analysis (every move or placement rolled out).
    A stored game's puzzles name its table as their source. Files that are no records are
    reported and skipped. --dask runs the games on a Dask cluster: the same puzzles."""
    try:
        check_settings(rollouts, cut, None)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    if folder is not None and database is not None:
        raise click.UsageError("FOLDER and --database: give one (records in files, or a server's finished games)")
    if database is None and (since is not None or limit is not None):
        raise click.UsageError("--since and --limit choose among a store's games: give --database too")
    console = Console(highlight=False, soft_wrap=True)
    tasks: list[tuple[Any, ...]]
    task: Callable[..., dict[str, Any]]
    if database is not None:
        stored = _stored_records(database, since, limit)
        if not stored:
            raise click.UsageError(f"no finished games in {database}" + (f" in the last {since} days" if since else ""))
        task, what = mine_game_record, "mining stored games"
        tasks = [(game, record, margin, rollouts, cut, seed) for game, record in stored]
    elif folder is not None:
        files = _json_files(folder)
        if not files:
            raise click.UsageError(f"no *.json files in {folder}")
        task, tasks, what = mine_file, [(path, margin, rollouts, cut, seed) for path in files], "mining records"
    else:
        names = parse_bots(bots)
        if not names:
            raise click.BadParameter("name at least one bot", param_hint="--bots")
        task, what = mine_bot_game, f"mining {rules} {players}p games"
        tasks = [
            (rules, lineup(names, players, game), game_seed(seed, game), margin, rollouts, cut) for game in range(games)
        ]
    found: list[Puzzle] = []
    skipped: list[dict[str, Any]] = []
    decisions = candidates = 0
    cpu = 0.0
    slots = min(jobs_of(jobs, dask), len(tasks))
    with running(console, len(tasks), what, slots, not no_progress, dask) as (pool, advance):
        for mined in pool.map(task, tasks, advance):
            if "error" in mined:
                skipped.append(mined)
                continue
            decisions += mined["decisions"]
            candidates += mined["candidates"]
            cpu += mined["cpu_seconds"]
            found.extend(Puzzle.from_dict(item) for item in mined["puzzles"])
    confirmed = len(found)
    found = unique(found)
    with open(out, "w", encoding="utf-8") as file:
        json.dump(puzzles_to_dict(found), file, ensure_ascii=False, indent=1)
        file.write("\n")
    if csv_path is not None:
        with open(csv_path, "w", encoding="utf-8", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            writer.writerows(csv_row(puzzle) for puzzle in found)
    for bad in skipped:
        console.print(f"[yellow]skipped[/] {escape(bad['source'])}: {escape(bad['error'])}")
    _summary(console, len(tasks) - len(skipped), decisions, candidates, confirmed, found, cpu)
    written = out if csv_path is None else f"{out} and {csv_path}"
    console.print(f"wrote {len(found)} puzzle{'s' * (len(found) != 1)} to {escape(written)}", soft_wrap=True)


def _stored_records(database: str, since: int | None, limit: int | None) -> list[tuple[str, dict[str, Any]]]:
    """``(table id, record)`` of the finished games of the store at ``database`` (a URL,
    or a SQLite file's path, which must exist), those of the last ``since`` days, the last
    ``limit`` of them, in the order they ended."""
    from datetime import timedelta

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ghostparty.server.common.model import now
    from ghostparty.server.infra.database import Database
    from ghostparty.server.tables.finished import finished_ids, finished_records

    url = database
    if "://" not in database:
        if not os.path.isfile(database):
            raise click.BadParameter(
                f"{database!r}: no such SQLite file (or give a database URL)", param_hint="--database"
            )
        url = f"sqlite:///{os.path.abspath(database)}"
    try:
        make_url(url)
    except ArgumentError:
        raise click.BadParameter(
            f"{database!r} is not a database URL (e.g. sqlite:///games.db)", param_hint="--database"
        ) from None
    try:
        store = Database.open(url)
    except SQLAlchemyError as error:
        raise click.ClickException(f"cannot open the database {database}: {error}") from None
    try:
        start = None if since is None else now() - timedelta(days=since)
        return list(finished_records(store.engine, finished_ids(store.engine, since=start, limit=limit)))
    finally:
        store.close()


def _json_files(folder: str) -> list[str]:
    """Every ``*.json`` under ``folder``, sorted."""
    return sorted(
        os.path.join(root, name) for root, _, names in os.walk(folder) for name in names if name.endswith(".json")
    )


def _summary(
    console: Console, games: int, decisions: int, candidates: int, confirmed: int, found: list[Puzzle], cpu: float
) -> None:
    certified = sum(puzzle.certified for puzzle in found)
    repeated = f" ({confirmed - len(found)} repeated a position and were dropped)" if confirmed > len(found) else ""
    console.print(
        f"games read {games} · decisions with a choice {decisions} · candidates {candidates} · "
        f"confirmed puzzles {confirmed}{repeated} · certified {certified} · {cpu:.1f} s of CPU"
    )
    if candidates:
        console.print(f"confirmed {pct(confirmed / candidates)} of the candidates")
    for puzzle in found[:SAMPLES]:
        themes = ", ".join(puzzle.themes) or "—"
        console.print(f"[bold]{puzzle.id}[/] ({escape(themes)}) {escape(puzzle.reason['en'])}")
        console.print(f"  {escape(puzzle.reason['de'])}")


@puzzles.command("load")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--database",
    metavar="URL",
    help="SQLAlchemy URL of the server's store, as given to `ghostparty serve` [default: serve's SQLite file]",
)
def load(file: str, database: str | None) -> None:
    """Add the puzzles of FILE (ghostparty-puzzles/1, as `mine` writes it; .gz read
    unpacked) to a server's database. Puzzles it keeps already (by id) are skipped."""
    from ghostparty.analysis.puzzles import PuzzleError
    from ghostparty.server.common.model import now
    from ghostparty.server.puzzles.loading import read_puzzles
    from ghostparty.server.stores import SqlStores
    from ghostparty.server.wiring import default_database_url

    try:
        found = read_puzzles(file)
    except (PuzzleError, ValueError, OSError) as error:
        raise click.ClickException(f"{file}: {error}") from None
    stores = SqlStores.open(database or default_database_url())
    try:
        added = stores.puzzles.add(found, now())
        total = stores.puzzles.count()
    finally:
        stores.close()
    click.echo(f"added {added} of {len(found)} puzzles ({len(found) - added} kept already); {total} in the database")
