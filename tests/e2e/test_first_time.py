"""What first-time players found (issue 22), each in a real browser.

* A refused limit says how long to wait, from the server's answer (``retry_after`` in the
  error, else ``Retry-After``), wherever one can hit: creating a table, Play now, logging
  in, joining a seat, and the chat; in German too.
* A chat line the limit refuses stays in the box, and the note says the true limit.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from .helpers import new_page

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/e2e/conftest.py).
SERVER_SEED = 22


def _post(base_url: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _table(base_url: str, seats: list[dict[str, Any]], **options: Any) -> str:
    return str(_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats, **options})["table"]["id"])


def _sit(page: Any, base_url: str, table_id: str, seat: int, name: str) -> str:
    """Join a seat through the API and give its token to the page's browser."""
    token = str(_post(base_url, f"/api/tables/{table_id}/join", {"seat": seat, "name": name})["token"])
    held = json.dumps({str(seat): token})
    page.context.add_init_script(f"localStorage.setItem('ghostparty:tokens:{table_id}', {json.dumps(held)});")
    return token


def _refuse(route: Any, wait: int | None, *, header: int | None = None) -> None:
    """Answer as a limit does: 429, ``rate_limited``, the wait in the error and/or the header."""
    error: dict[str, Any] = {"code": "rate_limited", "message": "too many: try again later"}
    if wait is not None:
        error["retry_after"] = wait
    headers = {"Retry-After": str(header if header is not None else wait)} if (header or wait) else {}
    route.fulfill(status=429, content_type="application/json", headers=headers, body=json.dumps({"error": error}))


def _refusing(wait: int | None, *, header: int | None = None, method: str = "POST") -> Any:
    def handler(route: Any) -> None:
        if route.request.method == method:
            _refuse(route, wait, header=header)
        else:
            route.continue_()

    return handler


# ---------------------------------------------------------------- 14: how long to wait


def test_a_refused_limit_says_how_long_to_wait_wherever_it_hits(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    # Creating a table: 4 minutes (the server's create limit is per minute or hour, not "a minute").
    page.route("**/api/tables", _refusing(240))
    page.goto(base_url + "/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("create").click()
    error = page.get_by_test_id("create-error")
    error.wait_for()
    assert "4 minutes" in error.inner_text(), error.inner_text()
    assert "a minute" not in error.inner_text()

    # Play now: 30 seconds.
    page.route("**/api/match", _refusing(30))
    page.get_by_test_id("quick-card").wait_for()
    page.get_by_test_id("qm-name").fill("Ann")
    page.get_by_test_id("play-now").click()
    page.get_by_test_id("qm-error").wait_for()
    assert "30 seconds" in page.get_by_test_id("qm-error").inner_text()

    # Logging in: only the Retry-After header, 65 minutes.
    page.route("**/api/account/login", _refusing(None, header=7500))
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=guest]")
    page.get_by_test_id("login-name").fill("Annika")
    page.get_by_test_id("login-password").fill("castle-at-midnight")
    page.get_by_test_id("login").click()
    page.get_by_test_id("login-error").wait_for()
    text = page.get_by_test_id("login-error").inner_text()
    assert "2 hours 5 minutes" in text, text

    # Registering: 90 seconds are 2 minutes.
    page.route("**/api/account/register", _refusing(90))
    page.get_by_test_id("register-name").fill("Annika")
    page.get_by_test_id("register-password").fill("castle-at-midnight")
    page.get_by_test_id("register-password2").fill("castle-at-midnight")
    page.get_by_test_id("register").click()
    page.get_by_test_id("register-error").wait_for()
    assert "2 minutes" in page.get_by_test_id("register-error").inner_text()

    # Joining a seat at an open table: 12 seconds.
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "human"}])
    page.route("**/join", _refusing(12))
    page.goto(f"{base_url}/t/{table_id}")
    page.get_by_test_id("name-0").fill("Ann")
    page.get_by_test_id("join-0").click()
    toast = page.get_by_test_id("toast").filter(has_text="12 seconds")
    toast.wait_for()
    assert not page.errors, page.errors
    page.context.close()

    # In German: "4 Minuten".
    german = new_page(browser, speed="off")
    german.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
    german.route("**/api/tables", _refusing(240))
    german.goto(base_url + "/")
    german.get_by_test_id("your-name").fill("Ann")
    german.get_by_test_id("create").click()
    german.get_by_test_id("create-error").wait_for()
    assert "4 Minuten" in german.get_by_test_id("create-error").inner_text()
    german.context.close()


# ---------------------------------------------------------------- 16: the chat's limit


def _chat_page(browser: Any, base_url: str) -> tuple[Any, str]:
    """Ann at an open table of two people (a guest), the other seat Bob's (a guest too)."""
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "human"}])
    page = new_page(browser, speed="off")
    _sit(page, base_url, table_id, 0, "Ann")
    _post(base_url, f"/api/tables/{table_id}/join", {"seat": 1, "name": "Bob"})
    return page, table_id


def _say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def test_a_chat_line_the_limit_refuses_stays_in_the_box(browser: Any, base_url: str) -> None:
    page, table_id = _chat_page(browser, base_url)
    page.goto(f"{base_url}/t/{table_id}")
    page.get_by_test_id("chat-input").wait_for()
    # Bursts of five, then one every two seconds: the sixth line at once is refused.
    for n in range(1, 7):
        _say(page, f"line {n}")
    note = page.get_by_test_id("chat-note")
    note.wait_for()
    assert "five lines at once, then one every two seconds" in note.inner_text(), note.inner_text()
    assert page.get_by_test_id("chat-input").input_value() == "line 6"
    page.locator("[data-testid=chat-text]", has_text="line 5").wait_for()
    assert page.locator("[data-testid=chat-text]", has_text="line 6").count() == 0
    # Sent again a little later, it goes through, and the box is empty.
    page.wait_for_timeout(2100)
    page.get_by_test_id("chat-send").click()
    page.locator("[data-testid=chat-text]", has_text="line 6").wait_for()
    assert page.get_by_test_id("chat-input").input_value() == ""
    assert not page.errors, page.errors
    page.context.close()


def test_the_chat_says_how_long_when_the_server_says(browser: Any, base_url: str) -> None:
    page, table_id = _chat_page(browser, base_url)

    def through(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "chat" and str(data.get("text", "")).startswith("wait"):
                error = {"type": "error", "code": "rate_limited", "message": "slow down", "retry_after": 3}
                ws.send(json.dumps(error))
            else:
                server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    page.goto(f"{base_url}/t/{table_id}")
    page.get_by_test_id("chat-input").wait_for()
    _say(page, "wait for me")
    page.get_by_test_id("chat-note").filter(has_text="3 seconds").wait_for()
    assert page.get_by_test_id("chat-input").input_value() == "wait for me"
    page.context.close()
