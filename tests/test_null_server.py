"""scripts/null_server.py, the serving stack's floor: it must carry the load test's traffic
as the real server does (or the floor it measures would be of another load)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
from websockets.asyncio.client import connect

from ghostparty.loadtest import _setup, run_load
from ghostparty.rules import Game
from tests.fixtures.scripts import load_script
from tests.fixtures.serving import serving


@pytest.fixture(scope="module")
def null_server() -> ModuleType:
    return load_script("null_server")


async def _play_one(base: str) -> dict[int, list[dict[str, Any]]]:
    """One game as the load client plays it; every message each seat's socket got."""
    table_id, tokens = await _setup(base, "hugo", 4)
    got: dict[int, list[dict[str, Any]]] = {seat: [] for seat in tokens}
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    sockets = [await connect(url, compression=None) for _ in tokens]
    try:
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "tokens": {str(seat): tokens[seat]}, "chat": False}))
            got[seat].append(orjson.loads(await ws.recv()))

        async def seat_loop(seat: int) -> None:
            ws = sockets[seat]
            message = got[seat][-1]
            while message["table"]["status"] != "over":
                table = message["table"]
                if message["legal"] and table["to_move"] == seat:
                    act = {"type": "act", "seat": seat, "version": table["version"], "action": message["legal"][0]}
                    await ws.send(orjson.dumps(act).decode())
                message = orjson.loads(await ws.recv())
                got[seat].append(message)

        await asyncio.wait_for(asyncio.gather(*(seat_loop(seat) for seat in tokens)), 20)
    finally:
        for ws in sockets:
            await ws.close()
    return got


def test_a_game_is_the_real_ones_traffic(null_server: ModuleType) -> None:
    with serving(null_server.create_app(12)) as port:
        got = asyncio.run(_play_one(f"http://127.0.0.1:{port}"))
    for seat, messages in got.items():
        assert messages[0]["type"] == "state"
        updates = messages[1:]
        assert len(updates) == 12  # every action reaches every socket once
        assert [m["entry"]["version"] for m in updates] == list(range(6, 18))
        assert updates[-1]["table"]["status"] == "over"
        for update in updates:
            mover = update["table"]["to_move"]
            # only the mover's copy lists the legal actions, and not once the game is over
            assert bool(update["legal"]) == (seat == mover and update["table"]["status"] == "playing")
    # the messages are about the real ones' size (a captured table; legal actions)
    sizes = [len(orjson.dumps(m)) for m in got[0][1:]]
    assert min(sizes) > 1000 and max(sizes) < 2500


def test_with_the_rules_a_game_is_a_real_one_and_is_saved(null_server: ModuleType, tmp_path: Path) -> None:
    store = tmp_path / "null.db"
    with serving(null_server.create_app(12, "store", str(store))) as port:
        got = asyncio.run(_play_one(f"http://127.0.0.1:{port}"))
    replayed = Game("hugo", 4)
    updates = got[0][1:]
    assert len(updates) > 40  # a whole hugo game, not --actions' 12
    for index, update in enumerate(updates):
        entry = update["entry"]
        assert entry["index"] == index and entry["events"] is not None
        replayed.apply(entry["action"])  # each action the rules took is legal, in order
        assert update["position"] == replayed.position()
    for seat, messages in got.items():  # the mover's copy: the position's real legal actions
        for before, update in itertools.pairwise(messages):
            if update["legal"] and update["legal"] != [{"roll": True}]:
                assert update["legal"] == legal_of(update["position"])
            assert update["table"]["to_move"] != seat or update["table"]["status"] == "over" or update["legal"]
            assert before["table"]["version"] + 1 == update["table"]["version"]
    assert updates[-1]["position"]["phase"] == "over" and updates[-1]["table"]["status"] == "over"
    with sqlite3.connect(store) as db:  # every action saved, and the table's last version
        assert db.execute("SELECT count(*) FROM actions").fetchone() == (len(updates),)
        assert db.execute("SELECT version FROM tables").fetchone() == (updates[-1]["table"]["version"],)


def legal_of(position: dict[str, Any]) -> list[dict[str, Any]]:
    return Game.from_position(position).legal_actions()


def test_work_must_be_known(null_server: ModuleType) -> None:
    with pytest.raises(ValueError, match="expected one of none, rules, store"):
        null_server.create_app(12, "everything")


def test_the_load_test_runs_against_it_without_errors(null_server: ModuleType) -> None:
    with serving(null_server.create_app(20)) as port:
        report = asyncio.run(run_load(f"http://127.0.0.1:{port}", games=4, players=4, think=0, seconds=2.0))
    assert report.errors == {}
    assert report.finished >= 4 and report.actions >= 80
    assert report.server_cpu is not None and report.cpu_source.startswith("instance floor")
