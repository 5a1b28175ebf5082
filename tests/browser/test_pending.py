"""Midnight Party's pending points: during a round nothing is scored yet (RULES.md §8.5),
so the seats and the score sheet show what the guests on the cellar steps and in the
shielded rooms will score when it ends, marked as pending — on the replay page and on
the game page, both as the server works them out (docs/PROTOCOL.md ``pending``).

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from ghostparty.rules import Game

from .helpers import api_get, new_page, replay_positions

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 19


def _pending(position: dict[str, Any], board: dict[str, Any], seat: int) -> int:
    """§8.5 by hand: a step's value, a red room's +1, a green room's −3."""
    shields = {room["location"]: room["shield"] for room in board["rooms"]}
    values = {step["location"]: step["value"] for step in board["steps"]}
    total = 0
    for loc in position["guests"][seat]:
        if loc in values:
            total += values[loc]
        elif shields.get(loc) in ("red", "green"):
            total += board["shield_points"][shields[loc]]
    return total


def test_pending_points_during_a_midnight_party_round(browser: Any, base_url: str) -> None:
    body = {"rules": "midnight-party", "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}
    request = urllib.request.Request(
        base_url + "/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table_id = json.loads(response.read())["table"]["id"]
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    replay = api_get(base_url, f"/api/tables/{table_id}/replay")
    board = api_get(base_url, "/api/boards/midnight-party")
    assert board["scores_during_play"] is False and board["end_score"] is None
    positions = replay_positions(replay)
    # The first moment of round 1 when both seats have points pending, one of them on a step.
    index = next(
        i
        for i, p in enumerate(positions)
        if p["phase"] != "over"
        and all(_pending(p, board, s) for s in (0, 1))
        and any(loc.startswith("C") for locs in p["guests"] for loc in locs)
    )
    position = positions[index]
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/r/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    page.get_by_test_id("replay-slider").evaluate(
        "(node, v) => { node.value = String(v); node.dispatchEvent(new Event('input')); }", index + 1
    )
    page.wait_for_function(f"() => document.querySelector('main').dataset.step === '{index}'")
    shown = page.get_by_test_id("pending").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.seat), Number(n.dataset.points), n.textContent])"
    )
    expected = [_pending(position, board, seat) for seat in (0, 1)]
    assert [[seat, points] for seat, points, _ in shown] == [[0, expected[0]], [1, expected[1]]]
    assert all("pending" in text for _, _, text in shown)
    # The scores themselves are still the totals of the rounds already scored.
    scores = page.get_by_test_id("score").evaluate_all("nodes => nodes.map(n => Number(n.textContent))")
    assert scores == position["scores"]
    assert page.get_by_test_id("sheet-pending").count() == 0  # the replay page has no score sheet
    # At the end nothing is pending any more.
    page.get_by_test_id("replay-last").click()
    page.wait_for_function(f"() => document.querySelector('main').dataset.step === '{len(positions) - 1}'")
    assert page.get_by_test_id("pending").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def _post(base_url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_the_game_page_shows_the_servers_pending_points_and_the_sheets_row(browser: Any, base_url: str) -> None:
    body = {"rules": "midnight-party", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    table_id = _post(base_url, "/api/tables", body)["table"]["id"]
    token = _post(base_url, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Ann"})["token"]
    _post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    board = api_get(base_url, "/api/boards/midnight-party")
    # Ann plays her first choice each turn until both seats have points pending, one of
    # them on a step; then the game waits for her, and a spectator's page looks.
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no position with points pending for both seats"
        answer = api_get(base_url, f"/api/tables/{table_id}")
        table, position = answer["table"], answer["position"]
        assert table["status"] == "playing", "the round ended before both seats had points pending"
        if table["to_move"] != 0:
            time.sleep(0.05)
            continue
        on_step = any(loc.startswith("C") for locs in position["guests"] for loc in locs)
        if position["phase"] != "roll" and on_step and all(_pending(position, board, s) for s in (0, 1)):
            break
        action = {"roll": True} if position["phase"] == "roll" else Game.from_position(position).legal_actions()[0]
        body = {"seat": 0, "token": token, "version": table["version"], "action": action}
        _post(base_url, f"/api/tables/{table_id}/actions", body)
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
    page.get_by_test_id("sheet-pending").wait_for()
    expected = [_pending(position, board, seat) for seat in (0, 1)]
    shown = page.get_by_test_id("pending").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.seat), Number(n.dataset.points)])"
    )
    assert shown == [[0, expected[0]], [1, expected[1]]]
    row = page.get_by_test_id("sheet-pending").locator("td").all_inner_texts()
    assert row[1:] == [f"+{v}" if v > 0 else str(v) for v in expected]
    assert page.errors == []
