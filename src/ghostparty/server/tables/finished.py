"""The records of a store's finished games, for batch work outside the server (``ghostparty
puzzles mine --database``): each game rebuilt from its actions, as ``ghostparty-record/1``.

The records carry no seed (a stored game's dice are its roll actions), so nothing read
here is more than a finished table's public record shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, select

from ghostparty.server.common.model import OVER, ActionRow, Table
from ghostparty.server.infra.db import actions, seats, tables
from ghostparty.server.infra.rows import seat_of_row, table_of_row
from ghostparty.server.tables.live import rebuild

#: Games read from the store at once.
BATCH = 500


def finished_ids(engine: Engine, *, since: datetime | None = None, limit: int | None = None) -> list[str]:
    """The ids of the finished games, in the order they ended (then by id): those that
    ended at ``since`` or later, the last ``limit`` of them where given.

    :raises ValueError: for a ``limit`` below 1.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1 game, got {limit}")
    query = select(tables.c.id).where(tables.c.status == OVER)
    if since is not None:
        query = query.where(tables.c.updated >= since)
    newest = query.order_by(tables.c.updated.desc(), tables.c.id.desc())
    if limit is not None:
        newest = newest.limit(limit)
    with engine.connect() as conn:
        return list(reversed(conn.execute(newest).scalars().all()))


def stored_games(
    conn: Connection, ids: Sequence[str], *, finished: bool = True
) -> dict[str, tuple[Table, list[ActionRow]]]:
    """Each game of ``ids`` that the store keeps (and that is over, with ``finished``):
    its table with its seats and its actions in order, read in three queries."""
    query_tables = select(tables).where(tables.c.id.in_(ids))
    if finished:
        query_tables = query_tables.where(tables.c.status == OVER)
    table_rows = {row["id"]: row for row in conn.execute(query_tables).mappings()}
    seat_rows: dict[str, list[Any]] = {}
    for seat in conn.execute(select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)).mappings():
        seat_rows.setdefault(seat["table_id"], []).append(seat)
    action_rows: dict[str, list[ActionRow]] = {}
    query = select(actions).where(actions.c.table_id.in_(ids)).order_by(actions.c.table_id, actions.c.idx)
    for stored in conn.execute(query):
        action_rows.setdefault(stored.table_id, []).append(
            ActionRow(stored.idx, stored.seat, json.loads(stored.action))
        )
    return {
        table_id: (
            table_of_row(row, [seat_of_row(r) for r in seat_rows.get(table_id, [])]),
            action_rows.get(table_id, []),
        )
        for table_id, row in table_rows.items()
    }


def finished_records(engine: Engine, ids: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(table id, record)`` of each finished game of ``ids`` in that order (read
    :data:`BATCH` at a time); an id that is no finished game is left out."""
    for start in range(0, len(ids), BATCH):
        batch = list(ids[start : start + BATCH])
        with engine.connect() as conn:
            games = stored_games(conn, batch)
        for table_id in batch:
            if table_id not in games:
                continue
            live = rebuild(*games[table_id])
            if live.game is not None:  # a finished game was started
                yield table_id, live.game.record().to_dict()
