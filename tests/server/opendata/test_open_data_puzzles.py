"""Open puzzle data: ``ghostparty export`` writes the server's puzzles beside the games as
CSV and Parquet, a puzzle's game named only by the games' keyed id (and only where that
game is in the games' files), its time a day; the index lists the files, the server
serves them, and both read back (csv, pyarrow)."""

from __future__ import annotations

import csv
import dataclasses
import gzip
import hashlib
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ghostparty.cli.main import cli
from ghostparty.server.infra.database import Database
from ghostparty.server.opendata.export import export, game_id, load_key
from ghostparty.server.opendata.puzzles import COLUMNS, CSV_FILE, PARQUET_FILE, PUZZLE_FORMAT
from ghostparty.server.puzzles.loading import starter
from ghostparty.server.puzzles.store import SqlPuzzles, StoredPuzzle
from tests.fixtures.accounts import make_client
from tests.fixtures.tables import finished_games

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (pip install 'ghostparty[data]')")

#: When the puzzles were added: the files say only the day.
ADDED = datetime(2026, 11, 26, 13, 45, 17, tzinfo=UTC)
#: The seed a puzzle's source names (never published).
SEED = 987_654_321
#: A table that is no finished game (so in no games' file).
ELSEWHERE = "notfinished01"


def _from(puzzle: StoredPuzzle, game: str | None, index: int) -> StoredPuzzle:
    source: dict[str, Any] = {"seed": SEED, "index": index}
    if game is not None:
        source["game"] = game
    return dataclasses.replace(puzzle, puzzle={**puzzle.puzzle, "source": source})


@pytest.fixture
def store(tmp_path: Path) -> tuple[str, list[str], list[StoredPuzzle]]:
    """A store with two finished games and three puzzles: one from the first game, one
    from a table that is no finished game, one from no game (the starter set's)."""
    url = f"sqlite:///{tmp_path}/games.db"
    games = finished_games(url, 2)
    first = starter()[:3]
    kept = [_from(first[0], games[0], 12), _from(first[1], ELSEWHERE, 5), _from(first[2], None, 7)]
    database = Database.open(url)
    try:
        assert SqlPuzzles(database).add(kept, ADDED) == 3
    finally:
        database.close()
    return url, games, kept


def _export(url: str, out: Path) -> None:
    database = Database.open(url)
    try:
        export(database.engine, out)
    finally:
        database.close()


def _csv(out: Path) -> list[dict[str, str]]:
    text = gzip.decompress((out / CSV_FILE).read_bytes()).decode("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def test_the_puzzles_go_out_with_keyed_games_and_days(
    store: tuple[str, list[str], list[StoredPuzzle]], tmp_path: Path
) -> None:
    url, games, kept = store
    out = tmp_path / "open"
    _export(url, out)
    key = load_key(out)
    rows = _csv(out)
    assert list(rows[0]) == list(COLUMNS)
    assert [row["id"] for row in rows] == sorted(p.id for p in kept)
    by_id = {row["id"]: row for row in rows}
    from_game, from_elsewhere, from_none = (by_id[p.id] for p in kept)
    assert from_game["game"] == game_id(key, games[0]) and from_game["game_index"] == "12"
    game_ids = {line["id"] for line in _games(out)}
    assert from_game["game"] in game_ids  # the games' own id: the line of the game it comes from
    assert from_elsewhere["game"] == from_elsewhere["game_index"] == ""  # no game in the files: none
    assert from_none["game"] == from_none["game_index"] == ""
    for puzzle in kept:
        row, item = by_id[puzzle.id], puzzle.puzzle
        assert row["added"] == "2026-11-26" and json.loads(row["position"]) == puzzle.position
        assert (row["rules"], int(row["players"]), row["phase"]) == (
            puzzle.rules,
            puzzle.players,
            puzzle.position["phase"],
        )
        assert int(row["to_move"]) == puzzle.position["to_move"]
        assert (
            json.loads(row["answer"]) == item["answer"]["action"] and float(row["answer_win"]) == item["answer"]["win"]
        )
        assert json.loads(row["alternatives"]) == item["alternatives"] and float(row["margin"]) == item["margin"]
        assert row["confirmed"] == item["confirmed"] and row["certified"] == str(item["certified"]).lower()
        assert row["themes"].split() == item["themes"]
        assert (row["reason_en"], row["reason_de"]) == (item["reason"]["en"], item["reason"]["de"])
        assert float(row["rating"]) == round(puzzle.rating.rating, 1) and float(row["rd"]) == round(puzzle.rating.rd, 1)
        assert (row["attempts"], row["solved"]) == ("0", "0")
    typed = pq.read_table(out / PARQUET_FILE).to_pylist()
    text = gzip.decompress((out / CSV_FILE).read_bytes()).decode() + json.dumps(typed, default=str)
    for secret in (*games, ELSEWHERE, "Ann", str(SEED), "13:45"):
        assert secret not in text, secret
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text)


def _games(out: Path) -> list[dict[str, Any]]:
    (path,) = out.glob("ghostparty-games-*.ndjson.gz")
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]


def test_the_parquet_file_holds_the_same_rows_typed(
    store: tuple[str, list[str], list[StoredPuzzle]], tmp_path: Path
) -> None:
    url, _, kept = store
    out = tmp_path / "open"
    _export(url, out)
    table = pq.read_table(out / PARQUET_FILE)
    assert table.column_names == list(COLUMNS) and table.num_rows == 3
    rows = {row["id"]: row for row in table.to_pylist()}
    by_csv = {row["id"]: row for row in _csv(out)}
    for puzzle in kept:
        row, flat = rows[puzzle.id], by_csv[puzzle.id]
        assert row["game"] == (flat["game"] or None) and row["added"].isoformat() == flat["added"]
        assert row["themes"] == puzzle.puzzle["themes"] and row["certified"] is puzzle.puzzle["certified"]
        alternatives = puzzle.puzzle["alternatives"]
        assert [json.loads(a["action"]) for a in row["alternatives"]] == [a["action"] for a in alternatives]
        assert [a["win"] for a in row["alternatives"]] == [a["win"] for a in alternatives]
        assert [a["deep_win"] for a in row["alternatives"]] == [(a["deep"] or {}).get("win") for a in alternatives]
        assert row["rating"] == float(flat["rating"]) and row["position"] == flat["position"]
    before = {name: (out / name).read_bytes() for name in (CSV_FILE, PARQUET_FILE)}
    _export(url, out)  # the same puzzles: the same bytes
    assert {name: (out / name).read_bytes() for name in before} == before


def test_the_index_lists_the_puzzles_and_the_server_serves_them(
    store: tuple[str, list[str], list[StoredPuzzle]], tmp_path: Path
) -> None:
    url, _, _ = store
    out = tmp_path / "open"
    result = CliRunner().invoke(cli, ["export", "--out", str(out), "--database", url, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert f"3 puzzles → {CSV_FILE}, {PARQUET_FILE}" in result.output
    index = json.loads((out / "index.json").read_text())
    puzzles = index["puzzles"]
    assert puzzles["format"] == PUZZLE_FORMAT and puzzles["count"] == 3
    assert [f["name"] for f in puzzles["files"]] == [CSV_FILE, PARQUET_FILE]
    sums = dict(reversed(line.split("  ")) for line in (out / "SHA256SUMS").read_text().splitlines())
    for listed in puzzles["files"]:
        data = (out / listed["name"]).read_bytes()
        assert listed["bytes"] == len(data) and listed["sha256"] == sums[listed["name"]]
        assert hashlib.sha256(data).hexdigest() == listed["sha256"]
    assert all(not m["files"][0]["name"].startswith("ghostparty-puzzles") for m in index["months"])
    with make_client(url, open_data=out) as client:
        manifest = client.get("/api/open-data").json()
        assert manifest["puzzles"] == puzzles
        for name, media in ((CSV_FILE, "application/gzip"), (PARQUET_FILE, "application/vnd.apache.parquet")):
            got = client.get(f"/open-data/{name}")
            assert got.status_code == 200 and got.content == (out / name).read_bytes()
            assert got.headers["content-type"] == media and got.headers["cache-control"] == "public, max-age=3600"
        for bad in ("ghostparty-puzzles.csv", "ghostparty-puzzles.json", "ghostparty-puzzles-2026-11.parquet"):
            assert client.get(f"/open-data/{bad}").status_code == 404, bad
