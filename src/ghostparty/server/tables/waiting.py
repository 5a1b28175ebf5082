"""Who has a turn-based move waiting: the question both the "your move" e-mails and the
"your move" notifications ask, for the SQL stores and the memory ones alike.

A mover is waiting in a turn-based game (a move's time of at least
:data:`~ghostparty.server.common.model.TURN_BASED_FROM`) under way when the table has not
changed since before ``waited_since`` and the seat to move is an account's, present (not
handed to a bot).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

from sqlalchemy import ColumnElement, and_

from ghostparty.server.common.model import PLAYING, TURN_BASED_FROM, Table
from ghostparty.server.infra.db import seats, tables

#: The join of a table to its seat to move.
MOVER: ColumnElement[bool] = and_(seats.c.table_id == tables.c.id, seats.c.seat == tables.c.to_move)


def waiting_since(moment: datetime) -> tuple[ColumnElement[bool], ...]:
    """The conditions on ``tables`` joined to its seat to move (:data:`MOVER`)."""
    return (
        tables.c.status == PLAYING,
        tables.c.turn_seconds >= TURN_BASED_FROM,
        tables.c.updated < moment,
        seats.c.kind == "human",
        seats.c.away.is_(False),
        seats.c.player_id.is_not(None),
    )


def waiting_movers(kept: Iterable[Table], moment: datetime) -> Iterator[tuple[Table, int, int]]:
    """The same over tables kept in memory: each waiting table with its mover's account
    and the table's time for a move."""
    for table in kept:
        limit = table.turn_seconds
        if table.status != PLAYING or limit is None or limit < TURN_BASED_FROM or not table.updated < moment:
            continue
        for seat in table.seats:
            if seat.seat == table.to_move and seat.kind == "human" and not seat.away and seat.player_id is not None:
                yield table, seat.player_id, limit
