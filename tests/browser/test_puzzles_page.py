"""The puzzles page, /puzzles, and the lobby's daily puzzle, in Debian's Chromium: on a
laptop in English and on a phone in German.

* A puzzle is solved by clicking (tapping) its guest and the target on the board; a wrong
  move shows the answer, the reason in the page's language, the themes and every
  alternative's win chance written as the language writes percentages.
* A guest is told it is not rated, and the streak counts in the browser; "Next puzzle"
  asks for another; the theme filter asks for that theme; the lobby's card opens the
  daily puzzle; a limit's 429 says how long to wait.
* axe-core finds nothing serious; nothing is wider than the window; no page error.

Most tests answer ``/api/puzzles/**`` with :class:`FakePuzzleApi` (the API's contract,
built from real positions), as the server's API is built beside this page; the tests
named ``test_real_api_…`` use the server's own API and are skipped while it has none.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import re
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from ghostparty import Game
from ghostparty.rules import position_to_dict, ruleset, start_position

from .helpers import api_get, new_page, person

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 31
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE = {"viewport": (390, 844), "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SETUPS = [pytest.param({}, "en", id="laptop-en"), pytest.param(PHONE, "de", id="phone-de")]
PERCENT = {"en": r"^\d{1,3}\.\d%$", "de": r"^\d{1,3},\d\u00a0%$"}
THEME_NAME = {"en": {"expels": "Expels a guest"}, "de": {"expels": "Wirft einen Gast hinaus"}}

#: The page shows a puzzle to solve.
SOLVING = """(id) => {
  const main = document.querySelector('main');
  return main.dataset.state === 'solving' && main.dataset.busy === 'false' && (id === null || main.dataset.puzzle === id);
}"""
#: The page shows the answer to an attempt.
SOLVED = "() => document.querySelector('main').dataset.state === 'solved'"


def _position(roll: int, moves_before: int = 0) -> dict[str, Any]:
    """A two-player hugo game after its placements (and ``moves_before`` turns of 4s), ``roll`` rolled."""
    game = Game.from_position(position_to_dict(start_position(ruleset("hugo"), 2)))
    while game.position()["phase"] == "place":
        game.apply(game.legal_actions()[0])
    for _ in range(moves_before):
        game.apply({"roll": 4})
        game.apply(game.legal_actions()[-1])
    game.apply({"roll": roll})
    assert game.position()["phase"] == "move"
    return dict(game.position())


def _legal(position: dict[str, Any]) -> list[dict[str, Any]]:
    return list(Game.from_position(position).legal_actions())


class FakePuzzleApi:
    """``/api/puzzles/**`` as the contract says, for the pages of a browser context: two
    puzzles (themes ``hides`` and ``expels``) from real positions, the answer of each its
    last legal move; a guest's attempt is not rated. ``asked`` keeps every request's path
    and query; ``refuse`` (a status and an error) answers the next attempt instead."""

    def __init__(self) -> None:
        self.puzzles: dict[str, dict[str, Any]] = {}
        self.asked: list[tuple[str, dict[str, list[str]]]] = []
        self.refuse: tuple[int, dict[str, Any]] | None = None
        #: Whether the pages are logged in: then GET me answers a record, and an attempt
        #: carrying the CSRF header is rated.
        self.logged_in = False
        self.streak = 2
        for number, (roll, before, theme) in enumerate([(4, 0, "hides"), (2, 1, "expels")]):
            position = _position(roll, before)
            legal = _legal(position)
            assert len(legal) > 2 and all("to" in action and action["to"].startswith("G") for action in legal[:1])
            answer = legal[-1]
            wins = [0.62 - 0.09 * k for k in range(len(legal))]
            ordered = [answer, *legal[:-1]]
            self.puzzles[f"fake{number:08d}"] = {
                "public": {
                    "id": f"fake{number:08d}",
                    "rules": "hugo",
                    "players": 2,
                    "position": position,
                    "phase": "move",
                    "to_move": position["to_move"],
                    "roll": roll,
                    "rating": 1500 + 100 * number,
                    "attempts": 9,
                    "solved": 4,
                },
                "legal": legal,
                "answer": answer,
                "alternatives": [
                    {"action": action, "win": round(win, 6), "deep": {"win": win, "se": 0.01} if k == 0 else None}
                    for k, (action, win) in enumerate(zip(ordered, wins, strict=False))
                ],
                "themes": [theme],
                "reason": {"en": f"It {theme} (English reason).", "de": f"Deutsche Begründung: {theme}."},
            }
        self.daily = "fake00000001"

    def ids(self) -> list[str]:
        return list(self.puzzles)

    def install(self, context: Any) -> None:
        context.route("**/api/puzzles/**", self._answer)

    def _reply(self, route: Any, status: int, body: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def _answer(self, route: Any) -> None:
        request = route.request
        url = urlsplit(request.url)
        query = parse_qs(url.query)
        self.asked.append((url.path, query))
        part = url.path.removeprefix("/api/puzzles/")
        if part == "themes":
            self._reply(route, 200, {"themes": [{"theme": "hides", "count": 1}, {"theme": "expels", "count": 1}]})
        elif part == "me" and self.logged_in:
            record = {"rating": 1512.4, "rd": 80.2, "attempts": 7, "solved": 5, "streak": self.streak, "best_streak": 4}
            self._reply(route, 200, record)
        elif part == "me":
            self._reply(route, 403, {"error": {"code": "registered_only", "message": "for registered players"}})
        elif part == "daily":
            self._reply(route, 200, {"puzzle": self.puzzles[self.daily]["public"], "date": "2026-12-06"})
        elif part == "next":
            theme = query.get("theme", [""])[0]
            after = query.get("after", [""])[0]
            found = [p for i, p in self.puzzles.items() if i != after and (not theme or theme in p["themes"])]
            if found:
                self._reply(route, 200, {"puzzle": found[0]["public"]})
            else:
                self._reply(route, 404, {"error": {"code": "no_puzzles", "message": "no puzzles"}})
        elif part.endswith("/attempt") and request.method == "POST":
            rated = self.logged_in and bool(request.headers.get("x-csrf-token"))
            self._attempt(route, part.removesuffix("/attempt"), request.post_data_json["action"], rated)
        elif part in self.puzzles:
            self._reply(route, 200, {"puzzle": self.puzzles[part]["public"]})
        else:
            self._reply(route, 404, {"error": {"code": "unknown_puzzle", "message": "no such puzzle"}})

    def _attempt(self, route: Any, puzzle_id: str, action: dict[str, Any], rated: bool) -> None:
        if self.refuse:
            status, error = self.refuse
            self.refuse = None
            self._reply(route, status, {"error": error})
            return
        puzzle = self.puzzles[puzzle_id]
        if action not in puzzle["legal"]:
            self._reply(route, 400, {"error": {"code": "illegal_action", "message": "not legal"}})
            return
        correct = action == puzzle["answer"]
        rating = puzzle["public"]["rating"]
        if rated:
            self.streak = self.streak + 1 if correct else 0
        self._reply(
            route,
            200,
            {
                "correct": correct,
                "answer": puzzle["answer"],
                "alternatives": puzzle["alternatives"],
                "margin": 0.09,
                "themes": puzzle["themes"],
                "reason": puzzle["reason"],
                "rated": rated,
                "rating": {"before": 1500.0, "after": 1512.4 if correct else 1490.6, "rd": 80.2} if rated else None,
                "puzzle_rating": {"before": rating, "after": rating + (-8 if correct else 8)},
                "streak": self.streak if rated else None,
            },
        )


@pytest.fixture
def fake_puzzle_api() -> FakePuzzleApi:
    """The contract's API, faked (see the module's text)."""
    return FakePuzzleApi()


def _page(browser: Any, device: dict[str, Any], lang: str, fake: FakePuzzleApi | None) -> Any:
    page = new_page(browser, speed="off", lang=lang, **device)
    if fake is not None:
        fake.install(page.context)
    return page


def _press(page: Any, node: Any) -> None:
    if page.viewport_size["width"] < 500:
        node.tap()
    else:
        node.click()


def _play_on_board(page: Any, action: dict[str, Any]) -> None:
    """Click (on a phone, tap) the action's guest, then where it goes."""
    board = page.get_by_test_id("board")
    _press(page, board.locator(f"[data-legal=true][data-legal-kind=source][data-loc='{action['from']}']").first)
    dest = board.locator(
        f"[data-legal=true][data-legal-kind=dest][data-square='{action['to']}'],"
        f"[data-legal=true][data-legal-kind=dest][data-location='{action['to']}']"
    )
    _press(page, dest.first)


def _fits(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    assert page.errors == []


def _alternatives(page: Any) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=puzzle-alternative]')].map((row) => ({
              action: JSON.parse(row.dataset.action), answer: row.dataset.answer === 'true',
              chosen: row.dataset.chosen === 'true',
              win: row.querySelector('[data-testid=alternative-win]').textContent}))"""
        )
    )


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_puzzle_is_solved_on_the_board_and_a_guest_is_not_rated(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    first = fake_puzzle_api.ids()[0]
    puzzle = fake_puzzle_api.puzzles[first]
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(base_url + "/puzzles")
    page.wait_for_function(SOLVING, arg=first)
    assert page.url.endswith(f"#id={first}")
    task = page.get_by_test_id("puzzle-task").inner_text()
    assert task == (
        "You are Red: you rolled 4 — find the best move"
        if lang == "en"
        else "Du bist Rot: du hast eine 4 gewürfelt — finde den besten Zug"
    )
    assert page.get_by_test_id("puzzle-die-face").inner_text() == "4"
    assert page.get_by_test_id("die").count() == 1
    assert page.get_by_test_id("board").get_attribute("data-layout") == ("portrait" if device else "landscape")

    _play_on_board(page, puzzle["answer"])
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    assert page.get_by_test_id("puzzle-result").get_attribute("data-correct") == "true"
    assert page.get_by_test_id("puzzle-verdict").inner_text().startswith("Right!" if lang == "en" else "Richtig!")
    assert page.get_by_test_id("puzzle-reason").inner_text() == puzzle["reason"][lang]
    ratings = page.get_by_test_id("puzzle-ratings")
    assert ratings.get_attribute("data-rated") == "false"
    assert ("guests are not rated" if lang == "en" else "Gäste werden nicht gewertet") in ratings.inner_text()
    assert page.get_by_test_id("puzzle-streak").get_attribute("data-streak") == "1"
    assert ("in this browser" if lang == "en" else "in diesem Browser") in page.get_by_test_id("puzzle-me").inner_text()
    rows = _alternatives(page)
    assert rows[0]["answer"] and rows[0]["chosen"]
    assert all(re.match(PERCENT[lang], row["win"]) for row in rows), rows
    # Attempts go out as the contract says: the action's JSON.
    assert any(path.endswith("/attempt") for path, _ in fake_puzzle_api.asked)
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_wrong_move_shows_the_answer_and_why_then_the_next_puzzle(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    first, second = fake_puzzle_api.ids()
    puzzle = fake_puzzle_api.puzzles[first]
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    wrong = puzzle["legal"][0]
    assert wrong != puzzle["answer"]
    _play_on_board(page, wrong)
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "wrong"
    verdict = page.get_by_test_id("puzzle-verdict").inner_text()
    assert verdict.startswith("Not quite" if lang == "en" else "Nicht ganz"), verdict
    assert page.get_by_test_id("puzzle-reason").inner_text() == puzzle["reason"][lang]
    assert page.get_by_test_id("puzzle-theme").first.get_attribute("data-theme") == "hides"
    rows = _alternatives(page)
    assert [row["action"] for row in rows] == [a["action"] for a in puzzle["alternatives"]]
    assert rows[0]["answer"] and not rows[0]["chosen"]
    assert [row["action"] for row in rows if row["chosen"]] == [wrong]
    assert page.get_by_test_id("puzzle-streak").get_attribute("data-streak") == "0"
    # The answer's squares are outlined on the board, and nothing may be clicked any more.
    assert page.get_by_test_id("board").locator("[data-legal=true]").count() == 0

    _press(page, page.get_by_test_id("puzzle-next"))
    page.wait_for_function(SOLVING, arg=second)
    assert page.get_by_test_id("puzzle-result").is_hidden()
    assert page.get_by_test_id("puzzle-die-face").inner_text() == "2"
    nexts = [query for path, query in fake_puzzle_api.asked if path.endswith("/next")]
    assert nexts[-1].get("after") == [first]
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_the_theme_filter_asks_for_that_theme(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    first, second = fake_puzzle_api.ids()
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(base_url + "/puzzles")
    page.wait_for_function(SOLVING, arg=first)
    theme = page.get_by_test_id("filter-theme")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=filter-theme] option').length === 3")
    assert THEME_NAME[lang]["expels"] in theme.locator("option[value=expels]").inner_text()
    theme.select_option("expels")
    page.get_by_test_id("filter-rules").select_option("hugo")
    _press(page, page.get_by_test_id("filter-go"))
    page.wait_for_function(SOLVING, arg=second)
    nexts = [query for path, query in fake_puzzle_api.asked if path.endswith("/next")]
    assert nexts[-1]["theme"] == ["expels"] and nexts[-1]["rules"] == ["hugo"]
    # No further puzzle of that theme: the page says so and keeps the one shown.
    _press(page, page.get_by_test_id("puzzle-next"))
    page.wait_for_function("() => !document.querySelector('[data-testid=puzzle-error]').hidden")
    error = page.get_by_test_id("puzzle-error").inner_text()
    assert ("No puzzles match" if lang == "en" else "Keine Aufgabe passt") in error
    assert page.locator("main").get_attribute("data-puzzle") == second
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_the_lobby_card_opens_the_daily_puzzle(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(base_url + "/")
    card = page.get_by_test_id("daily-card")
    card.wait_for()
    assert card.get_attribute("data-puzzle") == fake_puzzle_api.daily
    assert ("You rolled 2" if lang == "en" else "Du hast eine 2 gewürfelt") in card.inner_text()
    assert page.get_by_test_id("puzzles-link").count() == 1
    _fits(page)
    _press(page, page.get_by_test_id("daily-card-link"))
    page.wait_for_url("**/puzzles#daily")
    page.wait_for_function(SOLVING, arg=fake_puzzle_api.daily)
    assert page.locator("main").get_attribute("data-daily") == "true"
    assert "2026-12-06" in page.get_by_test_id("puzzle-meta").inner_text()
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_limit_says_how_long_to_wait_and_try_again_sends_the_move(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    first = fake_puzzle_api.ids()[0]
    answer = fake_puzzle_api.puzzles[first]["answer"]
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(f"{base_url}/puzzles?id={first}")
    page.wait_for_function(SOLVING, arg=first)
    fake_puzzle_api.refuse = (
        429,
        {"code": "rate_limited", "message": "at most 30 attempts a minute", "retry_after": 42},
    )
    _play_on_board(page, answer)
    alert = page.get_by_test_id("puzzle-error")
    alert.wait_for()
    assert alert.get_attribute("role") == "alert"
    assert ("42 seconds" if lang == "en" else "42 Sekunden") in alert.inner_text()
    assert page.locator("main").get_attribute("data-state") == "solving"
    _press(page, page.get_by_test_id("puzzle-retry"))
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    assert alert.is_hidden()
    _fits(page)
    page.context.close()


def test_an_account_is_rated_and_its_streak_is_the_servers(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi
) -> None:
    first = fake_puzzle_api.ids()[0]
    page = person(browser, base_url, "Puzzler")
    fake_puzzle_api.logged_in = True
    fake_puzzle_api.install(page.context)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    page.wait_for_function("() => document.querySelector('[data-testid=puzzle-me-text]').textContent !== ''")
    assert page.get_by_test_id("puzzle-me-text").inner_text().startswith("Puzzle rating 1512 (± 80)")
    _play_on_board(page, fake_puzzle_api.puzzles[first]["answer"])
    page.wait_for_function(SOLVED)
    ratings = page.get_by_test_id("puzzle-ratings")
    assert ratings.get_attribute("data-rated") == "true", "the attempt went out without the CSRF header"
    assert "Your puzzle rating: 1512 (+12, ± 80)." in ratings.inner_text()
    assert "The puzzle's rating: 1492 (−8)." in ratings.inner_text()
    streak = page.get_by_test_id("puzzle-streak")
    assert streak.get_attribute("data-streak") == "3"
    assert streak.inner_text() == "Streak: 3"
    _fits(page)
    page.context.close()


def test_a_move_the_server_finds_illegal_is_said_and_the_puzzle_stays(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi
) -> None:
    """Without the legal moves in the puzzle the board offers more than is legal: the
    server's refusal is said, and the puzzle can still be solved."""
    first = fake_puzzle_api.ids()[0]
    puzzle = fake_puzzle_api.puzzles[first]
    source = puzzle["answer"]["from"]
    illegal = next(
        f"G{n}" for n in range(40) if {"from": source, "to": f"G{n}"} not in puzzle["legal"] and f"G{n}" != source
    )
    page = _page(browser, {}, "en", fake_puzzle_api)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    _play_on_board(page, {"from": source, "to": illegal})
    alert = page.get_by_test_id("puzzle-error")
    alert.wait_for()
    assert "is not a legal move here" in alert.inner_text()
    assert page.get_by_test_id("puzzle-retry").is_hidden()
    page.wait_for_function(SOLVING, arg=first)
    _play_on_board(page, puzzle["answer"])
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_placement_puzzle_is_solved_on_a_square(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi, device: Any, lang: str
) -> None:
    """Phase place: no die; the free squares take the guest (no legal list needed)."""
    position = position_to_dict(start_position(ruleset("hugo"), 2))
    game = Game.from_position(position)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    position = dict(game.position())
    legal = _legal(position)
    answer = legal[len(legal) // 2]
    fake_puzzle_api.puzzles["place0000001"] = {
        **fake_puzzle_api.puzzles[fake_puzzle_api.ids()[0]],
        "public": {
            "id": "place0000001",
            "rules": "hugo",
            "players": 2,
            "position": position,
            "phase": "place",
            "to_move": position["to_move"],
            "roll": None,
            "rating": 1450,
            "attempts": 0,
            "solved": 0,
        },
        "legal": legal,
        "answer": answer,
        "alternatives": [{"action": a, "win": 0.5 - 0.01 * k, "deep": None} for k, a in enumerate([answer, *legal])],
        "themes": ["placement"],
    }
    page = _page(browser, device, lang, fake_puzzle_api)
    page.goto(f"{base_url}/puzzles#id=place0000001")
    page.wait_for_function(SOLVING, arg="place0000001")
    assert page.get_by_test_id("puzzle-roll").is_hidden()
    task = page.get_by_test_id("puzzle-task").inner_text()
    assert task == (
        "You are Blue: place a guest — find the best square"
        if lang == "en"
        else "Du bist Blau: setze einen Gast — finde das beste Feld"
    )
    squares = page.get_by_test_id("board").locator("[data-legal=true][data-legal-kind=place]")
    assert sorted(squares.evaluate_all("(nodes) => nodes.map((n) => n.dataset.square)")) == sorted(
        a["place"] for a in legal
    )
    _press(page, squares.and_(page.locator(f"[data-square='{answer['place']}']")))
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    assert page.get_by_test_id("puzzle-theme").get_attribute("data-theme") == "placement"
    assert page.get_by_test_id("puzzle-theme").inner_text() == ("Placement" if lang == "en" else "Einsetzen")
    _fits(page)
    page.context.close()


def test_the_board_takes_the_keyboard(browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi) -> None:
    """Tab reaches the board; the arrow keys walk its targets, Enter picks the guest and its target."""
    first = fake_puzzle_api.ids()[0]
    answer = fake_puzzle_api.puzzles[first]["answer"]
    page = _page(browser, {}, "en", fake_puzzle_api)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    focused = "() => { const n = document.activeElement; return n?.dataset?.square || n?.dataset?.location || null; }"
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(focused):
            break
    assert page.evaluate(focused), "Tab never reached the board"
    for _ in range(60):
        if page.evaluate(focused) == answer["from"]:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=board] [data-legal-kind=dest]")
    for _ in range(120):
        if page.evaluate(focused) == answer["to"]:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == answer["to"]
    page.keyboard.press("Enter")
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "puzzle-result"
    assert page.errors == []
    page.context.close()


def test_the_legal_moves_list_plays_by_keyboard_when_the_puzzle_has_them(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi
) -> None:
    """With ``legal`` in the puzzle (as the game page gets it), every legal move is a button."""
    first = fake_puzzle_api.ids()[0]
    puzzle = fake_puzzle_api.puzzles[first]
    puzzle["public"] = {**puzzle["public"], "legal": puzzle["legal"]}
    page = _page(browser, {}, "en", fake_puzzle_api)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    moves = page.get_by_test_id("puzzle-move")
    assert moves.count() == len(puzzle["legal"])
    last = moves.nth(moves.count() - 1)
    assert json.loads(last.get_attribute("data-action")) == puzzle["answer"]
    last.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(SOLVED)
    assert page.locator("main").get_attribute("data-result") == "right"
    _fits(page)
    page.context.close()


def test_axe_finds_nothing_serious_on_the_puzzles_page(
    browser: Any, base_url: str, fake_puzzle_api: FakePuzzleApi
) -> None:
    if not AXE.exists():
        pytest.skip(f"axe-core is not vendored at {AXE}")
    first = fake_puzzle_api.ids()[0]
    page = new_page(browser, speed="off", bypass_csp=True)
    fake_puzzle_api.install(page.context)
    page.goto(f"{base_url}/puzzles#id={first}")
    page.wait_for_function(SOLVING, arg=first)
    page.add_script_tag(path=str(AXE))
    scan = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
      .map((v) => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}))"""
    assert [v for v in page.evaluate(scan) if v["impact"] in ("serious", "critical")] == []
    _play_on_board(page, fake_puzzle_api.puzzles[first]["legal"][0])
    page.wait_for_function(SOLVED)
    assert [v for v in page.evaluate(scan) if v["impact"] in ("serious", "critical")] == []
    page.goto(base_url + "/")  # the lobby with its daily puzzle card
    page.get_by_test_id("daily-card").wait_for()
    page.add_script_tag(path=str(AXE))
    assert [v for v in page.evaluate(scan) if v["impact"] in ("serious", "critical")] == []
    assert page.errors == []
    page.context.close()


# ---------------------------------------------------------------- the server's own API


@pytest.fixture
def real_puzzle(base_url: str) -> Iterator[dict[str, Any]]:
    """The server's next puzzle; skipped while the server has no puzzles API or no puzzles."""
    try:
        yield api_get(base_url, "/api/puzzles/next")["puzzle"]
    except urllib.error.HTTPError as error:
        error.close()
        pytest.skip(f"the server's GET /api/puzzles/next answers {error.code}: no puzzles API or no puzzles yet")


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_real_api_daily_solve_next_and_theme(
    browser: Any, base_url: str, real_puzzle: Any, device: Any, lang: str
) -> None:
    """The features end to end against the server's API: the lobby's card, a move on the
    board, the server's answer and a guest's "not rated", the next puzzle, a theme."""
    page = _page(browser, device, lang, None)
    page.goto(base_url + "/")
    page.get_by_test_id("daily-card").wait_for()
    _press(page, page.get_by_test_id("daily-card-link"))
    page.wait_for_function(SOLVING, arg=None)
    shown = page.locator("main").get_attribute("data-puzzle")
    puzzle = api_get(base_url, f"/api/puzzles/{shown}")["puzzle"]
    move = next(a for a in _legal(puzzle["position"]) if "from" in a or "place" in a)
    if "from" in move:
        _play_on_board(page, move)
    else:
        _press(page, page.get_by_test_id("board").locator(f"[data-legal-kind=place][data-square='{move['place']}']"))
    page.wait_for_function(SOLVED)
    answer = json.loads(page.get_by_test_id("puzzle-alternative").first.get_attribute("data-action"))
    assert page.locator("main").get_attribute("data-result") == ("right" if answer == move else "wrong")
    assert page.get_by_test_id("puzzle-ratings").get_attribute("data-rated") == "false"
    _press(page, page.get_by_test_id("puzzle-next"))
    page.wait_for_function(f"() => document.querySelector('main').dataset.puzzle !== {json.dumps(shown)}")
    themes = api_get(base_url, "/api/puzzles/themes")["themes"]
    if themes:
        page.get_by_test_id("filter-theme").select_option(themes[0]["theme"])
        _press(page, page.get_by_test_id("filter-go"))
        page.wait_for_function(SOLVING, arg=None)
    _fits(page)
    page.context.close()
