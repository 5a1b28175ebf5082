"""The Parquet form of a month of open game data, and of the puzzles (pyarrow; ``pip install 'ghostparty[data]'``).

Games: one row a game, the same fields as the ndjson lines (docs/OPEN-DATA.md): the seats
as a list of structs (with each seat's review figures), the actions and the review's win
chances and decisions as JSON text (their kinds differ, which a columnar type would
spread over many null columns), the days a game began and ended as dates.

Puzzles: one row a puzzle, the CSV's columns typed: the alternatives a list of structs
(each action as JSON text with its win chances), the themes a list, the day added a date.
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


ALTERNATIVE = pa.struct(
    [("action", pa.string()), ("win", pa.float64()), ("deep_win", pa.float64()), ("deep_se", pa.float64())]
)

PUZZLE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("rules", pa.string()),
        ("players", pa.int8()),
        ("game", pa.string()),
        ("game_index", pa.int32()),
        ("added", pa.date32()),
        ("phase", pa.string()),
        ("to_move", pa.int8()),
        ("roll", pa.int8()),
        ("answer", pa.string()),
        ("answer_win", pa.float64()),
        ("answer_deep", pa.float64()),
        ("answer_se", pa.float64()),
        ("alternatives", pa.list_(ALTERNATIVE)),
        ("margin", pa.float64()),
        ("confirmed", pa.string()),
        ("certified", pa.bool_()),
        ("themes", pa.list_(pa.string())),
        ("reason_en", pa.string()),
        ("reason_de", pa.string()),
        ("rating", pa.float64()),
        ("rd", pa.float64()),
        ("attempts", pa.int32()),
        ("solved", pa.int32()),
        ("position", pa.string()),
    ]
)


def _alternative(choice: dict[str, Any]) -> dict[str, Any]:
    deep = choice["deep"]
    return {
        "action": json.dumps(choice["action"], separators=(",", ":")),
        "win": choice["win"],
        "deep_win": None if deep is None else deep["win"],
        "deep_se": None if deep is None else deep["se"],
    }


def puzzles_parquet_bytes(rows: list[dict[str, Any]]) -> bytes:
    """The puzzles' rows (:func:`ghostparty.server.opendata.puzzles.puzzle_rows`) as a Parquet file, zstd-compressed."""
    columns: dict[str, list[Any]] = {field.name: [] for field in PUZZLE_SCHEMA}
    for row in rows:
        for name, column in columns.items():
            column.append(row[name])
        columns["added"][-1] = _day(row["added"])
        columns["alternatives"][-1] = [_alternative(choice) for choice in row["alternatives"]]
    table = pa.table(columns, schema=PUZZLE_SCHEMA)
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    return buffer.getvalue()
