"""The Bot API end to end (issue 27): ``ghostparty connect`` in a subprocess plays a
bot account's seat of a rated game against a person in the browser, to its end.

The person registers on the page, makes a rated two-seat table, invites the bot account
from the seat list (it shows with its BOT tag once its program accepted), starts and plays
by clicking; the program plays through the ndjson stream and the table WebSocket, and
stops after the game (``--games 1``). The game is rated for both, the bot on its own
leaderboard.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import act, api_get, new_page, offer

SERVER_SEED = 27
PASSWORD = "correct horse battery"
ROOT = Path(__file__).resolve().parents[2]


def _post(base_url: str, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[dict[str, Any], str]:
    request = urllib.request.Request(
        base_url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read()), response.headers.get("set-cookie", "")


def _bot_account(base_url: str, name: str) -> str:
    """A bot account made over HTTP, as its owner would; its bot:play token."""
    answer, cookie = _post(base_url, "/api/account/register", {"name": name, "password": PASSWORD}, {})
    session = {"Cookie": cookie.split(";", 1)[0], "X-CSRF-Token": answer["csrf"]}
    made, _ = _post(base_url, "/api/account/bot", {"irreversible": True}, session)
    assert made["player"]["bot"] is True
    token, _ = _post(base_url, "/api/account/tokens", {"name": "connect", "scopes": ["bot:play"]}, session)
    return str(token["secret"])


def _register(page: Any, base_url: str, name: str) -> None:
    page.goto(base_url + "/login")
    page.get_by_test_id("register-name").fill(name)
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register-password2").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id("account-name").filter(has_text=name).wait_for()


def test_a_person_in_the_browser_plays_a_rated_game_against_ghostparty_connect(browser: Any, base_url: str) -> None:
    token = _bot_account(base_url, "Robo")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "GHOSTPARTY_TOKEN": token}
    command = [sys.executable, "-m", "ghostparty", "connect", "--server", base_url, "--bot", "greedy", "--games", "1"]
    program = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(iter(program.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        page = new_page(browser, speed="off")
        _register(page, base_url, "Ann")
        page.goto(base_url + "/")
        page.get_by_test_id("account-link").wait_for()
        page.get_by_test_id("rules-hugo").check()
        page.get_by_test_id("players").select_option("2")
        page.get_by_test_id("seat-kind-1").select_option("human")
        page.get_by_test_id("first-player").select_option("0")
        page.get_by_test_id("rated").check()
        with page.expect_navigation(url="**/t/*"):
            page.get_by_test_id("create").click()
        table_id = str(page.url.rsplit("/", 1)[1])
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")

        # The seat list's invitation (once the program follows its stream: an invitation
        # reaches the streams open when it is sent); the program accepts and the bot sits, tagged BOT.
        deadline = time.monotonic() + 60
        while not any("connected to" in line for line in said):
            assert time.monotonic() < deadline and program.poll() is None, said
            time.sleep(0.1)
        page.get_by_test_id("invite-bot-name-1").fill("Robo")
        page.get_by_test_id("invite-bot-send-1").click()
        # (the note "Invitation sent" goes with the form once the program has accepted)
        seat = page.locator("#open-seats [data-testid=seat][data-seat='1']")
        try:
            seat.get_by_test_id("bot-tag").wait_for(timeout=30000)
        except Exception as error:  # what the program and the page said, beside Playwright's timeout
            notes = page.locator("[role=status], [role=alert], .toast").all_inner_texts()
            raise AssertionError(f"the bot never sat: program said {said}, the page {notes}") from error
        assert seat.get_by_test_id("player-link").get_attribute("data-player") == "Robo"

        page.get_by_test_id("start").click()
        page.wait_for_function("() => document.querySelector('main').dataset.status !== 'open'")
        for _ in range(2000):
            kind = offer(page, timeout=60000)
            if kind == "over":
                break
            act(page, kind)
        else:
            pytest.fail("the game did not end")
        assert program.wait(timeout=60) == 0
        # The bot accounts' own leaderboard: a tab beside the people's.
        page.goto(base_url + "/leaderboard")
        page.get_by_test_id("tab-bots").click()
        page.wait_for_selector("main[data-bots=true][data-state=ok]")
        assert page.get_by_test_id("tab-bots").get_attribute("aria-selected") == "true"
        assert "bots=1" in page.url
        assert page.errors == []
    finally:
        if program.poll() is None:
            program.kill()
        program.wait(timeout=10)
        reader.join(timeout=10)
        program.stdout.close()  # type: ignore[union-attr]
        output = "".join(said)
    table = api_get(base_url, f"/api/tables/{table_id}")["table"]
    assert table["status"] == "over" and table["rated"] is True
    assert f"table {table_id} over: seat 1" in output, output
    robo = api_get(base_url, "/api/players/Robo")
    assert robo["bot_account"] is True and robo["ratings"]["hugo"]["rated_games"] == 1
    ann = api_get(base_url, "/api/players/Ann")
    assert ann["ratings"]["hugo"]["rated_games"] == 1


def test_the_account_page_makes_a_bot_account_only_of_an_account_without_games(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    _register(page, base_url, "Botty")
    page.goto(base_url + "/login")
    state = page.get_by_test_id("bot-account-state")
    assert state.get_attribute("data-bot") == "false"
    page.get_by_test_id("bot-account-start").click()
    page.get_by_test_id("bot-account-confirm").click()
    page.locator("[data-testid=bot-account-state][data-bot=true]").wait_for()
    assert api_get(base_url, "/api/players/Botty")["bot_account"] is True

    # Ann played above: her account stays a person's, and the page says why.
    other = new_page(browser, speed="off")
    other.goto(base_url + "/login")
    other.get_by_test_id("login-name").fill("Ann")
    other.get_by_test_id("login-password").fill(PASSWORD)
    other.get_by_test_id("login").click()
    other.get_by_test_id("bot-account-start").click()
    other.get_by_test_id("bot-account-confirm").click()
    other.get_by_test_id("bot-account-error").filter(has_text="never sat at a table").wait_for()
    assert api_get(base_url, "/api/players/Ann")["bot_account"] is False
    assert page.errors == [] and other.errors == []
