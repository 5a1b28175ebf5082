"""The game on a phone: the portrait board, played by touch, and turning the phone.

A phone held upright (390×844 CSS pixels, two device pixels each, touch) gets the tall
board of js/table/layout.js: a gallery square is big enough to tap and nothing sticks out
sideways; the status and the buttons (roll) are docked to the bottom of the window, so
nobody scrolls past the board to roll. Ann creates a table against a bot in the lobby and plays a few turns by
tapping the board (glowing squares to place, roll, a guest then a glowing destination);
it saves a screenshot of the phone (``docs/screenshot-phone.png`` with
``GHOSTPARTY_SCREENSHOTS=1``). Turned sideways
the board is laid out wide again with the same tokens and highlights, and tapping still
plays; turned back, it is tall again. The replay page turns with the phone as well.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    act,
    agrees_with_the_server,
    api_get,
    expected_board,
    new_page,
    offer,
    replay_positions,
    screenshot_path,
    shown_board,
    still,
)

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 7
PHONE = (390, 844)
SIDEWAYS = (844, 390)
#: A phone: two device pixels per CSS pixel, a touch screen, the meta viewport honoured.
DEVICE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: A gallery square, a button must be at least this wide and high to be tapped (CSS
#: pixels): the usual touch target.
FINGER = 44
#: More UI actions than placing and a few moves need.
MAX_ACTIONS = 120

#: The board's geometry as the page shows it, in CSS pixels of the page.
GEOMETRY = """() => {
  const board = document.querySelector('[data-testid=board]');
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return {name: node.dataset.square || node.dataset.location, left: r.left + scrollX, right: r.right + scrollX,
            width: r.width, height: r.height};
  };
  const r = board.getBoundingClientRect();
  return {
    layout: board.dataset.layout,
    width: r.width,
    height: r.height,
    squares: [...board.querySelectorAll('[data-testid=square]')].map(box),
    rooms: [...board.querySelectorAll('[data-testid=room]')].map(box),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}"""

#: What glows now: each clickable target's kind and location, sorted; and the odds' labels.
GLOWING = """() => ({
  legal: [...document.querySelectorAll('[data-testid=board] [data-legal=true]')]
    .map((n) => `${n.dataset.legalKind}:${n.dataset.square || n.dataset.location || n.dataset.loc}`).sort(),
  selected: [...document.querySelectorAll('[data-testid=board] .selected')]
    .map((n) => n.dataset.square || n.dataset.location || n.dataset.loc).sort(),
  odds: [...document.querySelectorAll('[data-testid=odds-label]')].map((n) => n.dataset.location).sort(),
  die: document.querySelector('[data-testid=die]').dataset.face,
})"""


def _api_post(base_url: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _check_portrait(page: Any) -> dict[str, Any]:
    """The tall board fits the phone's width and its squares are big enough to tap."""
    page.wait_for_selector("[data-testid=board][data-layout=portrait]")
    shape = page.evaluate(GEOMETRY)
    assert shape["height"] > shape["width"], shape["layout"]
    assert shape["width"] <= shape["innerWidth"]
    assert len(shape["squares"]) == 40
    for square in shape["squares"]:
        assert square["width"] >= FINGER and square["height"] >= FINGER, square
    for node in shape["squares"] + shape["rooms"]:
        assert node["left"] >= 0 and node["right"] <= shape["innerWidth"], node
    assert shape["scrollWidth"] <= shape["innerWidth"], "the page scrolls sideways"
    return dict(shape)


def _check_landscape(page: Any) -> None:
    page.wait_for_selector("[data-testid=board][data-layout=landscape]")
    shape = page.evaluate(GEOMETRY)
    assert shape["width"] > shape["height"]
    assert shape["scrollWidth"] <= shape["innerWidth"], "the page scrolls sideways"


#: Where the dock and the roll button are; then each square scrolled into view in turn:
#: whether it ends above the dock and is what a finger touching its middle touches.
DOCK = """() => {
  const rect = (node) => node.getBoundingClientRect();
  const dock = rect(document.querySelector('[data-testid=dock]'));
  const roll = rect(document.querySelector('[data-testid=roll]'));
  const buttons = [...document.querySelectorAll('[data-testid=dock] button')].map((b) => rect(b).height);
  const hidden = [];
  for (const node of document.querySelectorAll('[data-testid=board] [data-testid=square]')) {
    node.scrollIntoView({block: 'nearest'});
    const r = rect(node);
    const touched = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.bottom > dock.top + 0.5 || touched?.closest('[data-square]') !== node) {
      hidden.push(`${node.dataset.square} (${Math.round(r.top)}–${Math.round(r.bottom)}: ${touched?.tagName}.${touched?.getAttribute('class')})`);
    }
  }
  document.body.scrollTo(0, 0);
  return {dockTop: dock.top, dockBottom: dock.bottom, rollTop: roll.top, rollBottom: roll.bottom, innerHeight,
          buttons, hidden, pageBottom: rect(document.body).bottom};
}"""


def _check_dock(page: Any) -> None:
    """What to do next is in view without scrolling past the tall board: the roll button
    sits in the dock at the bottom of the window, a strip whose buttons are big enough
    to tap; the page scrolls above it, so that the dock never covers a square."""
    where = page.evaluate(DOCK)
    assert where["dockBottom"] == pytest.approx(where["innerHeight"], abs=1), where
    assert where["dockTop"] > where["innerHeight"] * 0.75, where  # a strip, not a quarter of the phone
    assert where["dockTop"] <= where["rollTop"] < where["rollBottom"] <= where["innerHeight"], where
    assert all(height >= FINGER for height in where["buttons"]), where
    assert where["hidden"] == [], f"squares under the dock: {where['hidden']}"
    assert where["pageBottom"] <= where["dockTop"] + 1, where


#: Scrolled to the board's top: the board's box, the dock's top, and every target on the
#: board (squares, rooms, steps, the guests that may move) with its size.
FITS = """() => {
  const board = document.querySelector('[data-testid=board]');
  board.scrollIntoView({block: 'start'});
  const b = board.getBoundingClientRect();
  const dock = document.querySelector('[data-testid=dock]').getBoundingClientRect();
  const targets = [...board.querySelectorAll('[data-square], [data-location]')]
    .map((n) => { const r = n.getBoundingClientRect();
      return {name: n.dataset.square || n.dataset.location, width: r.width, height: r.height, bottom: r.bottom}; });
  // A glowing guest's touch target is its whole location: a tap near any corner of it, or
  // on its middle, reaches the guest's location (the guest itself, or the place round it).
  const missed = [];
  for (const guest of board.querySelectorAll('[data-testid=guest][data-legal=true]')) {
    const place = board.querySelector(`[data-square="${guest.dataset.loc}"], [data-location="${guest.dataset.loc}"]`);
    const r = (place.querySelector('.square-box, .room-box, .step-box') ?? place).getBoundingClientRect();
    for (const [fx, fy] of [[0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85], [0.5, 0.5]]) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      const node = hit?.closest('[data-square], [data-location], [data-testid=guest]');
      const loc = node && (node.dataset.square || node.dataset.location || node.dataset.loc);
      if (loc !== guest.dataset.loc) missed.push(`${guest.dataset.guest} at ${fx},${fy}: ${loc}`);
    }
  }
  return {top: b.top, bottom: b.bottom, height: b.height, dockTop: dock.top, targets, missed};
}"""

#: Every link, button, field and select on the page smaller than a finger (a radio or a
#: checkbox counts with its label, which takes the tap too).
SMALL_TARGETS = """(finger) => [...document.querySelectorAll('a, button, input, select')].filter((n) => {
  const target = n.matches('input[type=radio], input[type=checkbox]') ? (n.closest('label') ?? n) : n;
  const r = target.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && (r.width < finger || r.height < finger);
}).map((n) => `${n.dataset.testid || n.id || n.className} ${Math.round(n.getBoundingClientRect().width)}x${Math.round(n.getBoundingClientRect().height)}`)"""


def _check_fits(page: Any) -> None:
    """The whole tall board shows above the dock at once (no scrolling to reach its lower
    squares), and every target on it is at least a finger wide and high."""
    fits = page.evaluate(FITS)
    assert fits["top"] == pytest.approx(0, abs=1), fits["top"]
    assert fits["bottom"] <= fits["dockTop"] + 0.5, (fits["height"], fits["dockTop"])
    for node in fits["targets"]:
        assert node["bottom"] <= fits["dockTop"] + 0.5, node
        assert node["width"] >= FINGER and node["height"] >= FINGER, node
    assert not fits["missed"], fits["missed"]
    page.evaluate("document.body.scrollTo(0, 0)")


def _settled(page: Any) -> str:
    """Wait for something to do; it must not be the end (a few turns never finish a game)."""
    kind = offer(page, timeout=30000)
    assert kind != "over"
    return kind


def _agrees_with_the_server(page: Any, base_url: str, table_id: str) -> None:
    """The page ends up showing the server's position (the bot may still be moving)."""
    agrees_with_the_server(page, base_url, table_id)


def _turn(page: Any, size: tuple[int, int], check: Any) -> None:
    """Turn the phone: the board is laid out anew with the same pieces and highlights."""
    kind = _settled(page)
    before = shown_board(page), page.evaluate(GLOWING)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    check(page)
    assert (shown_board(page), page.evaluate(GLOWING)) == before
    assert offer(page) == kind


def test_a_phone_plays_on_the_portrait_board_by_touch(browser: Any, base_url: str, tmp_path: Path) -> None:
    page = new_page(browser, speed="fast", viewport=PHONE, **DEVICE)
    page.goto(base_url + "/")
    page.get_by_test_id("rules-hugo").check()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:greedy")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("your-name").fill("Ann")
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").tap()
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    _check_portrait(page)
    page.get_by_test_id("start").tap()
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
    assert page.get_by_test_id("board").get_attribute("data-rules") == "hugo"

    # Place every guest, roll and move by touch until two guests have moved (one of them
    # chosen by tapping it among several), all on the tall board.
    guests = api_get(base_url, "/api/boards/hugo")["guests_per_player"]["2"]
    done: list[str] = []
    picture: dict[str, Any] = {}  # png, and whether Hugo was out on the gallery

    def chosen(page: Any) -> None:
        """A guest is chosen and its destinations glow: the phone's picture, Hugo out if he ever is."""
        hugo_out = (page.get_by_test_id("hugo").get_attribute("data-loc") or "").startswith("G")
        if picture.get("hugo_out") or ("png" in picture and not hugo_out):
            return
        page.evaluate("document.body.scrollTo(0, 0); window.scrollTo(0, 0)")
        still(page)  # the last flashes have faded
        picture.update(png=page.screenshot(), hugo_out=hugo_out)

    tapped_source = checked_dock = False
    for _ in range(MAX_ACTIONS):
        moves = [action for action in done if "→" in action]
        if len(moves) >= 2 and tapped_source and checked_dock:
            break
        kind = _settled(page)
        if kind == "source":
            tapped_source = True
            _check_fits(page)  # the guests that may move are big enough to tap too
        if kind == "roll" and not checked_dock:
            _check_dock(page)
            _check_fits(page)
            checked_dock = True
        done.append(act(page, kind, chosen, tap=True))
    else:
        pytest.fail(f"no two moves by touch after {MAX_ACTIONS} actions: {done}")
    assert sum(1 for action in done if action.startswith("place")) == guests
    assert "roll" in done
    _check_portrait(page)
    _agrees_with_the_server(page, base_url, table_id)

    # Sideways: the wide board, the same pieces and highlights, and tapping still plays.
    _turn(page, SIDEWAYS, _check_landscape)
    square = page.locator("[data-testid=square]").first.bounding_box()  # sideways: still big enough
    assert square is not None and square["width"] >= FINGER
    done.append(act(page, _settled(page), tap=True))
    # Upright again: tall again, and it still plays.
    _turn(page, PHONE, _check_portrait)
    done.append(act(page, _settled(page), tap=True))
    _agrees_with_the_server(page, base_url, table_id)
    assert not page.errors, page.errors
    page.context.close()
    assert "png" in picture, "no guest was ever chosen"
    screenshot_path("screenshot-phone.png", tmp_path).write_bytes(picture["png"])


def test_the_replay_page_turns_with_the_phone(browser: Any, base_url: str) -> None:
    table = _api_post(
        base_url,
        "/api/tables",
        {"rules": "midnight-party", "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]},
    )
    table_id = table["table"]["id"]
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    replay = api_get(base_url, f"/api/tables/{table_id}/replay")

    page = new_page(browser, speed="off", viewport=PHONE, **DEVICE)
    page.goto(f"{base_url}/r/{table_id}")
    page.wait_for_function("() => Number(document.querySelector('main').dataset.steps) > 0")
    _check_portrait(page)
    assert page.get_by_test_id("board").get_attribute("data-rules") == "midnight-party"
    middle = len(replay["steps"]) // 2
    page.get_by_test_id("replay-slider").evaluate(
        "(node, value) => { node.value = String(value); node.dispatchEvent(new Event('input')); }", middle + 1
    )
    page.wait_for_function(
        "i => document.querySelector('main').dataset.step === String(i) && document.querySelector('main').dataset.busy === 'false'",
        arg=middle,
    )
    expected = expected_board(replay_positions(replay)[middle])
    assert shown_board(page) == expected
    page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    _check_landscape(page)
    assert shown_board(page) == expected
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    _check_portrait(page)
    assert shown_board(page) == expected
    assert not page.errors, page.errors
    page.context.close()


def test_the_result_is_in_view_at_the_end_on_a_phone(browser: Any, base_url: str, tmp_path: Path) -> None:
    """At the end the result panel (who won, everyone's points) is on the screen, above
    the dock, not somewhere below the tall board."""
    table = _api_post(
        base_url,
        "/api/tables",
        {"rules": "hugo", "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]},
    )
    table_id = table["table"]["id"]
    page = new_page(browser, speed="off", viewport=PHONE, **DEVICE)
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'over'", timeout=60000)
    result = page.get_by_test_id("result")
    result.wait_for(state="visible")
    page.wait_for_function(
        """() => {
          const r = document.querySelector('[data-testid=result]').getBoundingClientRect();
          const dock = document.querySelector('[data-testid=dock]').getBoundingClientRect();
          return r.top >= -1 && r.top < dock.top - 100;  // -1: a board of fractional height
        }"""
    )
    box = result.bounding_box()
    dock = page.get_by_test_id("dock").bounding_box()
    assert box is not None and dock is not None
    assert box["y"] >= -1
    winners = page.get_by_test_id("result-winners")
    winner_box = winners.bounding_box()
    assert winner_box is not None and winner_box["y"] + winner_box["height"] <= dock["y"], (winner_box, dock)
    for link in page.locator("[data-testid=result] a").all():
        link_box = link.bounding_box()
        assert link_box is not None and link_box["height"] >= FINGER
    page.screenshot(path=str(screenshot_path("screenshot-phone-result.png", tmp_path)))
    assert not page.errors, page.errors
    page.context.close()


def test_every_target_in_the_lobby_and_at_the_table_is_a_finger_big(browser: Any, base_url: str) -> None:
    """The lobby's links (the top bar's), its radio buttons and every other control, and
    the table page's, are at least 44 px wide and high on a phone."""
    page = new_page(browser, speed="off", viewport=PHONE, **DEVICE)
    page.goto(base_url + "/")
    page.get_by_test_id("leaderboard-link").wait_for()
    page.get_by_test_id("seat-kind-1").wait_for()
    assert page.evaluate(SMALL_TARGETS, FINGER) == []
    table = _api_post(
        base_url, "/api/tables", {"rules": "midnight-party", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    page.goto(f"{base_url}/t/{table['table']['id']}")
    page.get_by_test_id("join-0").wait_for()
    _check_portrait(page)
    assert page.evaluate(SMALL_TARGETS, FINGER) == []
    _check_fits(page)
    assert not page.errors, page.errors
    page.context.close()
