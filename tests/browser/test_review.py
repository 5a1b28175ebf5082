"""The game review on the replay page, in a real browser (Debian's Chromium, Playwright):
the progress while the server reviews, then the win-chance graph (by mouse and by
keyboard), the marked decisions in the review and in the move list with the best move
on the board, the luck bars and the summary, in English and German, with no serious
axe-core finding; the result panel links to it. Saves ``docs/review-page.png`` with
``GHOSTPARTY_SCREENSHOTS=1``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghostparty.server.http.assets import STATIC
from tests.fixtures.serving import serving

from .helpers import api_get, api_post, new_page, screenshot_path
from .test_accessibility import _axe, _serious

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Four bots, so that the graph has four lines; the review at full strength.
SEATS = [{"kind": "bot", "bot": b} for b in ("greedy", "random", "learned", "random")]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("review") / "games.db"


@pytest.fixture(scope="module")
def base_url(database: Path) -> Iterator[str]:
    from ghostparty.server.app import create_app

    with serving(create_app(f"sqlite:///{database}", bot_delay=0.0, seed=23)) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    table_id = str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": SEATS})["table"]["id"])
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return table_id


def _reviewed(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-testid=review]').dataset.status === 'done'", timeout=90_000
    )


def test_the_review_shows_progress_then_the_graph_marks_luck_and_summary(
    browser: Any, base_url: str, finished: str, tmp_path: Path
) -> None:
    page = new_page(browser, speed="off", viewport=(1280, 1000), bypass_csp=True)
    page.goto(f"{base_url}/r/{finished}#review")
    review = page.get_by_test_id("review")
    page.wait_for_function(
        "() => ['queued', 'running', 'done'].includes(document.querySelector('[data-testid=review]').dataset.status)"
    )
    if review.get_attribute("data-status") != "done":  # the first request started the job
        assert (
            review.get_by_role("status").inner_text().startswith(("The game review is waiting", "Reviewing the game"))
        )
    _reviewed(page)
    data = api_get(base_url, f"/api/tables/{finished}/review")["review"]
    steps = data["steps"]
    assert page.get_by_test_id("review-point").count() == len(steps) + 1
    assert page.get_by_test_id("review-row").count() == 4
    accuracy = [page.get_by_test_id("review-row").nth(s).get_attribute("data-accuracy") for s in range(4)]
    assert accuracy == [
        "" if p["accuracy"] is None else str(p["accuracy"]).removesuffix(".0") for p in data["players_review"]
    ] or all(accuracy)
    assert page.get_by_test_id("luck-bar").count() == sum(1 for s in steps if s["kind"] == "roll")
    marked = [s for s in steps if s.get("mark")]
    assert marked, "a game of random bots has marked decisions"
    assert page.get_by_test_id("review-mark").count() == len(marked)
    assert page.get_by_test_id("log-mark").count() == len(marked)

    # A marked decision, clicked: the replay goes there, says what was best, draws it.
    first = marked[0]
    page.get_by_test_id("review-mark").first.get_by_role("button").click()
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay]').dataset.step === '{first['index']}'")
    note = page.get_by_test_id("review-note").inner_text()
    assert "best was" in note and _said(first["best"]) in note
    best = first["best"]
    drawn = page.evaluate(
        "[...document.querySelectorAll('.review-best')].map((n) => n.dataset.square || n.dataset.location)"
    )
    assert sorted(drawn) == sorted(loc for loc in (best.get("from") or best.get("place"), best.get("to")) if loc)

    # The graph by keyboard: one tab stop, the arrows between points, Enter jumps.
    point = page.locator("[data-testid=review-point][tabindex='0']")
    assert point.count() == 1 and point.get_attribute("data-index") == str(first["index"])
    point.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay]').dataset.step === '{first['index'] + 3}'"
    )
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith(f"After action {first['index'] + 4}:") and "%" in label
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-testid=replay]').dataset.step === '-1'")

    # A click on the graph jumps too.
    page.get_by_test_id("review-point").nth(10).dispatch_event("click")
    page.wait_for_function("() => document.querySelector('[data-testid=replay]').dataset.step === '9'")
    assert _serious(_axe(page, "the replay page with its game review")) == []
    assert page.errors == []
    worst = max(range(len(marked)), key=lambda i: (marked[i]["best"].get("to") is not None, marked[i]["loss"]))
    page.get_by_test_id("review-mark").nth(worst).get_by_role("button").click()
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay]').dataset.step === '{marked[worst]['index']}'"
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshot_path("review-page.png", tmp_path)), full_page=True)
    page.context.close()


def _said(action: dict[str, Any]) -> str:
    """An action as the English page says it ("G20 → portrait hall", "place a guest on G3")."""
    words = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))

    def where(loc: str) -> str:
        return str(words[f"room.{loc[2:]}"]) if loc.startswith("R:") else loc

    if "from" in action:
        return f"{where(action['from'])} → {where(action['to'])}"
    return f"place a guest on {action['place']}" if "place" in action else "pass"


def _numbers(page: Any, seat: int) -> dict[str, float]:
    """The summary row of ``seat``, its cells by column, read as the page writes them."""
    cells = page.evaluate(
        """(seat) => Object.fromEntries([...document.querySelectorAll(
            `[data-testid=review-row][data-seat="${seat}"] td[data-column]`)].map((td) => [td.dataset.column, td.textContent]))""",
        seat,
    )
    out = {}
    for column, text in cells.items():
        if column in ("marks", "accuracy", "pr"):
            continue
        out[column] = float(text.replace("=", "").replace("−", "-").replace(",", ".").replace("\u202f", "").strip())
    return out


def test_the_summary_adds_up_row_by_row_the_graph_reads_100_and_marks_are_numbered_once(
    browser: Any, base_url: str, finished: str
) -> None:
    page = new_page(browser, speed="off", viewport=(1280, 1000))
    page.goto(f"{base_url}/r/{finished}#review")
    _reviewed(page)
    data = api_get(base_url, f"/api/tables/{finished}/review")["review"]
    results = 0.0
    for p in data["players_review"]:
        row = _numbers(page, p["seat"])
        average = row["start"] + row["skill"] + row["skill_others"]
        assert round(average, 1) == row["adjusted"], row  # the row adds up as shown, to the tenth
        assert round(average + row["luck"] + row["luck_others"] + row["drift"], 1) == row["result"], row
        assert row["result"] == round(100 * p["result"], 1)
        assert abs(row["adjusted"] - 100 * p["luck_adjusted"]) <= 0.35  # never clamped to 0 … 100
        results += row["result"]
    adjusted = sum(_numbers(page, p["seat"])["adjusted"] for p in data["players_review"])
    assert abs(adjusted - results) <= 0.05 * len(data["players_review"])  # the column sums to the results
    labels = page.get_by_test_id("review-graph-label")
    assert [labels.nth(i).text_content() for i in range(labels.count())] == ["0 %", "50 %", "100 %"]
    left = page.evaluate("document.querySelectorAll('[data-testid=review-graph-label]')[2].getBBox().x")
    assert left >= 0, "the top label starts inside the graph"
    marks = page.get_by_test_id("review-mark")
    marked = [s for s in data["steps"] if s.get("mark")]
    for i, step in enumerate(marked):
        text = marks.nth(i).get_by_role("button").inner_text()
        assert text.startswith(f"Action {step['index'] + 1}, ") and _said(step["action"]) in text
    assert (
        page.evaluate("getComputedStyle(document.querySelector('[data-testid=review-marked]')).listStyleType")
        != "decimal"
    )
    assert page.errors == []
    page.context.close()


def test_on_a_phone_a_click_on_a_mark_keeps_the_board_and_the_list_on_screen(
    browser: Any, base_url: str, finished: str
) -> None:
    page = new_page(browser, speed="off", viewport=(390, 844), is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{base_url}/r/{finished}#review")
    _reviewed(page)
    data = api_get(base_url, f"/api/tables/{finished}/review")["review"]
    marked = [s for s in data["steps"] if s.get("mark")]
    for i in (len(marked) - 1, 0):
        page.get_by_test_id("review-mark").nth(i).get_by_role("button").tap()
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=replay]').dataset.step === '{marked[i]['index']}'"
        )
        board, mark, height = page.evaluate(
            """(i) => { const b = document.getElementById('board-wrap').getBoundingClientRect();
                const m = document.querySelectorAll('[data-testid=review-mark]')[i].getBoundingClientRect();
                return [[b.top, b.bottom], [m.top, m.bottom], innerHeight]; }""",
            i,
        )
        assert board[0] >= -1 and board[1] <= height, f"the board is out of sight: {board} in {height}"
        assert mark[0] >= board[1] - 1 and mark[1] <= height, f"the mark tapped is out of sight: {mark}, board {board}"
    assert page.errors == []
    page.context.close()


def test_the_review_speaks_german_and_the_result_panel_links_to_it(browser: Any, base_url: str, finished: str) -> None:
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/t/{finished}")
    link = page.get_by_test_id("review-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/r/{finished}#review"
    page.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")  # after new_page's "en"
    link.click()
    _reviewed(page)
    review = page.get_by_test_id("review")
    assert review.get_by_role("heading", level=2).inner_text() == "Spielanalyse"
    assert "Gewinnchance" in review.inner_text() and "⟦" not in review.inner_text()
    marks = review.get_by_test_id("review-mark")
    for i in range(marks.count()):  # the moves in German: room names and words, no engine notation
        text = marks.nth(i).inner_text()
        assert text.startswith("Aktion ") and "am besten war" in text
        assert "R:" not in text and "place " not in text and "best was" not in text, text
    accuracy = [c for c in review.locator("td[data-column=accuracy]").all_inner_texts() if c != "—"]
    assert accuracy and all("," in c and "." not in c for c in accuracy), accuracy  # 74,7 as German writes it
    assert page.errors == []
    page.context.close()


def test_a_profile_shows_accuracy_and_pr_per_rule_set_with_a_trend(browser: Any, base_url: str, database: Path) -> None:
    from datetime import UTC, datetime

    from ghostparty.server.common.model import OVER, Seat, Table
    from ghostparty.server.reviews.pool import REVIEW_VERSION
    from ghostparty.server.reviews.store import StoredReview
    from ghostparty.server.stores import SqlStores

    store = SqlStores.open(f"sqlite:///{database}")  # the server's database, as another instance would write it
    when = datetime(2026, 11, 26, 12, tzinfo=UTC)
    zoe = store.accounts.create_player("Zoe", "zoe", "x", when)
    assert zoe is not None
    for n in range(6):
        seats = (Seat(0, "human", name="Zoe", player_id=zoe.id), Seat(1, "bot", bot="random"))
        assert store.tables.create(Table(f"zoe{n}", "hugo", 2, seats, seed=n, status=OVER, version=9))
        review = {"players_review": [{"seat": 0, "accuracy": 50.0 + 8 * n, "pr": 12.0 - n}]}
        store.reviews.put(StoredReview(f"zoe{n}", REVIEW_VERSION, review, when.replace(hour=n), 1.0))
    store.close()
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/players/Zoe")
    card = page.get_by_test_id("review-card")
    card.wait_for()
    row = card.get_by_test_id("review-stats")
    assert row.get_attribute("data-rules") == "hugo" and row.get_attribute("data-games") == "6"
    assert row.get_attribute("data-accuracy") == "70" and row.get_attribute("data-pr") == "9.5"
    assert card.get_by_test_id("review-trend").get_attribute("aria-label") == "getting better"
    assert card.get_by_role("img").get_attribute("aria-label").endswith("50, 58, 66, 74, 82, 90")
    assert page.errors == []
    page.context.close()
