"""Meeting strangers in a real browser (issue 14): "Play now", the table's chat, and
"Play again".

Two browser contexts (one English, one German) press "Play now" for two players
without bots and land at one table; they chat (a line and a quick phrase, each seen by
the other in their language; a line that looks like HTML stays text), play the game to
the end each on their own page, both press "Play again" and land at the next table of
the series; the replay shows the chat. Another test keeps a spectator's line off a
player's page (and answers a flood politely, and mutes); a third shows a turn-based
game's deadline as a date and time and counts "your move" in the lobby's title. Every
wait is on what a page shows, never a sleep.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import act, api_get, create_against_random, new_page, offer, screenshot_path, still

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 14
#: More actions than a game of two people needs.
MAX_ACTIONS = 800
SETTLED = "() => document.querySelector('main').dataset.busy === 'false'"


def api_post(base_url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def german(page: Any) -> Any:
    """The page's context reads German from its next page load on."""
    page.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
    return page


def play_now(page: Any, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.get_by_test_id("quick-card").wait_for()
    page.get_by_test_id("qm-rules").select_option("hugo")
    page.get_by_test_id("qm-players").select_option("2")
    page.get_by_test_id("qm-bots").select_option("")  # never: wait for people
    page.get_by_test_id("qm-name").fill(name)
    page.get_by_test_id("play-now").click()


def held(page: Any, table_id: str) -> list[str]:
    return list(
        page.evaluate(f"Object.keys(JSON.parse(localStorage.getItem('ghostparty:tokens:{table_id}') ?? '{{}}'))")
    )


def chat_texts(page: Any) -> list[str]:
    return list(page.get_by_test_id("chat-text").all_text_contents())


def play_to_the_end(base_url: str, table_id: str, pages: dict[str, Any]) -> None:
    """Each seat's page plays its turns (the first thing on offer) until the game is over."""
    for _ in range(MAX_ACTIONS):
        table = api_get(base_url, f"/api/tables/{table_id}")["table"]
        if table["status"] == "over":
            break
        page = pages[str(table["to_move"])]
        kind = offer(page)
        if kind == "over":
            break
        act(page, kind)
        page.wait_for_function(SETTLED)  # the server took it (its update came back)
    else:
        pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")
    for page in pages.values():
        assert offer(page) == "over"


def test_strangers_meet_chat_play_and_play_again(browser: Any, base_url: str, tmp_path: Path) -> None:
    ann = new_page(browser, speed="off")
    bob = german(new_page(browser, speed="off"))

    # Ann asks for a game and waits: the waiting panel counts, and Bob's lobby sees her.
    play_now(ann, base_url, "Ann")
    waiting = ann.get_by_test_id("qm-waiting")
    waiting.wait_for()
    assert ann.get_by_test_id("qm-leave").is_visible()
    ann.wait_for_function("() => Number(document.querySelector('[data-testid=qm-elapsed]').dataset.seconds) >= 0")
    bob.goto(base_url + "/")
    bob.locator("[data-testid=qm-count][data-rules=hugo][data-players='2'][data-count='1']").wait_for()
    assert bob.get_by_test_id("play-now").inner_text() == "Sofort spielen"

    # Bob asks for the same: both land at one table, which has started.
    play_now(bob, base_url, "Bob")
    for page in (ann, bob):
        page.wait_for_url("**/t/*")
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
    table_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == table_id
    seats = {held(ann, table_id)[0]: ann, held(bob, table_id)[0]: bob}
    assert sorted(seats) == ["0", "1"]
    table = api_get(base_url, f"/api/tables/{table_id}")["table"]
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob"]

    # They chat: a line (which looks like HTML, and stays text) and a quick phrase, each
    # in the reader's language.
    line = "Hi <b>Bob</b> & good luck"
    ann.get_by_test_id("chat-input").fill(line)
    ann.get_by_test_id("chat-send").click()
    bob.locator("[data-testid=chat-text]", has_text="Hi <b>Bob</b>").wait_for()
    assert chat_texts(bob) == [line]
    assert bob.locator("[data-testid=chat-lines] b").count() == 0
    assert bob.get_by_test_id("chat-name").first.inner_text() == "Ann"
    bob.locator("[data-testid=chat-phrase][data-phrase=good_luck]").click()
    ann.locator("[data-testid=chat-text][data-phrase=good_luck]").wait_for()
    assert chat_texts(ann) == [line, "Good luck!"]
    assert ann.get_by_test_id("chat-empty").count() == 0  # "no messages yet" went with the first
    bob.locator("[data-testid=chat-text][data-phrase=good_luck]").wait_for()
    assert chat_texts(bob) == [line, "Viel Glück!"]

    # The chat is kept: a reload shows it again.
    bob.reload()
    bob.locator("[data-testid=chat-text][data-phrase=good_luck]").wait_for()
    assert chat_texts(bob) == [line, "Viel Glück!"]
    still(ann)
    shot = screenshot_path("screenshot-chat.png", tmp_path)  # docs/ with GHOSTPARTY_SCREENSHOTS=1
    ann.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0

    play_to_the_end(base_url, table_id, seats)

    # Both play again: Ann first (Bob's page shows her yes), then Bob; both pages go to
    # the next table, game 2 of the series, with the same seats.
    ann.get_by_test_id("play-again").click()
    ann.get_by_test_id("again-note").wait_for()
    bob.locator("[data-testid=again-seat][data-again=true]", has_text="Ann").wait_for()
    assert ann.get_by_test_id("again-now").is_visible()
    bob.get_by_test_id("play-again").click()
    for page in (ann, bob):
        page.wait_for_url(lambda url: table_id not in url)
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
    next_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == next_id
    assert ann.get_by_test_id("table-name").get_attribute("data-series-index") == "2"
    assert "Spiel 2" in bob.get_by_test_id("table-name").inner_text()
    for seat, page in seats.items():
        assert held(page, next_id) == [seat]
        page.locator(f"[data-testid=seat][data-seat='{seat}'] .tag-you").wait_for()
    series = api_get(base_url, f"/api/tables/{next_id}/series")
    assert [g["table"] for g in series["games"]] == [table_id, next_id]

    # The first game's replay shows its chat.
    ann.goto(f"{base_url}/r/{table_id}")
    ann.locator("[data-testid=chat] [data-testid=chat-text][data-phrase=good_luck]").wait_for()
    assert chat_texts(ann) == [line, "Good luck!"]
    for page in (ann, bob):
        assert not page.errors
        page.context.close()


def test_a_spectators_line_stays_off_the_players_page(browser: Any, base_url: str) -> None:
    created = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}]})
    table_id = created["table"]["id"]
    ann_seat = api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Ann"})
    bob_seat = api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 1, "name": "Bob"})
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": ann_seat["token"]})

    ann = new_page(browser, speed="off")
    tokens = json.dumps({"0": ann_seat["token"]})
    ann.context.add_init_script(f"localStorage.setItem('ghostparty:tokens:{table_id}', {json.dumps(tokens)});")
    ann.goto(f"{base_url}/t/{table_id}")
    watcher = new_page(browser, speed="off")
    watcher.goto(f"{base_url}/t/{table_id}")
    for page in (ann, watcher):
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
        page.get_by_test_id("chat").wait_for()

    # The spectator writes in the spectators' tab (the players' tab is read-only for them).
    assert watcher.get_by_test_id("chat-input").is_hidden()
    watcher.get_by_test_id("chat-tab-spectators").click()
    watcher.get_by_test_id("chat-input").fill("psst, she should hide in the chapel")
    watcher.get_by_test_id("chat-send").click()
    watcher.locator("[data-testid=chat-line][data-channel=spectators]").wait_for()

    # A player's line after it reaches the spectator; the spectator's never reaches Ann.
    ann.get_by_test_id("chat-input").fill("hello everyone")
    ann.get_by_test_id("chat-send").click()
    ann.locator("[data-testid=chat-text]", has_text="hello everyone").wait_for()
    watcher.get_by_test_id("chat-tab-players").click()
    watcher.locator("[data-testid=chat-text]", has_text="hello everyone").wait_for()
    assert ann.get_by_test_id("chat-tab-spectators").is_hidden()
    assert "psst" not in ann.get_by_test_id("chat").inner_text()
    ann.reload()  # nor after a reload (the kept chat, as the player may see it)
    ann.locator("[data-testid=chat-text]", has_text="hello everyone").wait_for()
    assert "psst" not in ann.get_by_test_id("chat").inner_text()

    # Writing too fast is answered politely, in the chat.
    watcher.get_by_test_id("chat-tab-spectators").click()
    for i in range(7):
        watcher.get_by_test_id("chat-input").fill(f"line {i}")
        watcher.get_by_test_id("chat-send").click()
    watcher.get_by_test_id("chat-note").wait_for()
    assert "two seconds" in watcher.get_by_test_id("chat-note").inner_text()

    # Muting Ann hides her lines on the spectator's page only.
    watcher.get_by_test_id("chat-tab-players").click()
    watcher.get_by_test_id("chat-line").first.hover()
    watcher.get_by_test_id("chat-mute").first.click()
    watcher.locator("[data-testid=chat-line][data-muted=true]").wait_for()
    assert "hello everyone" not in watcher.get_by_test_id("chat").inner_text()
    assert bob_seat["seat"] == 1
    for page in (ann, watcher):
        assert not page.errors
        page.context.close()


def test_a_turn_based_game_shows_its_deadline_and_the_lobby_counts_your_moves(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    table_id = create_against_random(page, base_url, "Ann", turn_seconds="86400")  # a day a move
    page.get_by_test_id("start").click()
    assert offer(page) == "place"

    # The deadline is a date and time a day away, not a countdown in seconds.
    table = api_get(base_url, f"/api/tables/{table_id}")["table"]
    assert table["turn_based"] and table["turn_seconds"] == 86400
    timer = page.get_by_test_id("turn-timer")
    assert timer.get_attribute("data-turn-based") == "true"
    assert timer.get_attribute("data-deadline") == table["deadline"]
    assert "moves by" in timer.inner_text() and "s left" not in timer.inner_text()
    assert page.get_by_test_id("notify-button").is_visible()  # the permission is asked from a button

    # The lobby lists the game as "your move" and counts it in the title.
    page.goto(base_url + "/")
    page.locator(f"[data-testid=my-game][data-table='{table_id}'][data-your-move=true]").wait_for()
    page.wait_for_function("() => document.title.startsWith('(1) ')")
    assert not page.errors
    page.context.close()


def test_leaving_the_page_leaves_the_queue(browser: Any, base_url: str) -> None:
    cleo = new_page(browser, speed="off")
    play_now(cleo, base_url, "Cleo")
    cleo.get_by_test_id("qm-waiting").wait_for()
    watcher = new_page(browser, speed="off")
    watcher.goto(base_url + "/")
    watcher.locator("[data-testid=qm-count][data-players='2'][data-count='1']").wait_for()
    cleo.goto(base_url + "/replay")  # the page goes: its beacon leaves the queue
    # Within the lobby's next refreshes, well before the queue forgets a page that stopped
    # asking (20 s): the beacon did it.
    watcher.locator("[data-testid=qm-counts] .empty").wait_for(timeout=15000)
    assert api_get(base_url, "/api/match")["waiting"] == []
    for page in (cleo, watcher):
        assert not page.errors
        page.context.close()
