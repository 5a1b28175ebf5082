"""``ghostparty admin``: an operator's commands for a server's tables and database.

The group holds nothing but its subcommands, each a function of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

DATABASE_HELP = "SQLAlchemy URL of the store, as given to `ghostparty serve` [default: serve's SQLite file]"


@click.group()
def admin() -> None:
    """Look after a server: list and close tables, back up and restore its database,
    appoint moderators.

    \b
    ghostparty admin tables --status playing
    ghostparty admin close TABLE --reason "abusive names" --server http://127.0.0.1:8000
    ghostparty admin backup games-$(date +%F).db
    ghostparty admin restore games-YYYY-MM-DD.db
    ghostparty admin moderator NAME            (--remove takes the role back)
    """


def _database(url: str | None) -> str:
    from ghostparty.server.wiring import default_database_url

    return url or default_database_url()


def _table_line(table: Any) -> str:
    names = ", ".join(seat.name or (f"{seat.bot} bot" if seat.kind == "bot" else "(free)") for seat in table.seats)
    updated = table.updated.strftime("%Y-%m-%d %H:%M")
    return f"{table.id:<14} {table.status:<8} {table.rules:<14} v{table.version:<5} {updated}  {names}"


@admin.command("tables")
@click.option("--database", metavar="URL", help=DATABASE_HELP)
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice(["open", "playing", "over", "closed"]),
    help="Only tables in this status; repeatable [default: all]",
)
@click.option("--rules", type=click.Choice(["hugo", "midnight-party"]), help="Only tables of these rules.")
@click.option("--idle", type=click.FloatRange(0), metavar="MINUTES", help="Only tables unchanged for this long.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000), help="Tables per status.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per table.")
def tables_command(
    database: str | None, statuses: tuple[str, ...], rules: str | None, idle: float | None, limit: int, as_json: bool
) -> None:
    """List the store's tables, most recently changed first."""
    from ghostparty.server.tables.operations import STATUSES, find_tables
    from ghostparty.server.tables.store import SqlTables
    from ghostparty.server.wire.codec import table_view

    store = SqlTables(_database(database))
    try:
        chosen = [s for s in STATUSES if s in statuses] if statuses else list(STATUSES)
        found = find_tables(store, chosen, rules=rules, idle_minutes=idle, limit=limit)
    finally:
        store.close()
    for table in found:
        click.echo(json.dumps(table_view(table, frozenset()), default=str) if as_json else _table_line(table))
    if not as_json:
        click.echo(f"{len(found)} tables", err=True)


@admin.command("close")
@click.argument("table_id")
@click.option("--reason", required=True, help="Why (written to the server's log).")
@click.option(
    "--server",
    metavar="URL",
    help="The running server (http://127.0.0.1:8000): it closes the table and tells its clients at once. "
    "Without it, the store is written directly: for a stopped server.",
)
@click.option(
    "--token", envvar="GHOSTPARTY_ADMIN_TOKEN", help="The server's --admin-token [env GHOSTPARTY_ADMIN_TOKEN]"
)
@click.option("--database", metavar="URL", help=DATABASE_HELP + " (without --server)")
def close_command(table_id: str, reason: str, server: str | None, token: str | None, database: str | None) -> None:
    """Close an open table or a game under way: nobody may join or act any more."""
    from ghostparty.server.common.errors import ServiceError
    from ghostparty.server.tables.operations import close_in_store, close_on_server
    from ghostparty.server.tables.store import SqlTables

    try:
        if server is not None:
            if not token:
                raise click.UsageError("closing on a server needs its admin token: --token or GHOSTPARTY_ADMIN_TOKEN")
            version = close_on_server(server, token, table_id, reason)["version"]
            click.echo(f"closed table {table_id} on {server} (version {version}); its clients were told")
            return
        store = SqlTables(_database(database))
        try:
            closed = close_in_store(store, table_id)
        finally:
            store.close()
    except ServiceError as error:
        raise click.ClickException(f"{error.code}: {error.message}") from None
    click.echo(f"closed table {table_id} in the store (version {closed.version}; reason: {reason})")


@admin.command("backup")
@click.argument("destination", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--database", metavar="URL", help=DATABASE_HELP)
def backup_command(destination: Path, database: str | None) -> None:
    """Copy a SQLite store to DESTINATION while the server runs (a consistent moment).

    For PostgreSQL, use pg_dump (docs/operating.md, "Backups").
    """
    from ghostparty.server.infra.backup import BackupError, backup

    try:
        copied = backup(_database(database), destination)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"backed up to {destination}: {_summary(copied)}")


@admin.command("restore")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--database", metavar="URL", help=DATABASE_HELP)
@click.option("--yes", is_flag=True, help="Don't ask: the server is stopped.")
def restore_command(source: Path, database: str | None, yes: bool) -> None:
    """Replace a SQLite store by the backup SOURCE. Stop the server first."""
    from ghostparty.server.infra.backup import BackupError, restore, sqlite_path

    url = _database(database)
    try:
        target = sqlite_path(url)
        if not yes:
            click.confirm(f"Replace {target} by {source}? The server must be stopped", abort=True)
        copied = restore(source, url)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"restored {source} into {target}: {_summary(copied)}")


def _summary(copied: Any) -> str:
    tables = ", ".join(f"{count} {status}" for status, count in sorted(copied.tables.items())) or "none"
    return f"tables {tables}; {copied.actions} actions; {copied.size / 1e6:.1f} MB"
