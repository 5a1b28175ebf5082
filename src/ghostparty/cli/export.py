"""``ghostparty export``: every finished game as open data, ndjson and Parquet by month, and the puzzles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
from rich.console import Console

from ghostparty.cli.admin import DATABASE_HELP, _database
from ghostparty.cli.progress import progress_bar

MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _months(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    bad = [month for month in value if not MONTH.match(month)]
    if bad:
        raise click.BadParameter(f"{bad[0]!r} is no month: write it YYYY-MM, e.g. 2026-11")
    return value


@click.command("export")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder of the files.")
@click.option("--database", metavar="URL", help=DATABASE_HELP)
@click.option("--month", "months", multiple=True, callback=_months, help="Only this month (YYYY-MM); repeatable.")
@click.option("--progress/--no-progress", default=True, help="Show a progress bar.")
def export(out: Path, database: str | None, months: tuple[str, ...], progress: bool) -> None:
    """Write every finished game as open data: per month of its end (UTC),
    ghostparty-games-YYYY-MM.ndjson.gz and .parquet; every puzzle of the server in
    ghostparty-puzzles.csv.gz and .parquet; then SHA256SUMS and index.json
    (docs/OPEN-DATA.md). Guests' names, and those of players who chose so, become
    pseudonyms of one seat of one game, games' ids are keyed (a puzzle names its game
    by that id) and times are days (the key stays in OUT/.pseudonym-key: keep it, never
    publish it).
    `ghostparty serve --open-data OUT` serves the folder at /open-data.

    \b
    ghostparty export --out /srv/ghostparty/open-data
    ghostparty export --out open-data --month 2026-11     (the month under way, again)
    """
    try:
        from ghostparty.server.infra.database import Database
        from ghostparty.server.opendata.export import export as write_export
        from ghostparty.server.opendata.export import finished_games
    except ImportError as error:  # pyarrow, or the server's extras
        raise click.ClickException(f"{error}: pip install 'ghostparty[server,data]'") from None
    console = Console(highlight=False, stderr=True)
    store = Database.open(_database(database))
    try:
        found = finished_games(store.engine)
        total = sum(len(ids) for month, ids in found.items() if not months or month in months)
        with progress_bar(console, show=progress) as bar:
            task = bar.add_task("exporting games", total=total)
            written = write_export(store.engine, out, months=months or None, progress=lambda n: bar.advance(task, n))
    finally:
        store.close()
    for month in written:
        console.print(f"{month.month}: {month.games:,} games → {', '.join(sorted(month.files))}")
    if not written:
        console.print("no finished games" + (f" in {', '.join(months)}" if months else ""))
    puzzles = json.loads((out / "index.json").read_text(encoding="utf-8"))["puzzles"]
    console.print(f"{puzzles['count']:,} puzzles → {', '.join(f['name'] for f in puzzles['files'])}")
    console.print(f"wrote {out / 'SHA256SUMS'} and {out / 'index.json'}")
