"""The Parquet form of a month of open game data (pyarrow; ``pip install 'ghostparty[data]'``).

One row a game, the same fields as the ndjson lines (docs/OPEN-DATA.md): the seats as a
list of structs (with each seat's review figures), the actions and the review's win
chances and decisions as JSON text (their kinds differ, which a columnar type would
spread over many null columns), the days a game began and ended as dates.
"""

from __future__ import annotations

import io
import json
from datetime import date
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

SEAT = pa.struct(
    [
        ("seat", pa.int8()),
        ("kind", pa.string()),
        ("bot", pa.string()),
        ("name", pa.string()),
        ("registered", pa.bool_()),
        ("points", pa.int16()),
        ("place", pa.int8()),
        ("won", pa.bool_()),
        ("left_to_bot", pa.bool_()),
        ("rating_before", pa.int32()),
        ("rating_after", pa.int32()),
        ("accuracy", pa.float32()),
        ("pr", pa.float32()),
        ("luck", pa.float64()),
        ("skill", pa.float64()),
        ("luck_adjusted", pa.float64()),
        ("marks", pa.struct([("inaccuracy", pa.int16()), ("mistake", pa.int16()), ("blunder", pa.int16())])),
    ]
)

SCHEMA = pa.schema(
    [
        ("format", pa.string()),
        ("id", pa.string()),
        ("rules", pa.string()),
        ("players", pa.int8()),
        ("rated", pa.bool_()),
        ("turn_seconds", pa.int32()),
        ("created", pa.date32()),
        ("ended", pa.date32()),
        ("first_player", pa.int8()),
        ("winners", pa.list_(pa.int8())),
        ("seats", pa.list_(SEAT)),
        ("action_count", pa.int32()),
        ("actions", pa.string()),
        ("review_version", pa.string()),
        ("dice_share", pa.float32()),
        ("review", pa.string()),
    ]
)


def _day(text: str) -> date:
    return date.fromisoformat(text)


def parquet_bytes(games: list[dict[str, Any]]) -> bytes:
    """The games (ndjson's dicts) as a Parquet file, zstd-compressed."""
    columns: dict[str, list[Any]] = {field.name: [] for field in SCHEMA}
    for game in games:
        for name in ("format", "id", "rules", "players", "rated", "turn_seconds", "first_player", "winners", "seats"):
            columns[name].append(game[name])
        columns["created"].append(_day(game["created"]))
        columns["ended"].append(_day(game["ended"]))
        columns["action_count"].append(len(game["actions"]))
        columns["actions"].append(json.dumps(game["actions"], separators=(",", ":")))
        review = game.get("review")
        columns["review_version"].append(None if review is None else review["version"])
        columns["dice_share"].append(None if review is None else review["dice_share"])
        columns["review"].append(None if review is None else json.dumps(review, separators=(",", ":")))
    table = pa.table(columns, schema=SCHEMA)
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    return buffer.getvalue()
