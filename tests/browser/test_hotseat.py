"""Hotseat in a real browser: one page holds both seats of a table and plays them both.

Ann creates a two-person hugo table in the lobby and sits at red; on the open table's
page she also sits Bob down at blue, so that this one browser keeps both seats' tokens
(localStorage ``ghostparty:tokens:{id}``). She starts the game and the two play it to
the end by clicking in that one page: after every action the page offers the next
thing to the seat to move, and says which seat that is. The server's replay then shows
that every action of the game, by either seat, came from this page.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from .helpers import act, api_get, expected_board, new_page, offer, shown_board

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 11
#: More UI actions than any game of two people needs.
MAX_ACTIONS = 800
NAMES = {0: "Ann", 1: "Bob"}
COLOURS = {0: "Red", 1: "Blue"}

#: Whose turn the page shows: the seat marked to move, the seats it marks as held
#: ("you"), the status line and the page title.
TURN = """() => {
  const rows = [...document.querySelectorAll('#seats [data-testid=seat]')];
  const moving = rows.filter((row) => row.dataset.toMove === 'true').map((row) => Number(row.dataset.seat));
  const held = rows.filter((row) => row.querySelector('.tag-you')).map((row) => Number(row.dataset.seat));
  const status = document.querySelector('[data-testid=status]').textContent;
  const logged = document.querySelectorAll('[data-testid=log-entry]').length;
  return {moving, held, status, title: document.title, logged};
}"""

#: The server took the action (one more log entry) or refused it (an error toast).
ANSWERED = """(logged) => document.querySelectorAll('[data-testid=log-entry]').length > logged
  || document.querySelector('[data-testid=toast].toast-error') !== null"""


def test_one_page_plays_both_seats_of_a_hotseat_game(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    page.goto(base_url + "/")
    # The lobby: two people playing hugo, Ann sits at red and begins.
    page.get_by_test_id("rules-hugo").check()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("human")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("your-name").fill("Ann")
    assert page.get_by_test_id("sit-at").input_value() == "0"
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    table_id = page.url.rsplit("/", 1)[1]

    # The open table: Bob sits down at blue from the same page, which now holds both seats.
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    assert page.get_by_test_id("start").is_disabled()
    page.get_by_test_id("name-1").fill("Bob")
    page.get_by_test_id("join-1").click()
    page.get_by_test_id("leave-1").wait_for()
    assert page.get_by_test_id("leave-0").is_visible()
    tokens = page.evaluate(f"JSON.parse(localStorage.getItem('ghostparty:tokens:{table_id}'))")
    assert sorted(tokens) == ["0", "1"]
    seats = api_get(base_url, f"/api/tables/{table_id}")["table"]["seats"]
    assert [(s["kind"], s["name"]) for s in seats] == [("human", "Ann"), ("human", "Bob")]
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")

    # Play both seats to the end in this one page, whoever is to move.
    acted: list[int] = []  # the seat the page acted for, one per action
    done: list[str] = []
    for _ in range(MAX_ACTIONS):
        kind = offer(page, timeout=30000)
        if kind == "over":
            break
        turn = page.evaluate(TURN)
        assert len(turn["moving"]) == 1, turn
        seat = turn["moving"][0]
        assert turn["held"] == [0, 1], turn
        # The page names the seat to move (not just "your turn": it holds two).
        assert turn["status"].startswith(f"{COLOURS[seat]} · {NAMES[seat]}: "), turn
        assert turn["title"].startswith("● Your turn"), turn
        row = page.locator(f"#seats [data-testid=seat][data-seat='{seat}']")
        assert "to-move" in (row.get_attribute("class") or "").split()
        acted.append(seat)
        done.append(act(page, kind))
        page.wait_for_function(ANSWERED, arg=turn["logged"], timeout=30000)
        refused = page.locator("[data-testid=toast].toast-error").all_inner_texts()
        assert not refused, f"the server refused {done[-1]!r} for seat {seat}: {refused}"
        assert page.get_by_test_id("log-entry").count() == turn["logged"] + 1
    else:
        pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")

    # Both seats placed all their guests, rolled and moved; the turn went back and forth.
    by_seat = {seat: [a for s, a in zip(acted, done, strict=True) if s == seat] for seat in (0, 1)}
    for seat, actions in by_seat.items():
        assert sum(1 for a in actions if a.startswith("place")) == 6, (seat, actions)
        assert "roll" in actions and any("→" in a for a in actions), (seat, actions)
    assert sum(1 for a, b in pairwise(acted) if a != b) >= 10, acted

    # The server's game: every action, of either seat, is one this page made, in order.
    record = api_get(base_url, f"/api/tables/{table_id}/record")
    assert len(record["actions"]) == len(done)
    steps = api_get(base_url, f"/api/tables/{table_id}/replay")["steps"]
    assert [step["seat"] for step in steps] == acted
    assert {step["seat"] for step in steps} == {0, 1}

    # The end: the result panel agrees with the server.
    answer = api_get(base_url, f"/api/tables/{table_id}")
    table, position = answer["table"], answer["position"]
    assert table["status"] == "over"
    assert page.get_by_test_id("result").is_visible()
    winners = page.get_by_test_id("result-winners").get_attribute("data-winners")
    assert winners == ",".join(str(s) for s in table["winners"])
    rows = page.get_by_test_id("result-row").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.seat), Number(n.dataset.score)])"
    )
    assert sorted(rows) == [[seat, score] for seat, score in enumerate(position["scores"])]
    assert page.get_by_test_id("status").inner_text().startswith("Game over")
    assert page.get_by_test_id("log-entry").count() == len(record["actions"])
    assert shown_board(page) == expected_board(position)
    assert page.locator("[data-testid=board] [data-legal=true]").count() == 0
    assert page.get_by_test_id("roll").count() == 0
    assert not page.errors
    page.context.close()
