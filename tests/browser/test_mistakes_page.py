"""Learning from one's mistakes in Debian's Chromium, on a laptop and on a phone (390 px),
each in English and in German: one's own profile and a finished game's review link to the puzzles
page's mistakes mode ("Learn from your mistakes (N)"); there the banner says what was
played, the best move (played on the board) is right, the mistake itself is wrong, each
answer with the alternatives' win chances and the reason, and "Next mistake" steps on.
A guest is asked to log in; an account without mistakes is told it has none; axe-core
finds nothing serious; nothing is wider than the window.

The account's game is played over the HTTP API (the last legal action each time, against
a random bot) and reviewed cheaply (one roll deep, no solver), so it has mistakes.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghostparty import Game
from tests.fixtures.accounts import CHEAP as CHEAP_HASHER
from tests.fixtures.serving import serving

from .helpers import PASSWORD, new_page, person
from .test_accessibility import _axe, _serious

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

NAME = "Mira"
PHONE = {"viewport": (390, 844), "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SETUPS = [
    pytest.param({}, "en", id="laptop-en"),
    pytest.param({}, "de", id="laptop-de"),
    pytest.param(PHONE, "en", id="phone-en"),
    pytest.param(PHONE, "de", id="phone-de"),
]
PERCENT = {"en": r"^\d{1,3}\.\d%$", "de": r"^\d{1,3},\d\u00a0%$"}
LINK = {"en": "Learn from your mistakes ({n})", "de": "Aus deinen Fehlern lernen ({n})"}
TASK = {"en": ("You played ", "Find a better move."), "de": ("Hier hast du ", "Finde einen besseren Zug.")}
MARK = {"en": {"mistake": "mistake", "blunder": "blunder"}, "de": {"mistake": "Fehler", "blunder": "grober Fehler"}}
VERDICT = {"en": ("Right!", "Not quite"), "de": ("Richtig!", "Nicht ganz")}

#: The page shows a mistake to solve (its id given, or any).
SOLVING = """(id) => {
  const main = document.querySelector('main');
  return main.dataset.state === 'solving' && main.dataset.busy === 'false' && (id === null || main.dataset.puzzle === id);
}"""
SOLVED = "() => document.querySelector('main').dataset.state === 'solved'"


class Account:
    """An account's HTTP session (its cookie and CSRF token), as a program uses the API."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.csrf = self.call("POST", "/api/account/register", {"name": name, "password": PASSWORD})["csrf"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method)
        with self.opener.open(request, timeout=30) as response:
            return json.loads(response.read()) if response.status != 202 else {"status": "running"}


def _play_badly(account: Account) -> str:
    """A hugo game of the account (seat 0, the last legal action each time) against a random bot."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    table_id = account.call("POST", "/api/tables", {"rules": "hugo", "seats": seats, "first_player": 0})["table"]["id"]
    token = account.call("POST", f"/api/tables/{table_id}/join", {"seat": 0})["token"]
    account.call("POST", f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    for _ in range(3000):
        view = account.call("GET", f"/api/tables/{table_id}")
        position = view["position"]
        if view["table"]["status"] == "over":
            return str(table_id)
        if position["to_move"] != 0:
            time.sleep(0.01)
            continue
        action = {"roll": True} if position["phase"] == "roll" else Game.from_position(position).legal_actions()[-1]
        body = {"seat": 0, "token": token, "version": view["table"]["version"], "action": action}
        with contextlib.suppress(urllib.error.HTTPError):  # a bot's move came first: look again
            account.call("POST", f"/api/tables/{table_id}/actions", body)
    raise AssertionError(f"table {table_id} did not finish")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("mistakes") / "games.db"
    app = create_app(
        f"sqlite:///{database}", bot_delay=0.0, seed=41, review_settings={"depth": 1, "horizon": 0}, hasher=CHEAP_HASHER
    )
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def game(base_url: str) -> dict[str, Any]:
    """The account's reviewed game: its table, review and listed mistakes."""
    account = Account(base_url, NAME)
    table_id = _play_badly(account)
    for _ in range(600):
        answer = account.call("GET", f"/api/tables/{table_id}/review")
        if answer.get("status") == "done":
            break
        time.sleep(0.1)
    mistakes = account.call("GET", "/api/puzzles/mistakes")["mistakes"]
    assert mistakes, "the last legal action each time makes mistakes"
    steps = {step["index"]: step for step in answer["review"]["steps"]}
    return {"table": table_id, "mistakes": mistakes, "steps": steps}


def _logged_in(browser: Any, base_url: str, lang: str, device: dict[str, Any]) -> Any:
    page = new_page(browser, speed="off", lang=lang, bypass_csp=True, **device)
    page.goto(base_url + "/login")
    page.get_by_test_id("login-name").fill(NAME)
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login").click()
    page.wait_for_selector("main[data-state=player]")
    return page


def _press(page: Any, node: Any) -> None:
    if page.viewport_size["width"] < 500:
        node.tap()
    else:
        node.click()


def _play(page: Any, action: dict[str, Any]) -> None:
    """A move by clicking (tapping) its guest and where it goes; a placement from the list."""
    if "from" not in action:
        _press(
            page, page.locator(f"[data-testid=puzzle-move][data-action='{json.dumps(action, separators=(',', ':'))}']")
        )
        return
    board = page.get_by_test_id("board")
    _press(page, board.locator(f"[data-legal=true][data-legal-kind=source][data-loc='{action['from']}']").first)
    dest = board.locator(
        f"[data-legal=true][data-legal-kind=dest][data-square='{action['to']}'],"
        f"[data-legal=true][data-legal-kind=dest][data-location='{action['to']}']"
    )
    _press(page, dest.first)


def _pick_from_list(page: Any, action: dict[str, Any]) -> None:
    page.evaluate(
        """(a) => [...document.querySelectorAll('[data-testid=puzzle-move]')].find((b) => {
          const x = JSON.parse(b.dataset.action);
          return Object.keys({ ...x, ...a }).every((k) => x[k] === a[k]);
        }).click()""",
        action,
    )


def _result(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => ({
              correct: document.querySelector('[data-testid=puzzle-result]').dataset.correct,
              verdict: document.querySelector('[data-testid=puzzle-verdict]').textContent,
              reason: document.querySelector('[data-testid=puzzle-reason]').textContent,
              rows: [...document.querySelectorAll('[data-testid=puzzle-alternative]')].map((row) => ({
                action: JSON.parse(row.dataset.action), answer: row.dataset.answer === 'true',
                played: row.dataset.played === 'true',
                win: row.querySelector('[data-testid=alternative-win]').textContent})),
            })"""
        )
    )


def _solve_right_then_wrong(page: Any, lang: str, game: dict[str, Any], mistakes: list[dict[str, Any]]) -> None:
    """The first mistake solved with the review's best (on the board), the next one with the move played."""
    first = mistakes[0]
    page.wait_for_function(SOLVING, arg=first["id"])
    assert page.get_by_test_id("puzzles").get_attribute("data-mode") == "mistakes"
    task = page.get_by_test_id("puzzle-task").inner_text()
    start, end = TASK[lang]
    assert task.startswith(start) and task.endswith(end) and f"({MARK[lang][first['mark']]})" in task, task
    assert page.get_by_test_id("puzzle-filters").is_hidden()
    best = game["steps"][first["index"]]["best"]
    _play(page, best)
    page.wait_for_function(SOLVED)
    right = _result(page)
    assert right["correct"] == "true" and right["verdict"].startswith(VERDICT[lang][0]), right["verdict"]
    assert (
        len(right["rows"]) == len(first["legal"]) and right["rows"][0]["answer"] and right["rows"][0]["action"] == best
    )
    assert [row["action"] for row in right["rows"] if row["played"]] == [first["played"]]
    assert all(re.match(PERCENT[lang], row["win"]) for row in right["rows"]), right["rows"]
    assert right["reason"], "the reason is said"
    assert page.get_by_test_id("mistake-game").get_attribute("href") == f"/r/{first['table']}#review"

    second = mistakes[1] if len(mistakes) > 1 else first
    _press(page, page.get_by_test_id("puzzle-next"))
    page.wait_for_function(SOLVING, arg=second["id"])
    _pick_from_list(page, second["played"])
    page.wait_for_function(SOLVED)
    wrong = _result(page)
    assert wrong["correct"] == "false" and wrong["verdict"].startswith(VERDICT[lang][1]), wrong["verdict"]
    assert [row["action"] for row in wrong["rows"] if row["answer"]] == [game["steps"][second["index"]]["best"]]
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    assert _serious(_axe(page, "one's mistakes on the puzzles page")) == []
    assert page.errors == []


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_ones_profile_links_to_ones_mistakes_solved_right_then_wrong(
    browser: Any, base_url: str, game: dict[str, Any], device: dict[str, Any], lang: str
) -> None:
    page = _logged_in(browser, base_url, lang, device)
    page.goto(f"{base_url}/players/{NAME}")
    link = page.get_by_test_id("learn-mistakes")
    link.wait_for()
    n = len(game["mistakes"])
    assert link.get_attribute("data-count") == str(n) and link.inner_text() == LINK[lang].format(n=n)
    _press(page, link)
    page.wait_for_url("**/puzzles#mistakes")
    _solve_right_then_wrong(page, lang, game, game["mistakes"])
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_the_review_of_a_finished_game_links_to_its_mistakes(
    browser: Any, base_url: str, game: dict[str, Any], device: dict[str, Any], lang: str, tmp_path: Path
) -> None:
    page = _logged_in(browser, base_url, lang, device)
    table_id = game["table"]
    page.goto(f"{base_url}/r/{table_id}#review")
    link = page.get_by_test_id("review").get_by_test_id("learn-mistakes")
    link.wait_for()
    ours = [m for m in game["mistakes"] if m["table"] == table_id]
    assert link.inner_text() == LINK[lang].format(n=len(ours))
    _press(page, link)
    page.wait_for_url(f"**/puzzles?mistakes={table_id}")
    _solve_right_then_wrong(page, lang, game, ours)
    page.context.close()


def test_a_guest_is_asked_to_log_in_and_an_account_without_mistakes_is_told_so(
    browser: Any, base_url: str, game: dict[str, Any]
) -> None:
    guest = new_page(browser, speed="off")
    guest.goto(f"{base_url}/puzzles#mistakes")
    guest.wait_for_selector("main[data-state=empty]")
    assert guest.get_by_test_id("puzzle-error").inner_text() == "Log in to learn from your mistakes."
    guest.goto(f"{base_url}/r/{game['table']}#review")
    guest.wait_for_function("() => document.querySelector('[data-testid=review]').dataset.status === 'done'")
    assert guest.get_by_test_id("learn-mistakes").count() == 0
    guest.context.close()

    page = person(browser, base_url, "Nadia")
    page.goto(f"{base_url}/puzzles#mistakes")
    page.wait_for_selector("main[data-state=empty]")
    assert page.get_by_test_id("puzzle-task").inner_text().startswith("No mistakes to learn from")
    page.goto(f"{base_url}/players/Nadia")
    page.wait_for_selector("main[data-state=ok]")
    time.sleep(0.5)  # the link's question answered meanwhile
    assert page.get_by_test_id("learn-slot").is_hidden()
    assert page.errors == []
    page.context.close()
