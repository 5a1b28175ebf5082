"""The deep review on the replay page, in a real browser (Debian's Chromium, Playwright):
asked for with its button, its progress while the server makes it, then its marks and
best moves with the note that the deep analysis judged them, back and forth between the
two reviews, in English and German, with no serious axe-core finding."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .helpers import api_get, api_post, new_page
from .test_accessibility import _axe, _serious

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SEATS = [{"kind": "bot", "bot": b} for b in ("random", "greedy")]
#: Cheap reviews: the page is tested, not the analysis.
CHEAP = {"depth": 1, "horizon": 0, "deep": {"rollouts": 3, "cut": 2, "width": 2}}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("deep-review") / "games.db"
    with serving(create_app(f"sqlite:///{database}", bot_delay=0.0, seed=5, review_settings=CHEAP)) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    table_id = str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": SEATS})["table"]["id"])
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return table_id


def _judge_is(page: Any, judge: str) -> None:
    page.wait_for_function(
        f"""() => {{ const r = document.querySelector('[data-testid=review]');
            return r.dataset.status === 'done' && r.dataset.judge === '{judge}'; }}""",
        timeout=120_000,
    )


def test_the_deep_review_starts_with_its_button_shows_progress_then_its_judgement(
    browser: Any, base_url: str, finished: str
) -> None:
    page = new_page(browser, speed="off", viewport=(1280, 1000), bypass_csp=True)
    page.goto(f"{base_url}/r/{finished}#review")
    _judge_is(page, "fast")
    part = page.get_by_test_id("review-deep")
    assert part.get_attribute("data-status") == "idle"
    assert part.get_by_role("heading").inner_text() == "Deep review"
    page.evaluate(
        """() => { window.deepStates = [];
            new MutationObserver(() => window.deepStates.push(
                document.querySelector('[data-testid=review-deep]')?.dataset.status)).observe(
                document.querySelector('[data-testid=review]'), {subtree: true, attributes: true, childList: true}); }"""
    )
    page.get_by_test_id("review-deep-start").click()
    _judge_is(page, "deep")
    states = page.evaluate("window.deepStates")
    assert "queued" in states or "running" in states, states  # the progress was shown first
    deep = api_get(base_url, f"/api/tables/{finished}/review?judge=deep")["review"]
    assert deep["judge"] == "deep"
    note = page.get_by_test_id("review-deep-note").inner_text()
    assert "deep analysis" in note and "3 rollouts" in note
    marked = [s for s in deep["steps"] if s.get("mark")]
    assert page.get_by_test_id("review-mark").count() == len(marked)
    assert page.get_by_test_id("log-mark").count() == len(marked)  # the move list re-marked, not marked twice
    deep_marks = [m for m in marked if m.get("rollouts")]
    if deep_marks:  # a judgement of the rollouts says its standard error
        first = page.locator(f"[data-testid=review-mark][data-index='{deep_marks[0]['index']}']")
        assert "best was" in first.inner_text() and "±" in first.inner_text()
    judged = [s for s in deep["steps"] if s.get("rollouts") and s.get("best_label") != s["label"]]
    if judged:  # a decision whose deep best move was another: drawn on the board
        page.get_by_test_id("review-point").nth(judged[0]["index"] + 1).dispatch_event("click")
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=replay]').dataset.step === '{judged[0]['index']}'"
        )
        assert page.locator(".review-best").count() >= 1
    assert _serious(_axe(page, "the replay page with its deep review")) == []

    toggle = page.get_by_test_id("review-judge-toggle")
    assert toggle.inner_text() == "Show the review"
    toggle.click()
    _judge_is(page, "fast")
    assert page.get_by_test_id("review-deep-note").count() == 0
    back = page.get_by_test_id("review-judge-toggle")
    assert back.inner_text() == "Show the deep review"
    back.click()  # kept: no new request
    _judge_is(page, "deep")
    assert page.errors == []
    page.context.close()


def test_the_deep_review_speaks_german(browser: Any, base_url: str, finished: str) -> None:
    page = new_page(browser, speed="off", lang="de")
    page.goto(f"{base_url}/r/{finished}#review")
    _judge_is(page, "fast")
    button = page.get_by_test_id("review-deep-start")
    assert button.inner_text() == "Tiefe Analyse"
    button.click()
    _judge_is(page, "deep")
    review = page.get_by_test_id("review")
    note = page.get_by_test_id("review-deep-note").inner_text()
    assert note.startswith("Dies ist die tiefe Analyse") and "3 ausgespielten Partien" in note
    assert "⟦" not in review.inner_text() and "deep" not in review.inner_text().lower()
    assert page.get_by_test_id("review-judge-toggle").inner_text() == "Spielanalyse zeigen"
    assert page.errors == []
    page.context.close()


def test_a_deep_review_refused_says_why_and_can_be_asked_again(browser: Any, base_url: str, tmp_path: Path) -> None:
    page = new_page(browser, speed="off")
    table_id = str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": SEATS})["table"]["id"])
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page.route(
        "**/review?judge=deep",
        lambda route: route.fulfill(
            status=429,
            content_type="application/json",
            body='{"error": {"code": "rate_limited", "message": "at most 2 deep reviews in 5 minutes"}}',
            headers={"Retry-After": "120"},
        ),
    )
    page.goto(f"{base_url}/r/{table_id}#review")
    _judge_is(page, "fast")
    page.get_by_test_id("review-deep-start").click()
    part = page.get_by_test_id("review-deep")
    page.wait_for_function("() => document.querySelector('[data-testid=review-deep]').dataset.status === 'failed'")
    assert part.get_by_role("status").inner_text() != ""
    assert page.get_by_test_id("review-deep-start").is_enabled()
    assert page.errors == []
    page.context.close()
