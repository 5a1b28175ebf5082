"""The lobby and the game page in a real browser: Debian's Chromium driven by Playwright.

One test creates a table through the lobby, sits down against a bot and plays the
person's seat by clicking through a whole game (roll, a guest then a glowing
destination, a glowing square to place); it saves a screenshot of the game under way
(``docs/screenshot-game.png`` with ``GHOSTPARTY_SCREENSHOTS=1``). Another seats two people from two browsers, with a
spectator and a bot, and checks that every page sees every action live, also after a
reload and a dropped connection.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    act,
    agrees_with_the_server,
    api_get,
    api_post,
    expected_board,
    new_page,
    offer,
    screenshot_path,
    shown_board,
    still,
)

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 5
#: More UI actions than any game of one person against one bot needs.
MAX_ACTIONS = 600


# ---------------------------------------------------------------- playing through the page


def _interesting(page: Any) -> bool:
    """A moment worth a screenshot: Hugo on the gallery, a guest hidden and one caught."""
    return bool(
        page.evaluate(
            """() => {
              const hugo = document.querySelector('[data-testid=hugo]').dataset.loc || '';
              const locs = [...document.querySelectorAll('[data-testid=guest]')].map((g) => g.dataset.loc);
              return hugo.startsWith('G') && locs.some((l) => l.startsWith('R:')) && locs.some((l) => l.startsWith('C'))
                && document.querySelector('[data-legal-kind=dest]') !== null;
            }"""
        )
    )


# ---------------------------------------------------------------- tests


def test_a_whole_game_against_a_bot_by_clicking(browser: Any, base_url: str, tmp_path: Path) -> None:
    page = new_page(browser, speed="fast")
    page.goto(base_url + "/")
    # The lobby: two players, hugo, a greedy bot in the second seat, Ann begins.
    page.get_by_test_id("rules-hugo").check()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:greedy")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("your-name").fill("Ann")
    assert page.get_by_test_id("sit-at").input_value() == "0"
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    table_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate("localStorage.getItem('ghostparty:name')") == '"Ann"'

    # The open table: our seat, the bot, the share link; then the start.
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    assert page.get_by_test_id("share-link").input_value() == f"{base_url}/t/{table_id}"
    assert "Ann" in page.locator("[data-testid=seat][data-seat='0']").inner_text()
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('main').dataset.status !== 'open'")
    assert page.get_by_test_id("board").get_attribute("data-rules") == "hugo"
    assert page.locator("[data-testid=square]").count() == 40
    assert page.locator("[data-testid=room]").count() == 9

    # Play Ann's seat to the end, always the first thing on offer.
    shot = screenshot_path("screenshot-game.png", tmp_path)
    done: list[str] = []
    shots: list[bool] = []

    def chosen(page: Any) -> None:
        if not shots and _interesting(page):
            still(page)  # the last flashes have faded
            page.screenshot(path=str(shot))
            shots.append(True)

    for _ in range(MAX_ACTIONS):
        kind = offer(page)
        if kind == "over":
            break
        done.append(act(page, kind, chosen))
    else:
        pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")
    if not shots:
        page.screenshot(path=str(shot))
    assert shot.stat().st_size > 0
    assert sum(1 for action in done if action.startswith("place")) == 6
    assert "roll" in done

    # The result panel agrees with the server, and so does the log.
    answer = api_get(base_url, f"/api/tables/{table_id}")
    table, position = answer["table"], answer["position"]
    assert table["status"] == "over" and position["phase"] == "over"
    result = page.get_by_test_id("result")
    assert result.is_visible()
    winners = page.get_by_test_id("result-winners").get_attribute("data-winners")
    assert winners == ",".join(str(s) for s in table["winners"])
    rows = page.get_by_test_id("result-row").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.seat), Number(n.dataset.score)])"
    )
    assert sorted(rows) == [[seat, score] for seat, score in enumerate(position["scores"])]
    assert page.get_by_test_id("replay-link").get_attribute("href") == f"/r/{table_id}"
    assert page.get_by_test_id("status").inner_text().startswith("Game over")
    record = api_get(base_url, f"/api/tables/{table_id}/record")
    assert page.get_by_test_id("log-entry").count() == len(record["actions"])
    assert "game over" in page.get_by_test_id("log-entry").last.inner_text().lower()
    assert shown_board(page) == expected_board(position)
    assert page.get_by_test_id("roll").count() == 0
    assert not page.errors
    page.context.close()


def test_two_people_and_a_spectator_see_each_other_live(browser: Any, base_url: str) -> None:
    ann = new_page(browser, speed="off")
    ann.goto(base_url + "/")
    ann.get_by_test_id("players").select_option("3")
    ann.get_by_test_id("seat-kind-1").select_option("human")
    ann.get_by_test_id("seat-kind-2").select_option("bot:random")
    ann.get_by_test_id("first-player").select_option("0")
    ann.get_by_test_id("your-name").fill("Ann")
    with ann.expect_navigation(url="**/t/*"):
        ann.get_by_test_id("create").click()
    ann.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    link = ann.get_by_test_id("share-link").input_value()
    assert ann.get_by_test_id("start").is_disabled()  # Bob's seat is still empty

    # Bob follows the shared link from another browser and sits down; Ann sees him at once.
    bob = new_page(browser, speed="off", viewport=(390, 844))  # a phone
    bob.goto(link)
    bob.get_by_test_id("name-1").fill("Bob")
    bob.get_by_test_id("join-1").click()
    bob.get_by_test_id("leave-1").wait_for()
    ann.locator("[data-testid=seat][data-seat='1']", has_text="Bob").wait_for()
    assert bob.evaluate(
        f"Object.keys(JSON.parse(localStorage.getItem('ghostparty:tokens:{link.rsplit('/', 1)[1]}')))"
    ) == ["1"]

    # Someone with the link and no seat watches.
    guest = new_page(browser, speed="off")
    guest.goto(link)
    guest.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    ann.get_by_test_id("start").click()
    for page in (ann, bob, guest):
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")

    # Placement: each person's square shows up on every page; the bot's too.
    assert offer(ann) == "place"
    assert bob.locator("[data-testid=board] [data-legal=true]").count() == 0
    assert "Ann" in bob.get_by_test_id("status").inner_text()
    square = act(ann, "place").split()[1]
    for page in (bob, guest):
        page.locator(f"[data-testid=guest][data-guest='0:{square}']").wait_for()
    assert offer(bob) == "place"
    square = act(bob, "place").split()[1]
    for page in (ann, guest):
        page.locator(f"[data-testid=guest][data-guest='1:{square}']").wait_for()
    for page in (ann, bob, guest):
        page.locator("[data-testid=guest][data-seat='2']").first.wait_for()

    # Bob reloads his page and keeps his seat and the board.
    bob.reload()
    bob.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    assert bob.locator("[data-testid=seat][data-seat='1'] .tag-you").count() == 1
    assert bob.get_by_test_id("guest").count() == 3

    # Ann's connection drops: the page says so, comes back and carries on.
    ann.evaluate("window.__sockets.at(-1).close()")
    ann.get_by_test_id("connection").wait_for(state="visible")
    ann.get_by_test_id("connection").wait_for(state="hidden")

    # Play on, each person on their own page, until both have rolled and moved once.
    table_id = link.rsplit("/", 1)[1]
    rolled: set[str] = set()
    moved: set[str] = set()
    people = {"0": ("ann", ann), "1": ("bob", bob)}
    for _ in range(200):
        if rolled >= {"ann", "bob"} and moved >= {"ann", "bob"}:
            break
        mover = str(api_get(base_url, f"/api/tables/{table_id}")["table"]["to_move"])
        if mover not in people:  # the bot's turn: wait until the pages show the next one
            ann.wait_for_function(
                "s => document.querySelector('#seats [data-to-move=true]')?.dataset.seat !== s", arg=mover
            )
            continue
        name, page = people[mover]
        action = act(page, offer(page))
        if action == "roll":
            rolled.add(name)
        elif "→" in action:
            moved.add(name)
        page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")  # the server took it
    else:
        pytest.fail(f"rolled {rolled}, moved {moved}")

    # Every page ends up showing the server's position and the same log.
    for page in (ann, bob, guest):
        page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    for page in (ann, bob, guest):
        agrees_with_the_server(page, base_url, table_id)
    answer = api_get(base_url, f"/api/tables/{table_id}")
    for page in (ann, bob, guest):  # every page shows every action, told alike
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=log-entry]').length === n", arg=answer["table"]["version"] - 3
        )
    logs = [page.get_by_test_id("log-entry").all_inner_texts() for page in (ann, bob, guest)]
    assert logs[0] == logs[1] == logs[2]
    told = ann.locator("[data-testid=log-entry] .log-text").all_inner_texts()
    assert any(text.startswith(("Ann ", "Bob ")) for text in told), told  # the players by their names
    assert len(logs[0]) == answer["table"]["version"] - 3  # every action; not the two joins and the start
    assert guest.locator("[data-testid=board] [data-legal=true]").count() == 0
    assert guest.get_by_test_id("roll").count() == 0
    for page in (ann, bob, guest):
        assert not page.errors
        page.context.close()


def test_a_name_half_typed_stays_when_someone_else_sits_down(browser: Any, base_url: str) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    table_id = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats})["table"]["id"]
    cleo = new_page(browser, speed="off")
    cleo.goto(f"{base_url}/t/{table_id}")
    cleo.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    field = cleo.get_by_test_id("name-2")
    field.fill("")
    field.press_sequentially("Cleopa")
    # Dan sits down elsewhere while Cleo types: the seat list is drawn again.
    api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Dan"})
    cleo.locator("[data-testid=seat][data-seat='0']", has_text="Dan").wait_for()
    assert cleo.get_by_test_id("name-2").input_value() == "Cleopa"
    assert cleo.evaluate("document.activeElement.dataset.testid") == "name-2"
    cleo.keyboard.type("tra")  # the caret is where she left it
    cleo.get_by_test_id("join-2").click()
    cleo.locator("[data-testid=seat][data-seat='2']", has_text="Cleopatra").wait_for()
    assert api_get(base_url, f"/api/tables/{table_id}")["table"]["seats"][2]["name"] == "Cleopatra"
    assert cleo.errors == []
    cleo.context.close()
