"""Online backups of a SQLite store, and restoring one (``ghostparty admin backup``, ``restore``).

:func:`backup` copies the database with SQLite's backup API in one step: a single read
transaction, so the copy is the database as it was at one moment, every game's table
row and actions alike, while the server goes on writing (the store is in WAL mode,
where a reader never blocks the writer). The copy is written beside its destination,
checked (``PRAGMA integrity_check``) and only then renamed into place, in the rollback
journal mode: one self-contained file. :func:`restore` copies a checked backup into the
store the same way, replacing what it held; stop the server first (a running one would
go on with the tables it holds in memory). PostgreSQL is backed up with its own tools
(``pg_dump``; docs/operating.md, "Backups").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(Exception):
    """A backup or a restore that can't be made; the message says why."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or a restore copied: the tables by status, the actions, the bytes."""

    tables: dict[str, int]
    actions: int
    size: int


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///…`` URL."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(
            f"only a SQLite store is backed up this way, not {parsed.get_backend_name()}: for PostgreSQL use "
            "pg_dump (docs/operating.md, 'Backups')"
        )
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError(f"{url!r} names no database file")
    return Path(parsed.database)


@contextlib.contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(path, timeout=5.0)
    try:
        yield connection
    finally:
        connection.close()


def _check(connection: sqlite3.Connection, what: str) -> Copied:
    """That ``connection``'s database is whole and a Ghost Party store; what it holds."""
    verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise BackupError(f"{what} is damaged: {verdict}")
    try:
        tables = dict(connection.execute("SELECT status, count(*) FROM gp_tables GROUP BY status").fetchall())
        actions = connection.execute("SELECT count(*) FROM gp_actions").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{what} is not a Ghost Party database ({error})") from None
    pages, size = (connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "page_size"))
    return Copied({str(k): int(v) for k, v in tables.items()}, int(actions), int(pages) * int(size))


def backup(url: str, destination: Path) -> Copied:
    """Copy the SQLite store at ``url`` to the file ``destination`` while it is in use."""
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if destination.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database")
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with _connected(source) as reading, _connected(partial) as writing:
            reading.backup(writing)  # every page in one step: one consistent moment
            writing.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            copied = _check(writing, "the copy")
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise BackupError(f"backing up {source} failed: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return copied


def restore(backup_file: Path, url: str) -> Copied:
    """Replace the SQLite store at ``url`` by the backup in ``backup_file`` (server stopped)."""
    target = sqlite_path(url)
    if not backup_file.is_file():
        raise BackupError(f"there is no backup at {backup_file}")
    try:
        with _connected(backup_file) as reading:
            _check(reading, f"the backup {backup_file}")
            target.parent.mkdir(parents=True, exist_ok=True)
            with _connected(target) as writing:
                reading.backup(writing)
                return _check(writing, "the restored database")
    except sqlite3.Error as error:
        raise BackupError(f"restoring {backup_file} into {target} failed: {error}") from None
