"""Open puzzle data: the server's puzzles, one row each, as CSV and Parquet (docs/OPEN-DATA.md).

:func:`write_puzzles` writes ``ghostparty-puzzles.csv.gz`` and ``ghostparty-puzzles.parquet``
into the open-data folder, beside the games and under the same rules: a puzzle's game
is named only by the keyed id the games' files give it (:func:`~ghostparty.server.opendata.export.game_id`,
the folder's key), and only where that game is a finished one (so in the games' files);
its time is the day it was added; no seed, table, account or name. What accounts did
with a puzzle goes out only as its counts and rating. Rows are in the order of the
puzzles' ids and the gzip has no time stamp, so the same puzzles give the same bytes.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Engine, select

from ghostparty.server.common.model import OVER
from ghostparty.server.infra.db import tables
from ghostparty.server.opendata.export import day, game_id
from ghostparty.server.puzzles.schema import puzzles

#: The format of the puzzles' rows (the columns below).
PUZZLE_FORMAT = "ghostparty-puzzle-data/1"
#: The puzzles' files in the open-data folder.
CSV_FILE, PARQUET_FILE = "ghostparty-puzzles.csv.gz", "ghostparty-puzzles.parquet"
#: The columns, in order (docs/OPEN-DATA.md, *The puzzles*).
COLUMNS = (
    "id",
    "rules",
    "players",
    "game",
    "game_index",
    "added",
    "phase",
    "to_move",
    "roll",
    "answer",
    "answer_win",
    "answer_deep",
    "answer_se",
    "alternatives",
    "margin",
    "confirmed",
    "certified",
    "themes",
    "reason_en",
    "reason_de",
    "rating",
    "rd",
    "attempts",
    "solved",
    "position",
)
#: Puzzles read from the store at once.
BATCH = 1000


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _stored_puzzles(engine: Engine) -> Iterator[Any]:
    """Every kept puzzle's row, in the order of their ids (:data:`BATCH` at a time)."""
    after = ""
    while True:
        query = select(puzzles).where(puzzles.c.id > after).order_by(puzzles.c.id).limit(BATCH)
        with engine.connect() as conn:
            rows = conn.execute(query).all()
        yield from rows
        if len(rows) < BATCH:
            return
        after = rows[-1].id


def _finished(engine: Engine, ids: set[str]) -> set[str]:
    """Those of ``ids`` that are finished games (the games' files hold every one)."""
    found: set[str] = set()
    ordered = sorted(ids)
    for start in range(0, len(ordered), BATCH):
        chunk = ordered[start : start + BATCH]
        query = select(tables.c.id).where(tables.c.id.in_(chunk), tables.c.status == OVER)
        with engine.connect() as conn:
            found.update(conn.execute(query).scalars())
    return found


def puzzle_rows(engine: Engine, key: bytes) -> list[dict[str, Any]]:
    """Every puzzle as its row (:data:`COLUMNS`), in the order of their ids."""
    rows = list(_stored_puzzles(engine))
    named = {row.puzzle["source"].get("game") for row in rows} - {None}
    finished = _finished(engine, named)
    return [_row(row, key, finished) for row in rows]


def _row(row: Any, key: bytes, finished: set[str]) -> dict[str, Any]:
    item, position = row.puzzle, row.position
    source = item["source"]
    game = source.get("game")
    shown = game is not None and game in finished
    answer = item["answer"]
    return {
        "id": row.id,
        "rules": row.rules,
        "players": row.players,
        "game": game_id(key, game) if shown else None,
        "game_index": source["index"] if shown else None,
        "added": day(row.added),
        "phase": position["phase"],
        "to_move": position["to_move"],
        "roll": position.get("roll"),
        "answer": _json(answer["action"]),
        "answer_win": answer["win"],
        "answer_deep": None if answer["deep"] is None else answer["deep"]["win"],
        "answer_se": None if answer["deep"] is None else answer["deep"]["se"],
        "alternatives": item["alternatives"],
        "margin": item["margin"],
        "confirmed": item["confirmed"],
        "certified": item["certified"],
        "themes": list(item["themes"]),
        "reason_en": item["reason"]["en"],
        "reason_de": item["reason"]["de"],
        "rating": round(float(row.rating), 1),
        "rd": round(float(row.rd), 1),
        "attempts": row.attempts,
        "solved": row.solved,
        "position": _json(position),
    }


def csv_bytes(rows: Sequence[dict[str, Any]]) -> bytes:
    """The rows as CSV (UTF-8, a header line), gzip'd without a name or time stamp:
    ``alternatives`` as JSON text, ``themes`` separated by spaces, null as empty."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        flat = {name: "" if value is None else value for name, value in row.items()}
        flat["alternatives"] = _json(row["alternatives"])
        flat["themes"] = " ".join(row["themes"])
        flat["certified"] = "true" if row["certified"] else "false"
        writer.writerow(flat)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as packed:
        packed.write(text.getvalue().encode("utf-8"))
    return buffer.getvalue()
