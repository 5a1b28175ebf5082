"""``ghostparty.connect`` against a live server: a bot account accepts an invitation,
plays a rated game against a person to its end; two bots meet in quick-match; the
bots' leaderboard."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest

from ghostparty.connect import Client, load_policy
from tests.fixtures.botapi import account, bot_account, person_action, table_with_invitation
from tests.fixtures.serving import serving

#: The live server's app (for its state: which streams are open).
SERVER: dict[str, Any] = {}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("botapi") / "games.db"
    SERVER["app"] = create_app(f"sqlite:///{database}", bot_delay=0.0, seed=3, tables_per_minute=1000)
    with serving(SERVER["app"]) as port:
        yield f"http://127.0.0.1:{port}"


def wait_streaming(name: str) -> None:
    """Until the bot account ``name`` follows its stream (an invitation reaches only the
    streams open when it is sent)."""
    from ghostparty.server.common.names import name_key

    app = SERVER["app"]
    player = app.state.parts.accounts.accounts.store.player_by_key(name_key(name))
    wait_for(lambda: player.id in app.state.parts.accounts.bots.streams.open_here)


def in_thread(client: Client, games: int) -> threading.Thread:
    thread = threading.Thread(target=lambda: asyncio.run(client.run(stop_after=games)), daemon=True)
    thread.start()
    return thread


def play_person(person: httpx.Client, table_id: str, token: str, *, until: float) -> dict[str, Any]:
    """Play seat 0 over HTTP until the game is over."""
    while time.monotonic() < until:
        view = person.get(f"/api/tables/{table_id}").json()
        table = view["table"]
        if table["status"] in ("over", "closed"):
            return table
        if table["status"] == "playing" and table["to_move"] == 0:
            body = {"seat": 0, "token": token, "version": table["version"], "action": person_action(view["position"])}
            person.post(f"/api/tables/{table_id}/actions", json=body, headers={"X-CSRF-Token": ""})
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end in time")


def wait_for(check: Any, seconds: float = 20) -> None:
    until = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < until, "waited in vain"
        time.sleep(0.05)


def test_a_bot_plays_a_rated_game_to_the_end_and_is_rated(base: str) -> None:
    token = bot_account(base, "Robo")
    client = Client(base, token, load_policy("greedy", seed=1))
    thread = in_thread(client, 1)
    person, csrf = account(base, "Ann")
    with contextlib.closing(person):
        wait_streaming("Robo")
        table_id, seat_token = table_with_invitation(person, csrf, "Robo")
        wait_for(lambda: person.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]["name"] == "Robo")
        started = person.post(
            f"/api/tables/{table_id}/start", json={"seat": 0, "token": seat_token}, headers={"X-CSRF-Token": csrf}
        )
        assert started.status_code == 200, started.text
        table = play_person(person, table_id, seat_token, until=time.monotonic() + 120)
        assert table["status"] == "over" and table["rated"]
        thread.join(timeout=20)
        assert not thread.is_alive() and client.finished == 1
        profile = person.get("/api/players/Robo").json()
        assert profile["bot_account"] is True
        assert profile["ratings"]["hugo"]["rated_games"] == 1, profile["ratings"]


def test_two_bots_meet_in_quick_match_and_play_a_rated_game(base: str) -> None:
    scopes = ("bot:play", "play")  # play: the quick-match queue
    first = Client(
        base, bot_account(base, "Alpha", scopes), load_policy("random", seed=1), queue="hugo", queue_rated=True
    )
    second = Client(
        base, bot_account(base, "Beta", scopes), load_policy("greedy", seed=2), queue="hugo", queue_rated=True
    )
    threads = [in_thread(first, 1), in_thread(second, 1)]
    for thread in threads:
        thread.join(timeout=120)
    assert first.finished == second.finished == 1
    with httpx.Client(base_url=base) as http:
        for name in ("Alpha", "Beta"):
            assert http.get(f"/api/players/{name}").json()["ratings"]["hugo"]["rated_games"] == 1


def test_bot_accounts_have_a_leaderboard_of_their_own(base: str) -> None:
    """After the games above: the bots' board lists bot accounts (with the server's levels
    as anchors), the people's board none of them."""
    from ghostparty.server.common.ratings import LEADERBOARD_GAMES

    with httpx.Client(base_url=base) as http:
        people = http.get("/api/leaderboard/hugo", params={"limit": 200}).json()
        bots = http.get("/api/leaderboard/hugo", params={"limit": 200, "bots": 1}).json()
        assert http.get("/api/leaderboard/hugo", params={"bots": "yes"}).status_code == 400
    assert bots["bots"] is True and people["bots"] is False
    accounts = {row["name"] for row in bots["rows"] if row["kind"] == "user"}
    assert all(row["bot_account"] for row in bots["rows"] if row["kind"] == "user")
    assert not any(row["bot_account"] for row in people["rows"])
    assert {"Robo", "Alpha", "Beta"} & {row["name"] for row in people["rows"]} == set()
    if LEADERBOARD_GAMES <= 1:
        assert {"Robo", "Alpha", "Beta"} <= accounts
    assert {row["kind"] for row in bots["rows"]} >= {"bot"}  # the levels, as anchors
