"""Tables, seats and actions as database rows, and statements compiled once for a driver."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any

import orjson
from sqlalchemy import JSON, DateTime
from sqlalchemy import Table as SqlTable

from ghostparty.server.common.model import ActionRow, Seat, Table


class Compiled:
    """A statement compiled once for a dialect, bound to driver parameters by hand: the
    SQL text, the parameters' names in order (or by name) and their types' converters."""

    def __init__(self, statement: Any, dialect: Any, table: SqlTable) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql: str = str(compiled)
        self.positional: bool = bool(compiled.positional)
        self.names: list[str] = list(compiled.positiontup or []) if self.positional else list(compiled.binds)
        self.converters: dict[str, Any] = {}
        for name in self.names:
            # A value's type is its column's (the b_ parameters of WHERE are plain keys).
            kind = table.c[name].type if name in table.c else compiled.binds[name].type
            # JSON (the winners) by orjson: the dialects' own call json.dumps
            processor = json_text if isinstance(kind, JSON) else kind.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None and isinstance(kind, DateTime):
                # SQLite's formats each time in Python; the same few times recur (model.now)
                processor = lru_cache(maxsize=1024)(processor)
            if processor is not None:
                self.converters[name] = processor
        # Worked out once: the names bound as they are and those converted (most are plain).
        self._plain = [n for n in self.names if n not in self.converters]
        self._converted = list(self.converters.items())
        # Positional: every value at once (in C), then the few converted in place.
        get = itemgetter(*self.names) if len(self.names) > 1 else None
        self._get: Callable[[dict[str, Any]], Sequence[Any]] = (
            get if get is not None else lambda row: tuple(row[n] for n in self.names)
        )
        self._convert_at = [(i, self.converters[n]) for i, n in enumerate(self.names) if n in self.converters]

    def _values(self, row: dict[str, Any]) -> Any:
        if self.positional:
            if not self._convert_at:
                return self._get(row)
            ordered = list(self._get(row))
            for index, convert in self._convert_at:
                ordered[index] = convert(ordered[index])
            return ordered
        named = {n: row[n] for n in self._plain}
        for name, convert in self._converted:
            named[name] = convert(row[name])
        return named

    def bind(self, row: dict[str, Any]) -> tuple[str, Any]:
        return self.sql, self._values(row)

    def bind_many(self, rows: Sequence[dict[str, Any]]) -> tuple[str, list[Any]]:
        return self.sql, [self._values(row) for row in rows]


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


#: The columns of a table's row that a change may alter: what its ``UPDATE`` writes (the
#: others are fixed when the table is made). Each is the :class:`Table` field of its name.
CHANGED_COLUMNS = (
    "status",
    "version",
    "first_player",
    "to_move",
    "winners",
    "turn_seconds",
    "absent_bot",
    "updated",
    "rematch",
)


def changed_row(table: Table) -> dict[str, Any]:
    """The :data:`CHANGED_COLUMNS` of ``table``'s row."""
    row = {name: getattr(table, name) for name in CHANGED_COLUMNS}
    row["winners"] = list(table.winners)
    return row


def table_row(table: Table) -> dict[str, Any]:
    return {
        "id": table.id,
        "rules": table.rules,
        "players": table.players,
        "seed": table.seed,
        "created": table.created,
        "rated": table.rated,
        "series": table.series,
        "series_index": table.series_index,
        "rematch_fill": table.rematch_fill,
        "deal": table.deal,
        **changed_row(table),
    }


def seat_row(table_id: str, seat: Seat) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "kind": seat.kind,
        "bot": seat.bot,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "away": seat.away,
        "back": seat.back,
        "player_id": seat.player_id,
        "again": seat.again,
        "bank": seat.bank,
    }


def action_row(table_id: str, row: ActionRow) -> dict[str, Any]:
    """An action's row; its JSON text written by orjson (compact; ``json.dumps`` was 1.5 %
    of the server's CPU under load)."""
    return {"table_id": table_id, "idx": row.index, "seat": row.seat, "action": json_text(row.action)}


def json_text(value: Any) -> str:
    """``value`` as compact JSON text: the store's JSON columns and action texts."""
    return orjson.dumps(value).decode()


def utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; every time the store writes is UTC.
    return value.astimezone(UTC) if value.tzinfo is not None else value.replace(tzinfo=UTC)


def seat_of_row(row: Any) -> Seat:
    return Seat(
        seat=row["seat"],
        kind=row["kind"],
        bot=row["bot"],
        name=row["name"],
        token_hash=row["token_hash"],
        away=bool(row["away"]),
        back=bool(row["back"]),
        player_id=row["player_id"],
        again=bool(row["again"]),
        bank=row["bank"],
    )


def table_of_row(row: Any, seat_list: Iterable[Seat]) -> Table:
    return Table(
        id=row["id"],
        rules=row["rules"],
        players=row["players"],
        seats=tuple(seat_list),
        seed=row["seed"],
        status=row["status"],
        version=row["version"],
        first_player=row["first_player"],
        to_move=row["to_move"],
        winners=tuple(row["winners"]),
        turn_seconds=row["turn_seconds"],
        absent_bot=row["absent_bot"],
        created=utc(row["created"]),
        updated=utc(row["updated"]),
        rated=bool(row["rated"]),
        series=row["series"],
        series_index=row["series_index"],
        rematch=row["rematch"],
        rematch_fill=row["rematch_fill"],
        deal=row["deal"],
    )
