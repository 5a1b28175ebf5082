"""Open game data: every finished game, by month, as ndjson and Parquet (docs/OPEN-DATA.md).

:func:`export` reads the store's finished games (never its seeds, tokens or chat) and
writes, per calendar month of their end (UTC), ``ghostparty-games-YYYY-MM.ndjson.gz``
and ``ghostparty-games-YYYY-MM.parquet``, then ``SHA256SUMS`` and ``index.json``. Files
are byte-for-byte reproducible (sorted games, gzip without a time stamp), so a past
month's checksum never changes and mirrors can compare.

Nothing in them leads back to the server's tables: a game's id is keyed (an HMAC of the
table's id), its times are days, its lines are in the order of those ids within a day.
Names: a bot is its level (``greedy-bot``); a registered player their account's name,
unless they chose to stay out of the open data (then ``player-`` and a pseudonym); a
guest ``guest-`` and a pseudonym. A pseudonym stands for one seat of one game (an HMAC
of the table's id and the seat), so finding one game (its moves are its public replay's)
names nobody in another; such a seat has no ratings either (they would chain its games).
The key is kept beside the files (``.pseudonym-key``, never served). The server's puzzles
go out beside the games, by the same rules (:mod:`ghostparty.server.opendata.puzzles`).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import io
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, select

from ghostparty.analysis.review.judge import MARKS
from ghostparty.server.common.model import OVER, ActionRow, Table
from ghostparty.server.common.ratings import places, shown
from ghostparty.server.infra.db import players, results, tables
from ghostparty.server.reviews.schema import reviews
from ghostparty.server.tables.finished import stored_games
from ghostparty.server.tables.live import rebuild
from ghostparty.server.wire.codec import time_text

#: The format of each game's line, and of the files' schema.
FORMAT = "ghostparty-game/2"
#: The key of the games' ids and the pseudonyms, beside the files; never served.
KEY_FILE = ".pseudonym-key"
#: Hex digits of a game's keyed id, and of a pseudonym.
ID_DIGITS, PSEUDONYM_DIGITS = 16, 12
#: The names of the files a server may serve from the folder.
SERVED = re.compile(
    r"^(ghostparty-games-\d{4}-\d{2}\.(ndjson\.gz|parquet)|ghostparty-puzzles\.(csv\.gz|parquet)|SHA256SUMS|index\.json)$"
)
#: Games read from the store at once.
BATCH = 500


@dataclass(frozen=True)
class MonthFiles:
    """One month's files: its games and the files' names and SHA-256s."""

    month: str
    games: int
    files: dict[str, str]


def _keyed(key: bytes, *parts: str) -> str:
    return hmac.new(key, "\0".join(parts).encode(), hashlib.sha256).hexdigest()


def game_id(key: bytes, table_id: str) -> str:
    """A game's id in the files: stable for a key; without it, no table's id matches it."""
    return _keyed(key, "game", table_id)[:ID_DIGITS]


def pseudonym(key: bytes, kind: str, table_id: str, seat: int) -> str:
    """``guest-3f9a2c1b0d4e``: the name of one seat of one game, for ``kind`` ``player`` or
    ``guest``; another game's seat of the same person has another."""
    return f"{kind}-{_keyed(key, kind, table_id, str(seat))[:PSEUDONYM_DIGITS]}"


def day(moment: datetime) -> str:
    """``2026-11-26``: a time as the files give it (UTC; no time of day, which a
    profile's list of games would match)."""
    return moment.strftime("%Y-%m-%d")


def load_key(folder: Path) -> bytes:
    """The folder's pseudonym key, made (32 random bytes, readable by the owner only) on first use."""
    path = folder / KEY_FILE
    if path.exists():
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    key = secrets.token_bytes(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key.hex() + "\n")
    return key


def finished_games(engine: Engine) -> dict[str, list[str]]:
    """Per month (``"2026-11"``) the ids of the games that ended in it, oldest first."""
    months: dict[str, list[str]] = {}
    query = select(tables.c.id, tables.c.updated).where(tables.c.status == OVER).order_by(tables.c.updated, tables.c.id)
    with engine.connect() as conn:
        for table_id, ended in conn.execute(query):
            months.setdefault(f"{ended:%Y-%m}", []).append(table_id)
    return months


def game_lines(engine: Engine, ids: Sequence[str], key: bytes) -> Iterator[dict[str, Any]]:
    """The export of each game of ``ids``, in that order (read :data:`BATCH` at a time)."""
    for start in range(0, len(ids), BATCH):
        batch = list(ids[start : start + BATCH])
        with engine.connect() as conn:
            games = stored_games(conn, batch, finished=False)
            rated: dict[tuple[str, int], Any] = {
                (row.table_id, row.seat): row
                for row in conn.execute(select(results).where(results.c.table_id.in_(batch)))
            }
            reviewed = {row.table_id: row for row in conn.execute(select(reviews).where(reviews.c.table_id.in_(batch)))}
            ids_seated = {seat.player_id for table, _ in games.values() for seat in table.seats if seat.player_id}
            accounts = {
                row.id: row
                for row in conn.execute(
                    select(players.c.id, players.c.name, players.c.kind, players.c.open_data_opt_out).where(
                        players.c.id.in_(sorted(ids_seated))
                    )
                )
            }
        for table_id in batch:
            game = _game(*games[table_id], rated, accounts, key)
            yield with_review(game, reviewed.get(table_id))


def _game(
    table: Table,
    rows: list[ActionRow],
    rated: dict[tuple[str, int], Any],
    accounts: dict[int, Any],
    key: bytes,
) -> dict[str, Any]:
    live = rebuild(table, rows)
    assert live.game is not None  # a finished game was started
    final = live.game.state
    scores = list(final.scores)
    ranks = places(scores)
    listed = []
    for seat in table.seats:
        account = accounts.get(seat.player_id) if seat.player_id is not None else None
        result = rated.get((table.id, seat.seat))
        if seat.kind == "bot":
            name, named = f"{seat.bot}-bot", True
        elif account is not None and not account.open_data_opt_out:
            name, named = account.name, True
        else:
            name, named = pseudonym(key, "guest" if account is None else "player", table.id, seat.seat), False
        listed.append(
            {
                "seat": seat.seat,
                "kind": seat.kind,
                "bot": seat.bot,
                "name": name,
                "registered": account is not None and seat.kind == "human",
                "points": scores[seat.seat],
                "place": ranks[seat.seat],
                "won": seat.seat in table.winners,
                "left_to_bot": seat.kind == "human" and seat.away and not seat.back,
                "rating_before": _shown(result, "mu_before") if named else None,
                "rating_after": _shown(result, "mu_after") if named else None,
            }
        )
    return {
        "format": FORMAT,
        "id": game_id(key, table.id),
        "rules": table.rules,
        "players": table.players,
        "rated": table.rated,
        "turn_seconds": table.turn_seconds,
        "created": day(table.created),
        "ended": day(table.updated),
        "first_player": table.first_player,
        "winners": list(table.winners),
        "seats": listed,
        "actions": [r.action for r in rows],
    }


#: A seat's review figures copied into its entry (null where the game has no review).
SEAT_REVIEW = ("accuracy", "pr", "luck", "skill", "luck_adjusted")


def with_review(game: dict[str, Any], row: Any) -> dict[str, Any]:
    """The game with its stored review where one was computed (on the server's review
    page or as the game ended; docs/OPEN-DATA.md): each seat's accuracy, PR, luck and
    skill, and under ``review`` the win chances after every action and each judged
    decision. Without one, the same keys are null, so every line has one shape."""
    review = row.review if row is not None else None
    by_seat = {entry["seat"]: entry for entry in review.get("players_review", [])} if review else {}
    for seat in game["seats"]:
        summary = by_seat.get(seat["seat"])
        seat.update({name: None if summary is None else summary.get(name) for name in SEAT_REVIEW})
        marks = None if summary is None else summary.get("marks", {})
        seat["marks"] = None if marks is None else {name: int(marks.get(name, 0)) for name, _ in MARKS}
    if not review:
        game["review"] = None
        return game
    game["review"] = {
        "version": row.version,
        "settings": review.get("settings", {}),
        "dice_share": review.get("dice_share"),
        "win_chances": review.get("win_chances", []),
        "decisions": [
            {name: step[name] for name in ("index", "seat", "choices", "best", "loss", "loss_margin", "mark")}
            for step in review.get("steps", [])
            if "loss" in step
        ],
    }
    return game


def _shown(result: Any, column: str) -> int | None:
    value = getattr(result, column, None) if result is not None else None
    return None if value is None else shown(value)


def export(
    engine: Engine,
    folder: Path,
    *,
    months: Iterable[str] | None = None,
    progress: Callable[[int], None] | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[MonthFiles]:
    """Write every month's files (or those of ``months``) and the puzzles' files into
    ``folder``, then ``SHA256SUMS`` and ``index.json`` over every file there;
    ``progress(n)`` after each ``n`` games written. The months written, oldest first."""
    folder.mkdir(parents=True, exist_ok=True)
    key = load_key(folder)
    found = finished_games(engine)
    wanted = sorted(found) if months is None else sorted(set(months) & set(found))
    written = []
    for month in wanted:
        games = []
        for game in game_lines(engine, found[month], key):
            games.append(game)
            if progress is not None and len(games) % 100 == 0:
                progress(100)
        if progress is not None and len(games) % 100:
            progress(len(games) % 100)
        games.sort(key=lambda game: (game["ended"], game["id"]))  # not the order they ended in
        names = _write_month(folder, month, games)
        written.append(MonthFiles(month, len(games), {name: _sha256(folder / name) for name in names}))
    puzzles = _write_puzzles(engine, folder, key)
    _write_index(folder, now(), puzzles)
    return written


def _write_month(folder: Path, month: str, games: list[dict[str, Any]]) -> list[str]:
    stem = f"ghostparty-games-{month}"
    text = "".join(json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n" for game in games)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as packed:  # no name, no time: reproducible
        packed.write(text.encode("utf-8"))
    _replace(folder / f"{stem}.ndjson.gz", buffer.getvalue())
    from ghostparty.server.opendata.parquet import parquet_bytes  # pyarrow, only where exporting

    _replace(folder / f"{stem}.parquet", parquet_bytes(games))
    return [f"{stem}.ndjson.gz", f"{stem}.parquet"]


def _write_puzzles(engine: Engine, folder: Path, key: bytes) -> int:
    """The puzzles' CSV and Parquet files; how many puzzles they hold."""
    from ghostparty.server.opendata.parquet import puzzles_parquet_bytes  # pyarrow, only where exporting
    from ghostparty.server.opendata.puzzles import CSV_FILE, PARQUET_FILE, csv_bytes, puzzle_rows

    rows = puzzle_rows(engine, key)
    _replace(folder / CSV_FILE, csv_bytes(rows))
    _replace(folder / PARQUET_FILE, puzzles_parquet_bytes(rows))
    return len(rows)


def _write_index(folder: Path, moment: datetime, puzzles: int) -> None:
    """``SHA256SUMS`` (as ``sha256sum -c`` reads it) and ``index.json`` of every month's
    files and the ``puzzles`` puzzles' files."""
    from ghostparty.server.opendata.puzzles import PUZZLE_FORMAT

    names = sorted(name for name in os.listdir(folder) if SERVED.match(name) and name.startswith("ghostparty-"))
    sums = {name: _sha256(folder / name) for name in names}
    _replace(folder / "SHA256SUMS", "".join(f"{digest}  {name}\n" for name, digest in sums.items()).encode())
    by_month: dict[str, dict[str, Any]] = {}
    puzzle_files = []
    for name in names:
        listed = {"name": name, "bytes": (folder / name).stat().st_size, "sha256": sums[name]}
        if name.startswith("ghostparty-puzzles."):
            puzzle_files.append(listed)
            continue
        month = name.removeprefix("ghostparty-games-")[:7]
        by_month.setdefault(month, {"month": month, "files": []})["files"].append(listed)
    index = {
        "format": FORMAT,
        "generated": time_text(moment.replace(microsecond=0)),
        "months": list(by_month.values()),
        "puzzles": {"format": PUZZLE_FORMAT, "count": puzzles, "files": puzzle_files},
    }
    _replace(folder / "index.json", (json.dumps(index, indent=1) + "\n").encode())


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` at once: a reader sees the old file or the new one."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
