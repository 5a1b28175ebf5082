"""``/open-data`` for people and for programs: a browser gets the page that says what the
files are, their licence and how to read them (on every server, with files or none);
a program gets the index there as before, and at ``/api/open-data``; the lobby links the
page; the page's Python snippets run on a real export. (The page in a browser:
tests/browser/test_open_data.py.)"""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ghostparty.server.http.routes.opendata import wants_html
from ghostparty.server.opendata.export import FORMAT, export
from ghostparty.server.tables.store import SqlTables
from tests.fixtures.accounts import error, make_client
from tests.server.accounts.test_rated import play_to_the_end

#: What Chromium and Firefox send for a page.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
STATIC = Path(__file__).parents[3] / "src" / "ghostparty" / "web" / "static"


def _guest_game(client: TestClient, name: str) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    table = client.post("/api/tables", json={"rules": "midnight-party", "seats": seats, "first_player": 0}).json()
    token = client.post(f"/api/tables/{table['table']['id']}/join", json={"seat": 0, "name": name}).json()["token"]
    client.post(f"/api/tables/{table['table']['id']}/start", json={"seat": 0, "token": token})
    play_to_the_end(client, table["table"]["id"], {0: token})


def _export(db_url: str, out: Path) -> None:
    store = SqlTables(db_url)
    try:
        export(store.engine, out)
    finally:
        store.close()


@pytest.mark.parametrize(
    ("accept", "page"),
    [
        (BROWSER, True),
        ("text/html", True),
        ("text/html;q=0.5, application/json", False),
        ("application/json", False),
        ("*/*", False),
        ("", False),
        ("application/json;q=0.2, text/html;q=0.9", True),
        ("text/html;q=0", False),
        ("text/html;q=nonsense", False),
    ],
)
def test_a_page_for_whoever_asks_for_html_first(accept: str, page: bool) -> None:
    assert wants_html(accept) is page


def test_a_browser_gets_the_page_and_a_program_the_index(db_url: str, tmp_path: Path) -> None:
    out = tmp_path / "open"
    out.mkdir()
    with make_client(db_url, open_data=out) as client:
        shown = client.get("/open-data", headers={"Accept": BROWSER})
        assert shown.status_code == 200 and shown.headers["content-type"].startswith("text/html")
        assert 'data-testid="open-data"' in shown.text and "/open-data.js" in shown.text
        assert "creativecommons.org/publicdomain/zero/1.0" in shown.text
        assert "Accept" in shown.headers["vary"].split(", ")
        nothing_yet = {"format": FORMAT, "generated": None, "months": [], "puzzles": None}  # not a 404: none yet
        for accept in ("*/*", "application/json"):
            answer = client.get("/open-data", headers={"Accept": accept})
            assert answer.status_code == 200 and answer.json() == nothing_yet
            assert "Accept" in answer.headers["vary"].split(", ")
        assert client.get("/api/open-data").json() == nothing_yet
        _guest_game(client, "Gina")
        _export(db_url, out)
        index = client.get("/api/open-data").json()
        assert [month["month"] for month in index["months"]] and index["format"] == FORMAT
        assert client.get("/open-data").json() == index  # the machine route, as it was
        lobby = client.get("/", headers={"Accept": BROWSER}).text
        assert re.search(r'<a href="/open-data"[^>]*data-testid="open-data-link"', lobby)
    with make_client(db_url) as plain:  # a server that publishes nothing: the page says so
        assert plain.get("/open-data", headers={"Accept": BROWSER}).status_code == 200
        assert error(plain.get("/api/open-data")) == "no_open_data"
        assert error(plain.get("/open-data")) == "no_open_data"


def _snippets() -> list[str]:
    page = (STATIC / "open-data.html").read_text(encoding="utf-8")
    found = re.findall(r'<pre class="snippet"[^>]*><code>(.*?)</code></pre>', page, re.S)
    assert len(found) == 2
    return [html.unescape(code) for code in found]


def test_the_pages_snippets_read_an_export(db_url: str, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'ghostparty[data]')")
    pytest.importorskip("duckdb", reason="DuckDB is not installed (pip install 'ghostparty[data]')")
    out = tmp_path / "open"
    with make_client(db_url) as client:
        _guest_game(client, "Gina")
        _guest_game(client, "Hal")
    _export(db_url, out)
    (month,) = sorted(path.name[17:24] for path in out.glob("ghostparty-games-*.parquet"))
    printed = io.StringIO()
    here = Path.cwd()
    os.chdir(out)
    try:
        with contextlib.redirect_stdout(printed):
            for code in _snippets():  # the page puts the newest month for YYYY-MM
                exec(compile(code.replace("YYYY-MM", month), "snippet", "exec"), {})
    finally:
        os.chdir(here)
    text = printed.getvalue()
    assert text.startswith("2 games\n") and "midnight-party" in text and "first_player_won" in text
