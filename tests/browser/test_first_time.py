"""What first-time players found (issue 22, items 14–21), each in a real browser.

* A refused limit says how long to wait, from the server's answer (``retry_after`` in the
  error, else ``Retry-After``), wherever one can hit: creating a table, Play now, logging
  in, joining a seat, and the chat; in German too.
* A chat line the limit refuses stays in the box, and the note says the true limit.
* The lobby's lists are patched in place: the keyboard's focus stays on a row's link
  through every refresh, in "Your games" too, where one's own table is never "Watch".
* Screen readers hear which game a lobby row's button is for, and what a seat's numbers are.
* R rolls (never while typing in the chat), and the focus goes to the decision when it
  becomes this page's.
* Guests are marked as guests beside their names: the seats, the chat and the result.
* The leaderboard marks the bots as anchors and says what a negative rating means.
* A rated game's result panel shows how each player's rating moved.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .helpers import NEXT, act, api_get, api_post, new_page, offer

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 22
MAX_ACTIONS = 600
BUSY_DONE = "() => document.querySelector('main').dataset.busy === 'false'"


def _table(base_url: str, seats: list[dict[str, Any]], **options: Any) -> str:
    return str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats, **options})["table"]["id"])


def _sit(page: Any, base_url: str, table_id: str, seat: int, name: str) -> str:
    """Join a seat through the API and give its token to the page's browser."""
    token = str(api_post(base_url, f"/api/tables/{table_id}/join", {"seat": seat, "name": name})["token"])
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


def test_a_table_asked_for_while_the_lobby_is_starting_is_made_once_it_is_ready(browser: Any, base_url: str) -> None:
    """Create table clicked before the page has its language (the file held back) neither
    reloads the page as a plain form nor is lost: the request goes out once it is ready."""
    page = new_page(browser, speed="off")
    page.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
    held: list[Any] = []

    def hold(route: Any) -> None:  # Playwright needs a Python function here, not a builtin
        held.append(route)

    page.route("**/i18n/de.json", hold)
    page.route("**/api/tables", _refusing(240))
    page.goto(base_url + "/")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("create").click()
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the language file was not asked for"
    assert "?" not in page.url, f"the form was sent as a plain form: {page.url}"
    for route in held:
        route.continue_()
    page.get_by_test_id("create-error").wait_for()
    assert "4 Minuten" in page.get_by_test_id("create-error").inner_text()
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- 16: the chat's limit


def _chat_page(browser: Any, base_url: str) -> tuple[Any, str]:
    """Ann at an open table of two people (a guest), the other seat Bob's (a guest too)."""
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "human"}])
    page = new_page(browser, speed="off")
    _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 1, "name": "Bob"})
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
    # A guest's line is marked as a guest's.
    first = page.get_by_test_id("chat-line").first
    assert first.get_by_test_id("guest-tag").count() == 1
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


# ---------------------------------------------------------------- 15, 18, 21: the lobby


FOCUSED = (
    "() => ({mark: document.activeElement?.__mark ?? null, testid: document.activeElement?.dataset?.testid ?? null})"
)


def test_the_lobby_keeps_the_focus_and_names_its_buttons(browser: Any, base_url: str) -> None:
    open_id = _table(base_url, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page = new_page(browser, speed="off")
    page.clock.install()
    _sit(page, base_url, open_id, 0, "Ann")
    page.goto(base_url + "/")

    # Each row's link says which game it is for.
    row = page.locator(f"[data-testid=open-table][data-table='{open_id}']")
    row.wait_for()
    link = row.get_by_test_id("open-table-link")
    name = link.get_attribute("aria-label") or ""
    assert name.startswith("Join: Hugo, 3 players") and "free seat" in name and "greedy bot" in name, name
    assert open_id in name
    assert page.get_by_role("link", name=re.compile(rf"^Join: .*{open_id}")).count() == 1

    # The focus on a row's link stays through a refresh that changes the row.
    link.focus()
    page.evaluate("document.activeElement.__mark = 'open'")
    api_post(base_url, f"/api/tables/{open_id}/join", {"seat": 1, "name": "Bob"})
    page.clock.run_for(5500)
    page.wait_for_function(
        "id => !document.querySelector(`[data-testid=open-table][data-table='${id}']`)?.textContent.includes('2 free')",
        arg=open_id,
    )
    assert page.evaluate(FOCUSED) == {"mark": "open", "testid": "open-table-link"}

    # "Your games": one's own open table is gone back to, not watched; its link keeps
    # the focus through its own refresh (every 15 s).
    mine = page.locator(f"[data-testid=my-game][data-table='{open_id}']")
    mine.wait_for()
    own = mine.get_by_test_id("my-game-link")
    assert own.inner_text() == "Go to the table"
    assert "Watch" not in (own.get_attribute("aria-label") or "")
    assert open_id in (own.get_attribute("aria-label") or "")
    own.focus()
    page.evaluate("document.activeElement.__mark = 'mine'")
    for _ in range(4):
        page.clock.run_for(5500)
    assert page.evaluate(FOCUSED) == {"mark": "mine", "testid": "my-game-link"}
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- 19: the keyboard


FOCUS_ON = "() => document.activeElement?.closest('[data-testid=board]') ? 'board' : (document.activeElement?.dataset?.testid ?? null)"


def test_r_rolls_and_the_focus_goes_to_the_decision(browser: Any, base_url: str) -> None:
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], first_player=0)
    page = new_page(browser, speed="off")
    token = _sit(page, base_url, table_id, 0, "Ann")
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    # The start comes from elsewhere while the focus is on the rules button: once the
    # decision (placing) is this page's, the focus is on the board.
    page.get_by_test_id("rules-help-button").focus()
    assert page.evaluate(FOCUS_ON) == "rules-help-button"
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    assert offer(page) == "place"
    page.wait_for_function(f"() => ({FOCUS_ON})() === 'board'")

    for _ in range(MAX_ACTIONS):
        kind = offer(page)
        if kind == "roll":
            break
        act(page, kind)
    else:
        pytest.fail("never a roll")
    roll = page.get_by_test_id("roll")
    assert roll.get_attribute("aria-keyshortcuts") == "R"
    # Typing an r in the chat doesn't roll.
    page.get_by_test_id("chat-input").click()
    page.keyboard.type("rr")
    page.wait_for_timeout(300)
    assert page.get_by_test_id("chat-input").input_value() == "rr"
    assert page.evaluate(NEXT) == "roll"
    # R from anywhere else does.
    rolls = len([a for a in api_get(base_url, f"/api/tables/{table_id}/record")["actions"] if "roll" in a])
    page.get_by_test_id("rules-help-button").focus()
    assert page.evaluate(FOCUS_ON) == "rules-help-button"
    page.keyboard.press("r")
    page.wait_for_function(
        "n => [...document.querySelectorAll('[data-testid=log-entry]')].filter((e) => /rolls/.test(e.textContent)).length > n",
        arg=rolls,
    )
    assert len([a for a in api_get(base_url, f"/api/tables/{table_id}/record")["actions"] if "roll" in a]) > rolls
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- 18, 7: seats read aloud


def test_seats_read_their_numbers_and_guests_are_marked(browser: Any, base_url: str) -> None:
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], first_player=0)
    page = new_page(browser, speed="off")
    token = _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page.goto(f"{base_url}/t/{table_id}")
    for _ in range(MAX_ACTIONS):
        kind = offer(page)
        if kind == "roll":
            break
        act(page, kind)
    seats = page.locator("#seats")
    spoken = seats.aria_snapshot()
    rows = [line for line in spoken.splitlines() if line.strip().startswith("- listitem")]
    assert len(rows) == 2, spoken
    for line in rows:
        assert re.search(r"\d+ spooky points", line), spoken
        assert "Guests: " in line and "on the gallery" in line, spoken
    ann = page.locator("#seats [data-testid=seat][data-seat='0']")
    assert ann.get_by_test_id("guest-tag").inner_text() == "guest"
    assert page.locator("#seats [data-testid=seat][data-seat='1'] [data-testid=guest-tag]").count() == 0
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- 17: the leaderboard


def test_the_leaderboard_marks_the_anchors_and_explains_a_negative_rating(browser: Any, base_url: str) -> None:
    board = api_get(base_url, "/api/leaderboard/midnight-party")
    bots = [row for row in board["rows"] if row["kind"] == "bot"]
    assert bots and any(row["rating"] < 0 for row in bots), "the anchors of midnight-party have a negative one"
    page = new_page(browser, speed="off")
    page.goto(base_url + "/leaderboard?rules=midnight-party")
    page.wait_for_selector("main[data-state=ok]")
    note = page.get_by_test_id("leaderboard-note").inner_text()
    assert "anchors" in note and "greedy = 1500" in note, note
    for bot in bots:
        row = page.locator(f"[data-testid=leaderboard-row][data-name='{bot['name']}']")
        assert row.get_by_test_id("anchor-tag").inner_text() == "bot · anchor"
        cells = row.locator("td")
        games = cells.nth(3).inner_text()
        assert games.startswith("–") and "0" not in games and "anchor" in games, games  # no "0 games"
        rating = cells.nth(2)
        if bot["rating"] < 0:
            assert rating.get_attribute("aria-describedby") == "negative-note"
            assert rating.inner_text().startswith("−")
    negative = page.get_by_test_id("negative-note")
    assert negative.is_visible() and "below zero" in negative.inner_text()
    # Hugo's anchors are all above zero: no such note there.
    page.get_by_test_id("tab-hugo").click()
    page.wait_for_selector("main[data-state=ok][data-rules=hugo]")
    assert page.get_by_test_id("negative-note").is_hidden()
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- 21: the rating change


def test_a_rated_result_shows_the_rating_change(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=guest]")
    page.get_by_test_id("register-name").fill("Rosalind")
    page.get_by_test_id("register-password").fill("castle-at-midnight")
    page.get_by_test_id("register-password2").fill("castle-at-midnight")
    page.get_by_test_id("register").click()
    page.wait_for_selector("main[data-state=player]")
    page.goto(base_url + "/")
    page.get_by_test_id("account-link").wait_for()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:random")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("rated").check()
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    table_id = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    for _ in range(MAX_ACTIONS):
        kind = offer(page)
        if kind == "over":
            break
        act(page, kind)
    else:
        pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")
    change = page.locator("[data-testid=result-row][data-seat='0'] [data-testid=rating-change]")
    change.wait_for()
    profile = api_get(base_url, "/api/players/Rosalind")
    game = next(g for g in profile["games"] if g["table"] == table_id)
    assert int(change.get_attribute("data-change") or "x") == game["rating_change"]
    shown = change.inner_text()
    number = abs(game["rating_change"])
    assert shown.startswith("rating ") and str(number) in shown, shown
    assert f"now {profile['ratings']['hugo']['rating']}" in shown
    # The bot's row has no change (an anchor), and no guest sat here.
    assert page.locator("[data-testid=result-row][data-seat='1'] [data-testid=rating-change]").count() == 0
    assert page.locator("[data-testid=result] [data-testid=guest-tag]").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def test_the_result_marks_a_guest(browser: Any, base_url: str) -> None:
    # Gus never comes to the table: after 5 s a bot plays for Gus, to the end.
    table_id = _table(
        base_url,
        [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        first_player=0,
        turn_seconds=5,
        absent_bot="greedy",
    )
    token = str(api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Gus"})["token"])
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'over'", timeout=60000)
    page.get_by_test_id("result").wait_for()
    gus = page.locator("[data-testid=result-row][data-seat='0']")
    assert gus.get_by_test_id("guest-tag").count() == 1
    assert page.locator("[data-testid=result-row][data-seat='1'] [data-testid=guest-tag]").count() == 0
    page.context.close()
