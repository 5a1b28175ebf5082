"""Reliability in the browser (issue 25, item 4): "finished 66 % of 6 games" on a
profile, in both languages, and the same player's record at their seat of a table
that a stranger opens.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ghostparty.server.common.model import OVER, GameResult, Seat, SeatResult, Table
from ghostparty.server.common.names import name_key
from ghostparty.server.stores import SqlStores
from ghostparty.server.tables.standings import record_result
from tests.fixtures.serving import serving

from .helpers import new_page

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

NAME = "Rolf"
PASSWORD = "castle-at-midnight"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('reliability') / 'games.db'}"


@pytest.fixture(scope="module")
def base_url(database: str) -> Iterator[str]:
    from ghostparty.server.app import create_app

    with serving(create_app(database, bot_delay=0.0, seed=25)) as port:
        yield f"http://127.0.0.1:{port}"


def _record(database: str, games: int, left: int) -> None:
    """``games`` finished games of NAME against a bot, ``left`` of them left to it."""
    store = SqlStores.open(database)
    player = store.accounts.player_by_key(name_key(NAME))
    assert player is not None
    when = datetime(2026, 11, 20, tzinfo=UTC)
    for game in range(games):
        seats = (Seat(0, "human", name=NAME, player_id=player.id), Seat(1, "bot", bot="greedy"))
        table = Table(f"old{game}", "hugo", 2, seats, seed=game, status=OVER, winners=(1,), updated=when)
        assert store.tables.create(table)
        result = GameResult("hugo", False, (SeatResult(0, player.id, 20, 2, False, left=game < left),), when)
        with store.database.engine.begin() as conn:
            record_result(conn, table.id, result)
    store.close()


def test_the_profile_and_the_seat_tell_how_often_a_player_finishes(
    browser: Any, base_url: str, database: str, tmp_path: Path
) -> None:
    page = new_page(browser, speed="instant")
    registered = page.request.post(base_url + "/api/account/register", data={"name": NAME, "password": PASSWORD})
    assert registered.status == 201, registered.text()
    page.goto(f"{base_url}/players/{NAME}")
    page.wait_for_selector("main[data-state=ok]")
    assert page.get_by_test_id("player-record").is_hidden()  # no games yet: nothing to say

    _record(database, 6, 2)
    page.reload()
    page.wait_for_selector("main[data-state=ok]")
    record = page.get_by_test_id("player-record")
    assert record.inner_text() == "finished 66 % of 6 games"
    assert record.get_attribute("data-percent") == "66"

    # Rolf opens a table and sits down; a stranger looking at it sees his record at the seat.
    csrf = page.request.get(base_url + "/api/account").json()["csrf"]
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = page.request.post(base_url + "/api/tables", data={"rules": "hugo", "seats": seats, "first_player": 0})
    table_id = made.json()["table"]["id"]
    joined = page.request.post(
        f"{base_url}/api/tables/{table_id}/join", data={"seat": 0}, headers={"X-CSRF-Token": csrf}
    )
    assert joined.status == 200, joined.text()
    stranger = new_page(browser, speed="instant")
    stranger.goto(f"{base_url}/t/{table_id}")
    tag = stranger.get_by_test_id("seat-record")
    tag.wait_for()
    assert tag.get_attribute("data-percent") == "66" and tag.get_attribute("data-games") == "6"
    assert "66 %" in tag.inner_text() and tag.get_attribute("title") == "finished 66 % of 6 games"
    assert stranger.locator("[data-testid=seat][data-seat='1'] [data-testid=seat-record]").count() == 0

    # in German
    german = new_page(browser, speed="instant")
    german.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"')")
    german.goto(f"{base_url}/players/{NAME}")
    german.wait_for_selector("main[data-state=ok]")
    assert german.get_by_test_id("player-record").inner_text() == "66 % von 6 Partien zu Ende gespielt"
    for opened in (page, stranger, german):
        opened.context.close()
