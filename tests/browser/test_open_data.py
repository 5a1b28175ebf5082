"""Open data in a real browser: a player ticks "replace my name with a pseudonym" on the
account page, the server keeps it, a reload shows it; the lobby's footer leads to the
page about the files, which says there are none yet, lists them (the games' by month,
the puzzles') once exported (their links download), reads in German on a phone, and
says so on a server without any.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .helpers import new_page
from .test_accessibility import _axe, _serious

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 27


def test_a_player_keeps_their_name_out_of_the_open_data(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="instant")
    registered = page.request.post(
        base_url + "/api/account/register", data={"name": "Ottilie", "password": "castle-at-midnight"}
    )
    assert registered.status == 201
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=player]")
    box = page.get_by_test_id("open-data-opt-out")
    box.wait_for()
    assert not box.is_checked()
    box.check()
    saved = page.get_by_test_id("open-data-saved")
    saved.wait_for()
    assert "pseudonym" in saved.inner_text()
    assert page.request.get(base_url + "/api/account/open-data").json() == {"opt_out": True}
    page.reload()
    page.get_by_test_id("open-data-opt-out").wait_for()
    assert page.get_by_test_id("open-data-opt-out").is_checked()
    assert page.get_by_role("checkbox", name="Replace my name with a pseudonym in the published games").is_checked()
    assert not page.errors
    page.context.close()


@pytest.fixture(scope="module")
def open_data_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """A server with an open-data folder that nothing has been exported to yet, and one
    finished game in its database: (its URL, the database's, the folder)."""
    from starlette.testclient import TestClient

    from ghostparty.server.app import create_app

    folder = tmp_path_factory.mktemp("open-data-page")
    db_url = f"sqlite:///{folder}/games.db"
    with TestClient(create_app(db_url, bot_delay=0.0, seed=SERVER_SEED)) as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        table = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "first_player": 0}).json()["table"]
        token = client.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "name": "Gina"}).json()["token"]
        client.post(f"/api/tables/{table['id']}/start", json={"seat": 0, "token": token})
        service, portal = client.app.state.parts.service, client.portal  # type: ignore[attr-defined]
        for _ in range(5000):
            portal.call(service.idle)
            state = portal.call(service.state, table["id"], {0: token})
            if state["table"]["status"] != "playing":
                break
            portal.call(service.act, table["id"], 0, token, state["table"]["version"], state["legal"][-1])
    (folder / "out").mkdir()
    with serving(create_app(db_url, bot_delay=0.0, seed=SERVER_SEED, open_data=folder / "out")) as port:
        yield f"http://127.0.0.1:{port}", db_url, folder / "out"


def _no_missing_text(page: Any) -> None:
    assert "⟦" not in page.locator("body").inner_text()
    assert not page.errors


def test_the_open_data_page_says_what_the_files_are_and_lists_them(
    browser: Any, open_data_site: tuple[str, str, Path]
) -> None:
    """From the lobby's footer to the page: before any export it says there are no files
    yet (not a 404, not JSON); after one it lists the month's files, which download."""
    from ghostparty.server.opendata.export import export
    from ghostparty.server.opendata.puzzles import CSV_FILE, PARQUET_FILE
    from ghostparty.server.puzzles.loading import starter
    from ghostparty.server.tables.store import SqlTables

    base_url, db_url, out = open_data_site
    page = new_page(browser, speed="instant", bypass_csp=True)  # the CSP lets axe-core in
    page.goto(base_url + "/")
    page.get_by_test_id("open-data-link").click()
    page.wait_for_url(base_url + "/open-data")
    page.wait_for_selector("main[data-state=none]")
    assert "No games have been exported yet" in page.get_by_test_id("months-note").inner_text()
    assert page.get_by_role("heading", name="Open game data", level=1).is_visible()
    licence = page.get_by_test_id("licence")
    assert "public domain" in licence.inner_text() and licence.get_by_role("link", name="CC0 1.0").is_visible()
    assert "pq.read_table" in page.get_by_test_id("snippet-pyarrow").inner_text()
    assert "No puzzles have been exported yet" in page.get_by_test_id("puzzles-note").inner_text()
    assert page.get_by_test_id("puzzles-files").is_hidden()
    _no_missing_text(page)

    store = SqlTables(db_url)
    try:
        (month,) = export(store.engine, out)
    finally:
        store.close()
    page.reload()
    page.wait_for_selector("main[data-state=ok]")
    row = page.locator(f"[data-testid=month-row][data-month='{month.month}']")
    links = row.get_by_test_id("file-link")
    assert links.count() == 2
    parquet = row.locator("[data-testid=file-link][data-name$='.parquet']")
    got = page.request.get(base_url + parquet.get_attribute("href"))
    assert got.status == 200 and got.body() == (out / f"ghostparty-games-{month.month}.parquet").read_bytes()
    assert f"ghostparty-games-{month.month}.parquet" in page.get_by_test_id("snippet-pyarrow").inner_text()
    assert page.get_by_test_id("months-note").is_hidden()
    puzzles = page.get_by_test_id("puzzle-data")
    assert f"{len(starter())} puzzles" in puzzles.get_by_test_id("puzzles-note").inner_text()
    shown = puzzles.get_by_test_id("file-link")
    assert [shown.nth(i).get_attribute("data-name") for i in range(shown.count())] == [CSV_FILE, PARQUET_FILE]
    got = page.request.get(base_url + shown.nth(1).get_attribute("href"))
    assert got.status == 200 and got.body() == (out / PARQUET_FILE).read_bytes()
    assert _serious(_axe(page, "the open-data page")) == []
    _no_missing_text(page)
    page.context.close()


def test_the_open_data_page_in_german_on_a_phone(browser: Any, open_data_site: tuple[str, str, Path]) -> None:
    base_url = open_data_site[0]
    page = new_page(browser, speed="instant", viewport=(390, 844), is_mobile=True, has_touch=True)
    page.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
    page.goto(base_url + "/open-data")
    page.wait_for_selector("main[data-state=ok], main[data-state=none]")
    assert page.get_by_role("heading", name="Offene Spieldaten", level=1).is_visible()
    assert "gemeinfrei" in page.get_by_test_id("licence").inner_text()
    assert page.get_by_role("heading", name="Aufgaben", level=2).is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    _no_missing_text(page)
    page.context.close()


def test_a_server_without_open_data_says_so_on_the_page(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="instant")
    answer = page.goto(base_url + "/open-data")
    assert answer is not None and answer.status == 200
    page.wait_for_selector("main[data-state=off]")
    assert "doesn't publish" in page.get_by_test_id("months-note").inner_text()
    _no_missing_text(page)
    page.context.close()
