"""Open game data: ``ghostparty export`` writes every finished game by month as ndjson and
Parquet with checksums and pseudonyms; DuckDB reads the Parquet; the server serves the
folder; an account may keep its name out. (What the files don't tell:
test_open_data_privacy.py.)"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from ghostparty.cli.main import cli
from ghostparty.rules import Game, action_from_dict
from ghostparty.server.http.routes.opendata import DOWNLOADS
from ghostparty.server.opendata.export import KEY_FILE, export, finished_games, game_id, load_key
from ghostparty.server.opendata.puzzles import CSV_FILE, PARQUET_FILE
from ghostparty.server.tables.store import SqlTables
from tests.fixtures.accounts import error, make_client, register
from tests.server.accounts.test_rated import play_to_the_end, rated_table

duckdb = pytest.importorskip("duckdb", reason="DuckDB is not installed (pip install 'ghostparty[data]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'ghostparty[data]')")


def _rated_game(client: TestClient, csrf: str) -> str:
    table_id = rated_table(client)
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf}).json()[
        "token"
    ]
    assert client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}).status_code == 200
    play_to_the_end(client, table_id, {0: token})
    return table_id


def _guest_game(client: TestClient, name: str) -> str:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    table_id = client.post("/api/tables", json={"rules": "midnight-party", "seats": seats, "first_player": 0}).json()[
        "table"
    ]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": name}).json()["token"]
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    play_to_the_end(client, table_id, {0: token})
    return str(table_id)


@pytest.fixture
def played(db_url: str) -> dict[str, str]:
    """Three finished games: ann's (public), bob's (who opted out), and a guest's."""
    with make_client(db_url) as ann, make_client(db_url) as bob, make_client(db_url) as guest:
        ann_csrf, bob_csrf = register(ann, "ann"), register(bob, "bob")
        chose = bob.post("/api/account/open-data", json={"opt_out": True}, headers={"X-CSRF-Token": bob_csrf})
        assert chose.status_code == 200 and chose.json() == {"opt_out": True}
        return {
            "ann": _rated_game(ann, ann_csrf),
            "bob": _rated_game(bob, bob_csrf),
            "guest": _guest_game(guest, "Gina"),
        }


def _export(db_url: str, out: Path) -> list[Any]:
    store = SqlTables(db_url)
    try:
        return export(store.engine, out)
    finally:
        store.close()


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]


def _by_table(db_url: str, out: Path, month: str) -> dict[str, dict[str, Any]]:
    """The month's games by their table's id (the files know only keyed ids: the key maps them)."""
    games = {game["id"]: game for game in _lines(out / f"ghostparty-games-{month}.ndjson.gz")}
    key = load_key(out)
    store = SqlTables(db_url)
    try:
        tables = [table for ids in finished_games(store.engine).values() for table in ids]
    finally:
        store.close()
    return {table: games[game_id(key, table)] for table in tables if game_id(key, table) in games}


def test_the_export_holds_every_finished_game_with_pseudonyms_and_checksums(
    db_url: str, played: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "open"
    (month,) = _export(db_url, out)
    assert month.games == 3
    games = _by_table(db_url, out, month.month)
    assert set(games) == set(played.values()) and len(_lines(out / f"ghostparty-games-{month.month}.ndjson.gz")) == 3
    names = {key: games[table]["seats"][0]["name"] for key, table in played.items()}
    assert names["ann"] == "ann" and games[played["ann"]]["seats"][0]["registered"]
    assert names["bob"].startswith("player-") and len(names["bob"]) == len("player-") + 12
    assert games[played["bob"]]["seats"][0]["registered"] and games[played["bob"]]["seats"][0]["rating_after"] is None
    assert names["guest"].startswith("guest-") and not games[played["guest"]]["seats"][0]["registered"]
    assert games[played["guest"]]["seats"][1]["name"] == "greedy-bot"
    assert games[played["ann"]]["seats"][0]["rating_after"] is not None
    text = gzip.decompress((out / f"ghostparty-games-{month.month}.ndjson.gz").read_bytes()).decode()
    for secret in ("seed", "token", "Gina", "bob", "chat", *played.values()):
        assert secret not in text
    # every game replays to the result it states
    for game in games.values():
        replayed = Game(game["rules"], game["players"], first_player=game["first_player"])
        for action in game["actions"]:
            replayed.push(action_from_dict(action))
        assert list(replayed.state.winners) == game["winners"]
        assert [s["points"] for s in game["seats"]] == list(replayed.state.scores)
    # SHA256SUMS as sha256sum -c reads it, index.json the same
    sums = dict(reversed(line.split("  ")) for line in (out / "SHA256SUMS").read_text().splitlines())
    assert set(sums) == set(month.files) | {CSV_FILE, PARQUET_FILE}
    for name, digest in sums.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    index = json.loads((out / "index.json").read_text())
    assert [m["month"] for m in index["months"]] == [month.month]
    assert (out / KEY_FILE).stat().st_mode & 0o077 == 0  # the key is the owner's alone


def test_an_export_again_is_byte_for_byte_the_same_and_duckdb_reads_it(
    db_url: str, played: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "open"
    (first,) = _export(db_url, out)
    (again,) = _export(db_url, out)
    assert first.files == again.files  # reproducible: a past month's checksum never changes
    (elsewhere,) = _export(db_url, tmp_path / "other")  # another key: other pseudonyms
    assert elsewhere.files != first.files
    parquet = str(out / f"ghostparty-games-{first.month}.parquet")
    con = duckdb.connect()
    games, actions, rated = con.execute(
        f"SELECT count(*), sum(action_count), count(*) FILTER (WHERE rated) FROM '{parquet}'"
    ).fetchone()
    lines = _lines(out / f"ghostparty-games-{first.month}.ndjson.gz")
    assert (games, actions, rated) == (3, sum(len(g["actions"]) for g in lines), 2)
    names = {row[0] for row in con.execute(f"SELECT unnest(seats).name FROM '{parquet}'").fetchall()}
    assert names == {seat["name"] for g in lines for seat in g["seats"]}
    first_won = con.execute(f"SELECT sum(list_contains(winners, first_player)::INT) FROM '{parquet}'").fetchone()[0]
    assert first_won == sum(g["first_player"] in g["winners"] for g in lines)


def test_the_server_serves_the_files_and_nothing_else(db_url: str, played: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "open"
    (month,) = _export(db_url, out)
    with make_client(db_url, open_data=out) as client:
        index = client.get("/open-data")
        assert index.status_code == 200 and index.json()["months"][0]["month"] == month.month
        name = f"ghostparty-games-{month.month}.parquet"
        got = client.get(f"/open-data/{name}")
        assert got.status_code == 200 and got.content == (out / name).read_bytes()
        assert got.headers["content-type"] == "application/vnd.apache.parquet" and "content-encoding" not in got.headers
        part = client.get(f"/open-data/{name}", headers={"Range": "bytes=0-3"})
        assert part.status_code == 206 and part.content == b"PAR1"
        for bad in (KEY_FILE, "..%2Fgames.db", "games.db", "ghostparty-games-2026-11.csv"):
            refused = client.get(f"/open-data/{bad}")
            assert refused.status_code == 404, bad
            assert b"PAR1" not in refused.content and refused.json()["error"]["code"] == "not_found"
    with make_client(db_url) as plain:  # a server without --open-data
        assert error(plain.get("/open-data")) == "no_open_data"


def test_downloads_are_limited_per_address(db_url: str, tmp_path: Path) -> None:
    out = tmp_path / "empty"
    _export(db_url, out)  # no games: an index all the same
    with make_client(db_url, open_data=out) as client:
        codes = [client.get("/open-data").status_code for _ in range(DOWNLOADS[0].count + 2)]
        assert codes.count(200) == DOWNLOADS[0].count and codes[-1] == 429


def test_the_choice_to_stay_out_is_an_accounts_own(client: TestClient) -> None:
    assert error(client.get("/api/account/open-data")) == "login_required"
    csrf = register(client, "cleo")
    assert client.get("/api/account/open-data").json() == {"opt_out": False}
    assert error(client.post("/api/account/open-data", json={"opt_out": True})) == "csrf"
    bad = client.post("/api/account/open-data", json={"opt_out": "yes please"}, headers={"X-CSRF-Token": csrf})
    assert bad.status_code == 400
    answer = client.post("/api/account/open-data", json={"opt_out": True}, headers={"X-CSRF-Token": csrf})
    assert answer.json() == {"opt_out": True} and client.get("/api/account/open-data").json() == {"opt_out": True}


def test_the_export_command(db_url: str, played: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "cli"
    result = CliRunner().invoke(cli, ["export", "--out", str(out), "--database", db_url, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "3 games" in result.output and (out / "SHA256SUMS").exists()
    bad = CliRunner().invoke(cli, ["export", "--out", str(out), "--database", db_url, "--month", "2026-13"])
    assert bad.exit_code == 2 and "no month" in bad.output
    none = CliRunner().invoke(cli, ["export", "--out", str(out), "--database", db_url, "--month", "1999-01"])
    assert none.exit_code == 0 and "no finished games in 1999-01" in none.output


def test_the_example_reads_a_servers_files_with_duckdb(db_url: str, played: dict[str, str], tmp_path: Path) -> None:
    """examples/open_data.py downloads the files a live server serves, checks them
    against the index and prints the first player's share of the wins."""
    import importlib.util
    import sys

    from ghostparty.server.app import create_app
    from tests.fixtures.serving import serving

    out = tmp_path / "open"
    _export(db_url, out)
    spec = importlib.util.spec_from_file_location(
        "open_data_example", Path(__file__).parents[3] / "examples" / "open_data.py"
    )
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules["open_data_example"] = example
    spec.loader.exec_module(example)
    with serving(create_app(db_url, bot_delay=0.0, open_data=out)) as port:
        files = example.fetch(f"http://127.0.0.1:{port}/open-data", tmp_path / "cache")
    assert [f.name for f in files] == [f.name for f in sorted(out.glob("ghostparty-games-*.parquet"))]
    rows = example.first_player_advantage(files)
    lines = _lines(next(out.glob("*.ndjson.gz")))
    by_setting = {(rules, players): (games, share) for rules, players, games, share, _, _ in rows}
    hugo = [g for g in lines if g["rules"] == "hugo"]
    expected = sum(1 / len(g["winners"]) for g in hugo if g["first_player"] in g["winners"]) / len(hugo)
    assert by_setting[("hugo", 2)] == (2, pytest.approx(expected))
    assert by_setting[("midnight-party", 2)][0] == 1
    low, high = example.wilson(1, 2)
    assert 0 < low < 0.5 < high < 1


def test_a_games_review_goes_out_with_it_where_one_was_computed(
    db_url: str, played: dict[str, str], tmp_path: Path
) -> None:
    from datetime import UTC, datetime

    from ghostparty.analysis.review import Evaluator, review_game
    from ghostparty.server.reviews.pool import REVIEW_VERSION
    from ghostparty.server.reviews.store import SqlReviews, StoredReview

    (month,) = _export(db_url, tmp_path / "before")
    games = _by_table(db_url, tmp_path / "before", month.month)
    assert all(game["review"] is None for game in games.values())
    assert all(seat["accuracy"] is None and seat["marks"] is None for g in games.values() for seat in g["seats"])
    table_id = played["guest"]
    game = games[table_id]
    replayed = Game(game["rules"], game["players"], first_player=game["first_player"])
    for action in game["actions"]:
        replayed.push(action_from_dict(action))
    review = review_game(replayed.record(), evaluator=Evaluator(depth=1, horizon=0)).as_dict()
    store = SqlTables(db_url)
    try:
        stored = StoredReview(table_id, REVIEW_VERSION, review, datetime.now(UTC), 0.5)
        SqlReviews(store.database).put(stored)
    finally:
        store.close()

    out = tmp_path / "after"
    (month,) = _export(db_url, out)
    games = _by_table(db_url, out, month.month)
    exported = games[table_id]["review"]
    assert exported["version"] == REVIEW_VERSION and exported["settings"] == review["settings"]
    assert len(exported["win_chances"]) == len(game["actions"]) + 1
    judged = [step for step in review["steps"] if "loss" in step]
    assert [d["index"] for d in exported["decisions"]] == [step["index"] for step in judged] and judged
    assert {d["mark"] for d in exported["decisions"]} <= {None, "inaccuracy", "mistake", "blunder"}
    for seat, summary in zip(games[table_id]["seats"], review["players_review"], strict=True):
        assert seat["accuracy"] == summary["accuracy"] and seat["pr"] == summary["pr"]
        assert sum(seat["marks"].values()) == sum(summary["marks"].values())
    assert [g["review"] for key, g in games.items() if key != table_id] == [None, None]
    parquet = str(out / f"ghostparty-games-{month.month}.parquet")
    con = duckdb.connect()
    reviewed, decisions = con.execute(
        f"SELECT count(*), sum(json_array_length(review->'$.decisions')) FROM '{parquet}' WHERE review IS NOT NULL"
    ).fetchone()
    assert (reviewed, decisions) == (1, len(judged))
    accuracies = con.execute(
        f"SELECT s.accuracy FROM (SELECT unnest(seats) AS s FROM '{parquet}' WHERE id = '{game_id(load_key(out), table_id)}')"
    ).fetchall()
    assert [row[0] for row in accuracies] == pytest.approx([s["accuracy"] for s in review["players_review"]])
