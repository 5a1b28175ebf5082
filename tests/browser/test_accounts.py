"""Accounts, a rated game, the profile and the leaderboard in a real browser (issue 13).

One story, as a person would go through it: a guest sits at an open table, registers
(the seat becomes the account's), creates a rated table against a random bot from the
lobby and plays it to the end by clicking, sees the rating on the profile and their row
on the leaderboard, logs out, and logs back in from a second browser, where the game is
in the history with a working replay link. It saves screenshots of the profile and the
leaderboard (``docs/screenshot-profile.png`` and ``docs/screenshot-leaderboard.png`` with
``GHOSTPARTY_SCREENSHOTS=1``).

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import act, api_get, new_page, offer, screenshot_path

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 13
#: More UI actions than any game of one person against one bot needs.
MAX_ACTIONS = 600
NAME = "Annika"
PASSWORD = "castle-at-midnight"
I18N = Path(__file__).resolve().parents[2] / "src" / "ghostparty" / "web" / "static" / "i18n"


def _state(page: Any, state: str) -> None:
    page.wait_for_selector(f"main[data-state={state}]")


def _rating_shown(entry: dict[str, Any]) -> str:
    return f"{round(entry['rating'])}{'?' if entry['provisional'] else ''}"


def _guest_sits_at_an_open_table(page: Any, base_url: str) -> str:
    """A guest creates a table of two people and sits at the first seat: its id."""
    page.goto(base_url + "/")
    page.get_by_test_id("login-link").wait_for()
    assert page.get_by_test_id("rated").is_hidden()  # rated tables are for accounts
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("human")
    page.get_by_test_id("your-name").fill("Guest")
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    return str(page.url.rsplit("/", 1)[1])


def _register(page: Any, base_url: str) -> None:
    page.goto(base_url + "/login")
    _state(page, "guest")
    assert "seat this browser holds" in page.get_by_test_id("register-view").inner_text()
    # A name the server refuses, then two passwords that differ: clear texts, no account.
    page.get_by_test_id("register-name").fill("9lives")
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register-password2").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id("register-error").wait_for()
    assert "starting with a letter" in page.get_by_test_id("register-error").inner_text()
    page.get_by_test_id("register-name").fill(NAME)
    page.get_by_test_id("register-password2").fill(PASSWORD + "!")
    page.get_by_test_id("register").click()
    page.get_by_test_id("register-error").filter(has_text="differ").wait_for()
    page.get_by_test_id("register-password2").fill(PASSWORD)
    page.get_by_test_id("register").click()
    _state(page, "player")
    assert page.get_by_test_id("account-name").inner_text() == NAME
    assert page.get_by_test_id("account-link").inner_text() == NAME
    # The session cookie is HttpOnly: the page cannot read it.
    assert "gp_session" not in page.evaluate("document.cookie")


def _create_rated_table(page: Any, base_url: str) -> str:
    page.goto(base_url + "/")
    page.get_by_test_id("account-link").wait_for()
    name = page.get_by_test_id("your-name")
    assert name.input_value() == NAME and name.get_attribute("readonly") is not None
    page.get_by_test_id("rules-hugo").check()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:random")
    page.get_by_test_id("first-player").select_option("0")
    page.get_by_test_id("rated").check()
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    table_id = str(page.url.rsplit("/", 1)[1])
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    assert api_get(base_url, f"/api/tables/{table_id}")["table"]["rated"] is True
    return table_id


def _play_to_the_end(page: Any) -> None:
    for _ in range(MAX_ACTIONS):
        kind = offer(page)
        if kind == "over":
            return
        act(page, kind)
    pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")


def test_register_play_rated_see_the_rating_and_find_the_history_again(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    page = new_page(browser, speed="off")
    guest_table = _guest_sits_at_an_open_table(page, base_url)
    _register(page, base_url)

    # The profile before any game: no rating yet, the guest seat is now the account's.
    page.get_by_test_id("profile-link").click()
    _state(page, "ok")
    assert page.get_by_test_id("profile").get_attribute("data-own") == "true"
    assert page.get_by_test_id("rating-card").count() == 0
    page.locator(f"[data-testid=own-table][data-table='{guest_table}']").wait_for()

    # A rated table against a random bot: the seats link to the players' profiles.
    table_id = _create_rated_table(page, base_url)
    seat = page.locator("#open-seats [data-testid=seat][data-seat='0'] [data-testid=player-link]")
    assert seat.get_attribute("data-player") == NAME
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('main').dataset.status !== 'open'")
    bot = page.locator("#seats [data-testid=seat][data-seat='1'] [data-testid=player-link]")
    assert bot.get_attribute("href") == "/players/random-bot"
    _play_to_the_end(page)
    page.get_by_test_id("result-leaderboard").wait_for()

    # The profile: the server's rating, shown as it should be, with one point of history
    # and the game at the top of the last games, with its change and its replay.
    profile = api_get(base_url, f"/api/players/{NAME}")
    hugo = profile["ratings"]["hugo"]
    game = profile["games"][0]
    assert game["table"] == table_id and game["rated"] is True and game["rating_change"] != 0
    page.goto(f"{base_url}/players/{NAME}")
    _state(page, "ok")
    card = page.locator("[data-testid=rating-card][data-rules=hugo]")
    assert card.get_by_test_id("rating").inner_text() == _rating_shown(hugo)
    assert card.get_by_test_id("rating").get_attribute("data-provisional") == str(hugo["provisional"]).lower()
    assert card.get_by_test_id("stat-games").inner_text() == "1"
    assert card.get_by_test_id("stat-wins").inner_text() == ("1" if game["won"] else "0")
    assert card.get_by_test_id("rating-chart").get_attribute("data-points") == "1"
    row = page.locator(f"[data-testid=game-row][data-table='{table_id}']")
    assert row.get_attribute("data-rated") == "true"
    change = round(game["rating_change"])
    assert re.search(rf"(\+{change}|−{-change})(?!\d)", row.inner_text())
    assert row.get_by_test_id("replay-link").get_attribute("href") == f"/r/{table_id}"

    # Not ranked before the minimum of rated games: one's row below the ranks, unranked,
    # and the page says why.
    page.get_by_test_id("leaderboard-link").click()
    _state(page, "ok")
    min_games = api_get(base_url, "/api/leaderboard/hugo")["min_games"]
    assert page.locator(f"[data-testid=leaderboard-row][data-name={NAME}]").count() == 0
    assert page.get_by_test_id("you-row").count() == 1
    assert page.get_by_test_id("you-row").locator("td").first.inner_text() == "–"
    assert f"at least {min_games} rated games" in page.get_by_test_id("you-note").inner_text()

    # The games up to the minimum, each rated once: the rating moves with each of them.
    shown = [_rating_shown(hugo)]
    for _ in range(min_games - 1):
        _create_rated_table(page, base_url)
        page.get_by_test_id("start").click()
        _play_to_the_end(page)
        shown.append(_rating_shown(api_get(base_url, f"/api/players/{NAME}")["ratings"]["hugo"]))
    hugo = api_get(base_url, f"/api/players/{NAME}")["ratings"]["hugo"]
    assert hugo["rated_games"] == min_games and len(hugo["history"]) == min_games
    page.goto(f"{base_url}/players/{NAME}")
    _state(page, "ok")
    assert card.get_by_test_id("rating").inner_text() == shown[-1]
    assert card.get_by_test_id("stat-games").inner_text() == str(min_games)
    assert card.get_by_test_id("rating-chart").get_attribute("data-points") == str(min_games)
    assert page.get_by_test_id("game-row").count() == min_games
    page.screenshot(path=str(screenshot_path("screenshot-profile.png", tmp_path)), full_page=True)

    # The leaderboard: the viewer's row highlighted, the bot's row marked.
    page.get_by_test_id("leaderboard-link").click()
    _state(page, "ok")
    mine = page.locator("[data-testid=leaderboard-row][data-you=true], [data-testid=you-row]")
    assert mine.count() == 1
    assert mine.get_attribute("data-name") == NAME
    assert NAME in mine.inner_text() and shown[-1] in mine.inner_text()
    board = api_get(base_url, "/api/leaderboard/hugo")
    bots = [r["name"] for r in board["rows"] if r["kind"] == "bot"]
    assert "random-bot" in bots
    for name in bots:
        assert page.locator(f"[data-testid=leaderboard-row][data-name='{name}'] .tag-bot").count() == 1
    assert page.get_by_test_id("leaderboard-row").count() == len(board["rows"])
    page.screenshot(path=str(screenshot_path("screenshot-leaderboard.png", tmp_path)), full_page=True)

    # Log out: the account page says so and the top bar offers to log in again.
    page.goto(base_url + "/login")
    _state(page, "player")
    page.get_by_test_id("logout").click()
    _state(page, "guest")
    page.get_by_test_id("login-link").wait_for()
    assert not page.errors
    page.context.close()

    # A second browser: a wrong password is refused without saying more, the right one
    # comes back to the profile, where the game is in the history.
    other = new_page(browser, speed="off")
    other.goto(f"{base_url}/login?next=/players/{NAME}")
    _state(other, "guest")
    other.get_by_test_id("login-name").fill(NAME)
    other.get_by_test_id("login-password").fill("not-the-password")
    other.get_by_test_id("login").click()
    other.get_by_test_id("login-error").wait_for()
    assert other.get_by_test_id("login-error").inner_text() == "Wrong name or password."
    other.get_by_test_id("login-password").fill(PASSWORD)
    with other.expect_navigation(url=f"**/players/{NAME}"):
        other.get_by_test_id("login").click()
    _state(other, "ok")
    assert other.get_by_test_id("account-link").inner_text() == NAME
    other.locator(f"[data-testid=game-row][data-table='{table_id}'] [data-testid=replay-link]").click()
    other.wait_for_url(f"**/r/{table_id}")
    other.get_by_test_id("replay-player").wait_for()
    assert not other.errors
    other.context.close()


def _german_page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="de-DE")
    context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def _english_left(page: Any) -> list[str]:
    """This page's texts (of the keys account., player., leaderboard.) still in English."""
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    de = json.loads((I18N / "de.json").read_text(encoding="utf-8"))
    ours = {en[k] for k in en if k.split(".")[0] in ("account", "player", "leaderboard") and en[k] != de[k]}
    shown = page.locator("body").inner_text()
    return sorted(text for text in ours if len(text) > 4 and "{" not in text and text in shown)


def test_the_pages_in_german_a_bot_and_an_unknown_player(browser: Any, base_url: str) -> None:
    page = _german_page(browser)
    page.goto(base_url + "/players/nobody-here")
    _state(page, "missing")
    assert page.get_by_test_id("profile-status").inner_text() == "Einen Spieler namens „nobody-here“ gibt es nicht."
    page.get_by_test_id("login-link").wait_for()
    assert page.get_by_test_id("login-link").inner_text() == "Anmelden"
    page.goto(base_url + "/players/random-bot")
    _state(page, "ok")
    assert page.get_by_test_id("bot-tag").inner_text() == "Bot"
    for path, state in (("/login", "guest"), ("/leaderboard?rules=midnight-party", "ok"), ("/", None)):
        page.goto(base_url + path)
        if state:
            _state(page, state)
        page.get_by_test_id("leaderboard-link").wait_for()
        assert "⟦" not in page.locator("body").inner_text()
        assert _english_left(page) == []
        if path.startswith("/leaderboard"):
            assert page.get_by_test_id("tab-midnight-party").get_attribute("aria-selected") == "true"
            assert page.get_by_test_id("you-login").inner_text() == "Anmelden, um deinen Platz zu sehen."
    assert not page.errors
    page.context.close()


def test_a_guest_at_a_rated_table_is_led_to_log_in(browser: Any, base_url: str) -> None:
    body = json.dumps({"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "rated": True})
    request = urllib.request.Request(
        base_url + "/api/tables", data=body.encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table_id = json.loads(response.read())["table"]["id"]
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/t/{table_id}")
    link = page.get_by_test_id("login-to-sit-0")
    link.wait_for()
    assert link.get_attribute("href") == f"/login?next=%2Ft%2F{table_id}"
    assert page.get_by_test_id("join-0").count() == 0
    assert not page.errors
    page.context.close()


def test_the_language_chosen_on_one_device_follows_the_account_to_another(browser: Any, base_url: str) -> None:
    phone = new_page(browser, speed="off", lang=None)
    answer = phone.request.post(f"{base_url}/api/account/register", data={"name": "Polyglot", "password": PASSWORD})
    assert answer.status == 201, answer.text()
    phone.goto(base_url + "/")
    phone.get_by_test_id("account-link").wait_for()
    assert phone.evaluate("document.documentElement.lang") == "en"
    with phone.expect_navigation():
        phone.get_by_test_id("language").select_option("de")
    phone.get_by_test_id("account-link").wait_for()
    assert phone.evaluate("document.documentElement.lang") == "de"
    assert phone.request.get(f"{base_url}/api/account/language").json() == {"language": "de"}

    laptop = new_page(browser, speed="off", lang=None)  # another browser: its own storage, English by its settings
    laptop.goto(base_url + "/")
    laptop.get_by_test_id("login-link").wait_for()
    assert laptop.evaluate("document.documentElement.lang") == "en"
    answer = laptop.request.post(f"{base_url}/api/account/login", data={"name": "Polyglot", "password": PASSWORD})
    assert answer.status == 200, answer.text()
    laptop.goto(base_url + "/")
    laptop.wait_for_function("() => document.documentElement.lang === 'de'")
    laptop.get_by_test_id("account-link").wait_for()
    assert laptop.get_by_test_id("leaderboard-link").inner_text() == "Rangliste"
    for page in (phone, laptop):
        assert not page.errors, page.errors
        page.context.close()
