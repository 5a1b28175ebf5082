"""What the browser tests share: a fresh page, the HTTP API, and playing by clicking.

The game page's hooks (data-testid, data-legal, data-busy) are documented at the top
of src/ghostparty/web/static/js/pages/table.js.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import serving

#: Records the page's WebSockets so that a test can drop the connection.
WATCH_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""

#: What the page offers now: "over", "roll", "pass", or the kind of the first glowing
#: target ("place", "source", "dest"); null while it animates or waits for others.
NEXT = """() => {
  const main = document.querySelector('main');
  if (main.dataset.busy !== 'false') return null;
  if (main.dataset.status === 'over' && !document.querySelector('[data-testid=result]').hidden) return 'over';
  if (document.querySelector('[data-testid=roll]:not([disabled])')) return 'roll';
  const target = document.querySelector('[data-testid=board] [data-legal=true]');
  if (target) return target.dataset.legalKind;
  if (document.querySelector('[data-testid=pass]:not([disabled])')) return 'pass';
  return null;
}"""


#: Set to 1 to refresh the README's screenshots in docs/ (else they go to a temporary
#: folder, so a test run leaves the tracked files alone).
SCREENSHOTS_ENV = "GHOSTPARTY_SCREENSHOTS"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def screenshot_path(name: str, tmp_path: Path) -> Path:
    """Where a test saves screenshot ``name``: ``docs/`` with ``GHOSTPARTY_SCREENSHOTS=1``,
    else ``tmp_path``."""
    return (DOCS if os.environ.get(SCREENSHOTS_ENV) == "1" else tmp_path) / name


def new_page(
    browser: Any, *, speed: str, lang: str | None = "en", viewport: tuple[int, int] = (1280, 860), **device: Any
) -> Any:
    """A page in a fresh context (its own localStorage), animation speed preset.

    ``lang``: the language every load starts in (``None``: the page's own choice, kept
    across loads, as a browser does). ``device`` goes to the context as it is:
    ``device_scale_factor``, ``is_mobile``, ``has_touch`` for a phone. ``page.errors``
    collects the page's uncaught errors. The app's service worker is blocked unless
    ``service_workers="allow"`` is given: the tests of the worker itself
    (test_installable.py, test_push.py) allow it; the others test the pages, not the
    worker's copies of them, and would each make it keep the whole app once.
    """
    device.setdefault("service_workers", "block")
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, locale="en-US", **device)
    script = f"localStorage.setItem('ghostparty:speed', {json.dumps(json.dumps(speed))});"
    if lang is not None:
        script += f"localStorage.setItem('ghostparty:lang', {json.dumps(json.dumps(lang))});"
    context.add_init_script(script + WATCH_SOCKETS)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


#: The password of the accounts the browser tests register.
PASSWORD = "castle-at-midnight"


def person(browser: Any, base_url: str, name: str, **options: Any) -> Any:
    """A fresh page logged in as a new account ``name``, registered through the log-in
    page as a person does (``options`` go to :func:`new_page`)."""
    page = new_page(browser, speed="instant", **options)
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=guest]")
    page.get_by_test_id("register-name").fill(name)
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register-password2").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.wait_for_selector("main[data-state=player]")
    return page


def api_get(base_url: str, path: str) -> Any:
    with urllib.request.urlopen(base_url + path, timeout=10) as response:
        return json.loads(response.read())


def api_post(base_url: str, path: str, body: Any) -> Any:
    """``body`` posted as JSON, as a guest (no cookie); the answer's JSON."""
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def offer(page: Any, timeout: float = 20000) -> str:
    """Wait until the page offers something to do (see :data:`NEXT`); fail if it never does."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        return str(page.wait_for_function(NEXT, timeout=timeout).json_value())
    except PlaywrightTimeoutError:
        status = page.get_by_test_id("status").inner_text()
        pytest.fail(f"the page offered nothing to do: status {status!r}, errors {page.errors}")


def target(page: Any, kind: str) -> Any:
    """The first clickable target of a kind (every glowing guest takes the taps on its disc)."""
    return page.locator(f"[data-testid=board] [data-legal=true][data-legal-kind={kind}]").first


def act(page: Any, kind: str, chosen: Callable[[Any], None] | None = None, *, tap: bool = False) -> str:
    """Do the first thing the page offers, by clicking as a person would; the action's name.

    ``chosen(page)`` is called once a guest is chosen and its destinations glow. With
    ``tap`` the page is touched instead of clicked (a context with ``has_touch``).
    """

    def press(node: Any) -> None:
        if tap:
            node.tap()
        else:
            node.click()

    if kind == "roll":
        press(page.get_by_test_id("roll"))
        return "roll"
    if kind == "pass":
        press(page.get_by_test_id("pass"))
        return "pass"
    if kind == "place":
        square = target(page, "place")
        name = str(square.get_attribute("data-square"))
        press(square)
        return f"place {name}"
    if kind == "source":
        guest = target(page, "source")
        source = str(guest.get_attribute("data-loc"))
        press(guest)
        page.wait_for_selector("[data-testid=board] [data-legal=true][data-legal-kind=dest]")
    else:  # the only guest that may move was chosen for us
        selected = page.locator("[data-testid=board] .selected").first
        source = str(selected.get_attribute("data-square") or selected.get_attribute("data-location"))
    if chosen is not None:
        chosen(page)
    destination = target(page, "dest")
    where = destination.get_attribute("data-square") or destination.get_attribute("data-location")
    press(destination)
    return f"{source} → {where}"


def shown_board(page: Any) -> dict[str, Any]:
    """The guests (seat -> sorted locations) and Hugo as the page shows them."""
    return dict(
        page.evaluate(
            """() => {
              const guests = {};
              for (const node of document.querySelectorAll('[data-testid=guest]')) {
                (guests[node.dataset.seat] ??= []).push(node.dataset.loc);
              }
              for (const list of Object.values(guests)) list.sort();
              return {guests, hugo: document.querySelector('[data-testid=hugo]').dataset.loc};
            }"""
        )
    )


def expected_board(position: dict[str, Any]) -> dict[str, Any]:
    """:func:`shown_board` of the server's position."""
    guests = {str(seat): sorted(locs) for seat, locs in enumerate(position["guests"]) if locs}
    return {"guests": guests, "hugo": position["hugo"]}


def replay_positions(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The position after each action of a replay (docs/PROTOCOL.md): the record's start
    with every step's ``changes`` laid over it in turn."""
    positions = []
    position = dict(replay["record"]["start"])
    for step in replay["steps"]:
        position = {**position, **step["changes"]}
        positions.append(position)
    return positions


#: Nothing on the board is still moving or glowing for a moment: no flash, no rolling
#: die, no token appearing, no banner (what a screenshot waits for).
STILL = """() => document.querySelector('main').dataset.busy === 'false'
  && !document.querySelector('[data-testid=board] :is(.flash, .flash-red, .flash-green, .flash-capture, .rolling, .appear)')
  && document.querySelector('[data-testid=banner]').hidden"""


def still(page: Any) -> None:
    """Wait until the board has settled (see :data:`STILL`)."""
    page.wait_for_function(STILL)


#: Whether the page shows the guests and Hugo of the position given as the argument.
SHOWS = """(expected) => {
  if (document.querySelector('main').dataset.busy !== 'false') return false;
  const guests = {};
  for (const node of document.querySelectorAll('[data-testid=guest]')) (guests[node.dataset.seat] ??= []).push(node.dataset.loc);
  for (const list of Object.values(guests)) list.sort();
  const hugo = document.querySelector('[data-testid=hugo]').dataset.loc;
  return JSON.stringify({guests, hugo}) === JSON.stringify(expected);
}"""


def agrees_with_the_server(page: Any, base_url: str, table_id: str, timeout: float = 10.0) -> None:
    """Wait until the page shows the server's position (which bots may still change:
    the position is asked for again whenever the page has not caught up with it)."""
    import time

    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    deadline = time.monotonic() + timeout
    while True:
        expected = expected_board(api_get(base_url, f"/api/tables/{table_id}")["position"])
        expected["guests"] = {seat: locs for seat, locs in sorted(expected["guests"].items())}
        try:
            page.wait_for_function(SHOWS, arg=expected, timeout=2000)
            return
        except PlaywrightTimeoutError:
            assert time.monotonic() < deadline, f"the page shows {shown_board(page)}, the server {expected}"


def create_against_random(page: Any, base_url: str, name: str, *, turn_seconds: str = "") -> str:
    """Create, from the lobby, a two-seat hugo table: ``name`` first, against ``random``
    (``turn_seconds`` as the lobby offers it, "" for no limit); its id, the page on it."""
    page.goto(base_url + "/")
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:random")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("turn-seconds").select_option(turn_seconds)
    page.get_by_test_id("your-name").fill(name)
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    return str(page.url.rsplit("/", 1)[1])


class Clock:
    """A server's clock that a test moves (``now += timedelta(…)``)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@contextlib.contextmanager
def clocked_server(folder: Path, clock: Clock, seed: int) -> Iterator[str]:
    """A server on ``clock`` (bots a second apart, to be followed): its address."""
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    from ghostparty.server.app import create_app

    with serving(create_app(f"sqlite:///{folder / 'games.db'}", bot_delay=1.0, seed=seed, clock=clock)) as port:
        yield f"http://127.0.0.1:{port}"
