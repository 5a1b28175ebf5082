"""``ghostparty admin``: listing and closing tables, online backups and restoring them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from ghostparty.cli.main import cli
from ghostparty.rules import OVER
from ghostparty.server.app import create_app
from ghostparty.server.tables.live import rebuild
from ghostparty.server.tables.store import SqlTables

BOTS = [{"kind": "bot", "bot": "random"}] * 4
HUMANS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def admin(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["admin", *args])
    assert result.exit_code == code, result.output
    return result.output


def consistent(url: str) -> dict[str, str]:
    """Every table of the store at ``url``, checked: its actions replay to its row."""
    store = SqlTables(url)
    try:
        found = {}
        for status in ("open", "playing", "over", "closed"):
            for table in store.list_tables(status, 10_000):  # type: ignore[arg-type]
                loaded = store.load(table.id)
                assert loaded is not None
                live = rebuild(*loaded)
                if live.game is not None:
                    state = live.game.state
                    assert (state.phase == OVER) == (table.status == "over"), table.id
                    if table.status == "playing":
                        assert state.to_move == table.to_move, table.id
                found[table.id] = table.status
        return found
    finally:
        store.close()


def actions(url: str) -> int:
    store = SqlTables(url)
    try:
        with store.engine.connect() as conn:
            return int(conn.exec_driver_sql("SELECT count(*) FROM gp_actions").scalar_one())
    finally:
        store.close()


def test_a_backup_taken_while_games_are_played_restores_every_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    copies = []
    with TestClient(create_app(url, bot_delay=0.01, seed=5, tables_per_minute=1000)) as client:
        ids = [
            client.post("/api/tables", json={"rules": "hugo", "seats": BOTS}).json()["table"]["id"] for _ in range(8)
        ]
        time.sleep(0.3)
        for n in range(4):  # the bots write all along
            copy = tmp_path / f"backup-{n}.db"
            output = admin("backup", str(copy), "--database", url)
            assert f"backed up to {copy}: tables" in output and "actions" in output
            copies.append(copy)
            time.sleep(0.2)
        playing = [client.get(f"/api/tables/{i}").json()["table"]["status"] for i in ids].count("playing")
    assert playing > 0, "the games ended before the backups: nothing was written meanwhile"
    counts = [actions(f"sqlite:///{copy}") for copy in copies]
    assert counts == sorted(counts) and counts[0] < counts[-1], counts  # taken while actions were written
    assert not list(tmp_path.glob("*.partial")) and not list(tmp_path.glob("backup-*.db-wal"))
    for copy in copies:
        assert set(consistent(f"sqlite:///{copy}")) == set(ids)

    restored = f"sqlite:///{tmp_path}/restored.db"
    output = admin("restore", str(copies[1]), "--database", restored, "--yes")
    assert f"restored {copies[1]}" in output
    statuses = consistent(restored)
    assert set(statuses) == set(ids) and "playing" in statuses.values()
    with TestClient(create_app(restored, bot_delay=0.0, seed=6)) as client:  # the games under way play on
        for table_id in ids:
            for _ in range(500):
                if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
                    break
                time.sleep(0.01)
            else:
                raise AssertionError(f"table {table_id} did not finish after the restore")
            assert client.get(f"/api/tables/{table_id}/replay").status_code == 200


def test_a_restore_refuses_what_is_not_a_backup_and_keeps_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    SqlTables(url).close()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    output = admin("restore", str(junk), "--database", url, "--yes", code=1)
    assert "junk.db" in output and "not a database" in output
    assert "restored" not in admin("restore", str(tmp_path / "missing.db"), "--database", url, "--yes", code=1)
    assert consistent(url) == {}


def test_postgresql_is_backed_up_with_pg_dump(tmp_path: Path) -> None:
    output = admin("backup", str(tmp_path / "x.db"), "--database", "postgresql://db/ghostparty", code=1)
    assert "pg_dump" in output
    url = f"sqlite:///{tmp_path}/g.db"
    assert "there is no database" in admin("backup", str(tmp_path / "copy.db"), "--database", url, code=1)
    SqlTables(url).close()
    assert "another file" in admin("backup", str(tmp_path / "g.db"), "--database", url, code=1)


def make_tables(url: str) -> dict[str, str]:
    with TestClient(create_app(url, bot_delay=0.0, seed=7, tables_per_minute=1000)) as client:
        made = {}
        for rules in ("hugo", "midnight-party"):
            made[rules] = client.post("/api/tables", json={"rules": rules, "seats": HUMANS}).json()["table"]["id"]
        return made


def test_tables_are_listed_by_status_and_rules(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    made = make_tables(url)
    listed = admin("tables", "--database", url)
    assert made["hugo"] in listed and made["midnight-party"] in listed and "(free)" in listed
    only = admin("tables", "--database", url, "--rules", "midnight-party", "--json").splitlines()
    assert [json.loads(line)["id"] for line in only] == [made["midnight-party"]]
    assert admin("tables", "--database", url, "--status", "playing").strip() == "0 tables"
    assert made["hugo"] not in admin("tables", "--database", url, "--idle", "60")


def test_a_table_is_closed_in_the_store_when_no_server_runs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    made = make_tables(url)
    output = admin("close", made["hugo"], "--reason", "spam", "--database", url)
    assert f"closed table {made['hugo']} in the store" in output
    assert consistent(url) == {made["hugo"]: "closed", made["midnight-party"]: "open"}
    assert "not_open: the table is closed already" in admin(
        "close", made["hugo"], "--reason", "again", "--database", url, code=1
    )
    assert "unknown_table" in admin("close", "nope", "--reason", "x", "--database", url, code=1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


@pytest.mark.parametrize("token", ["0123456789abcdef-admin"])
def test_a_table_is_closed_through_the_running_server(tmp_path: Path, token: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--port", str(port), "--admin-token", token]
    command += ["--database", f"sqlite:///{tmp_path}/games.db"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(100):
            try:
                table_id = post(f"{base}/api/tables", {"rules": "hugo", "seats": HUMANS})["table"]["id"]
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        wrong = admin("close", table_id, "--reason", "x", "--server", base, "--token", "wrong-token-wrong", code=1)
        assert "forbidden" in wrong
        output = admin("close", table_id, "--reason", "a test", "--server", base, "--token", token)
        assert "its clients were told" in output
        with urllib.request.urlopen(f"{base}/api/tables/{table_id}", timeout=5) as answer:
            assert json.loads(answer.read())["table"]["status"] == "closed"
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert f"table {table_id} closed by an operator: a test" in err
    assert "unavailable" in admin("close", table_id, "--reason", "x", "--server", base, "--token", token, code=1)
