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

from sqlalchemy import Engine, select

from ghostparty.server.common.model import OVER, ActionRow
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


def finished_records(engine: Engine, ids: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(table id, record)`` of each finished game of ``ids`` in that order (read
    :data:`BATCH` at a time); an id that is no finished game is left out."""
    for start in range(0, len(ids), BATCH):
        batch = list(ids[start : start + BATCH])
        with engine.connect() as conn:
            table_rows = {
                row["id"]: row
                for row in conn.execute(
                    select(tables).where(tables.c.id.in_(batch), tables.c.status == OVER)
                ).mappings()
            }
            seat_rows: dict[str, list[Any]] = {}
            query_seats = select(seats).where(seats.c.table_id.in_(batch)).order_by(seats.c.seat)
            for seat in conn.execute(query_seats).mappings():
                seat_rows.setdefault(seat["table_id"], []).append(seat)
            action_rows: dict[str, list[ActionRow]] = {}
            query = select(actions).where(actions.c.table_id.in_(batch)).order_by(actions.c.table_id, actions.c.idx)
            for stored in conn.execute(query):
                action_rows.setdefault(stored.table_id, []).append(
                    ActionRow(stored.idx, stored.seat, json.loads(stored.action))
                )
        for table_id in batch:
            found = table_rows.get(table_id)
            if found is None:
                continue
            table = table_of_row(found, [seat_of_row(r) for r in seat_rows.get(table_id, [])])
            live = rebuild(table, action_rows.get(table_id, []))
            if live.game is not None:  # a finished game was started
                yield table_id, live.game.record().to_dict()
