"""Page weight: the client's files compressed and kept by the browser, a compact replay.

The pages name their scripts and styles by versioned URLs (/assets/{version}/…), sent
gzip-compressed with ``Cache-Control: immutable``: a second visit fetches only the page
itself (revalidated by its ETag) and the API, no script, style or translation again.

Skipped with a message when Playwright or /usr/bin/chromium is missing (the HTTP checks
need only the server); never runs ``playwright install``.
"""

from __future__ import annotations

import gzip
import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from .helpers import api_get, new_page

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 17


def _get(base_url: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(base_url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_pages_name_versioned_files_that_are_compressed_and_kept(base_url: str) -> None:
    status, headers, body = _get(base_url, "/", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["cache-control"] == "no-cache" and headers["etag"]
    html = gzip.decompress(body).decode() if headers.get("content-encoding") == "gzip" else body.decode()
    scripts = re.findall(r'src="(/assets/([0-9a-f]{12})/js/pages/lobby\.js)"', html)
    assert scripts, html[:400]
    url, version = scripts[0]
    assert "/static/" not in html  # every link of the page is versioned
    # The page again with its ETag: 304, nothing sent.
    again = _get(base_url, "/", **{"If-None-Match": headers["etag"]})
    assert again[0] == 304 and again[2] == b""

    status, headers, body = _get(base_url, url, **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["content-encoding"] == "gzip"
    plain = _get(base_url, "/static/js/pages/lobby.js")
    assert gzip.decompress(body) == plain[2]
    assert len(body) < len(plain[2]) / 2
    # The unversioned URL and a stale version are revalidated each time.
    assert plain[1]["cache-control"] == "no-cache"
    stale = _get(base_url, url.replace(version, "0" * 12))
    assert stale[0] == 200 and stale[1]["cache-control"] == "no-cache"
    assert _get(base_url, f"/assets/{version}/js/nothing.js")[0] == 404
    # The boards are cacheable for a while; the JSON API is compressed too.
    status, headers, body = _get(base_url, "/api/boards/hugo", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["cache-control"] == "public, max-age=300"
    assert headers["content-encoding"] == "gzip" and json.loads(gzip.decompress(body))["palette"]


def test_a_replay_is_small(base_url: str) -> None:
    seats = [{"kind": "bot", "bot": "greedy"} for _ in range(4)]
    table_id = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats})["table"]["id"]
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    status, headers, body = _get(base_url, f"/api/tables/{table_id}/replay", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    text = gzip.decompress(body)
    replay = json.loads(text)
    actions = len(replay["record"]["actions"])
    assert all(set(step) == {"seat", "events", "changes"} for step in replay["steps"])
    print(f"\nreplay of {actions} actions: {len(text)} bytes of JSON, {len(body)} gzipped")
    # The old format sent every position whole (about 1.3 kB an action with 4 players).
    assert len(text) / actions < 400
    assert len(body) / actions < 60


def api_post(base_url: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_second_visit_fetches_no_script_or_style_again(browser: Any, base_url: str) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
    page = new_page(browser, speed="off")
    page.goto(base_url + "/")
    page.get_by_test_id("create").wait_for()
    page.wait_for_load_state("networkidle")
    first = page.evaluate(
        "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/assets/')).map((e) => e.name)"
    )
    assert any(name.endswith(".js") for name in first) and any(name.endswith(".css") for name in first)
    assert any("/i18n/en.json" in name for name in first)
    page.goto(base_url + "/?again")
    page.get_by_test_id("create").wait_for()
    page.wait_for_load_state("networkidle")
    fetched = page.evaluate(
        """() => performance.getEntriesByType('resource')
             .filter((e) => e.name.includes('/assets/') && e.transferSize > 0).map((e) => e.name)"""
    )
    assert fetched == [], f"fetched again: {fetched}"
    assert not page.errors
    page.context.close()
