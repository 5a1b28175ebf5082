"""Every language on a phone, in a real browser (Debian's Chromium, Playwright): the lobby, a
table in play and the review of a finished game, 390 px wide, in each language the server
offers. Nothing wider than the screen (the page never scrolls sideways), no key missing
(``⟦key⟧``) and the page in the language it was asked for. The pictures go to
``$GHOSTPARTY_LANGUAGE_SHOTS`` when it names a folder (``phone-<code>-table.png``, ``-review.png``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .helpers import api_get, api_post, new_page

PHONE = (390, 844)
DEVICE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Elements reaching past the screen's right edge, but for the board (a picture that fits
#: by its own rules) and what scrolls inside a box of its own (a wide table).
WIDER_THAN_THE_SCREEN = """() => {
  const clipped = (e) => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).position !== 'fixed')
    .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .filter((e) => !e.closest('[data-testid=board]') && !clipped(e))
    .slice(0, 5)
    .map((e) => `${e.tagName.toLowerCase()}${e.dataset.testid ? '[' + e.dataset.testid + ']' : ''}: ${e.textContent.trim().slice(0, 40)}`);
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("languages") / "games.db"
    with serving(create_app(f"sqlite:///{database}", bot_delay=0.0, seed=31)) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    """A finished game of four bots (the review's graph has four lines)."""
    seats = [{"kind": "bot", "bot": bot} for bot in ("greedy", "random", "learned", "random")]
    table_id = str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats})["table"]["id"])
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    # Reviewed before any page asks: each language's page then shows the review at once,
    # however long a loaded machine takes to make it.
    deadline = time.monotonic() + 300
    while api_get(base_url, f"/api/tables/{table_id}/review").get("status") != "done":
        assert time.monotonic() < deadline, "the game was not reviewed in 5 minutes"
        time.sleep(1.0)  # well under the reviews' limit of 120 reads a minute
    return table_id


def _languages(base_url: str) -> list[str]:
    return [language["code"] for language in api_get(base_url, "/api/languages")["languages"]]


def _check(page: Any, language: str, where: str) -> list[str]:
    """What is wrong with the page as it is: another language, a missing key, too wide."""
    wrong = []
    # The page's words come with its language file: the static page shows before they do.
    page.wait_for_function("(code) => document.documentElement.dataset.lang === code", arg=language)
    if page.evaluate("() => document.documentElement.lang") != language:
        wrong.append(f"{language} {where}: the page is not in {language}")
    text = page.evaluate("() => document.body.innerText")
    if "⟦" in text:
        wrong.append(f"{language} {where}: a key is missing: {text[text.index('⟦') : text.index('⟦') + 50]!r}")
    wide = page.evaluate(WIDER_THAN_THE_SCREEN)
    if page.evaluate("() => document.documentElement.scrollWidth") > PHONE[0] or wide:
        wrong.append(f"{language} {where}: wider than a {PHONE[0]} px phone: {wide}")
    return wrong


def _picture(page: Any, name: str) -> None:
    folder = os.environ.get("GHOSTPARTY_LANGUAGE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def test_every_language_fits_a_phone_at_the_lobby_the_table_and_the_review(
    browser: Any, base_url: str, finished: str
) -> None:
    languages = _languages(base_url)
    assert {"en", "de"} <= set(languages)
    wrong: list[str] = []
    for language in languages:
        page = new_page(browser, speed="off", lang=language, viewport=PHONE, **DEVICE)
        page.goto(base_url + "/")
        page.get_by_test_id("create").wait_for()
        wrong += _check(page, language, "lobby")

        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        table = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats, "first_player": 0})
        table_id = str(table["table"]["id"])
        token = str(api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Ann"})["token"])
        page.evaluate(
            "([key, held]) => localStorage.setItem(key, held)",
            [f"ghostparty:tokens:{table_id}", json.dumps({"0": token})],
        )
        page.goto(f"{base_url}/t/{table_id}")
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
        page.get_by_test_id("start").click()
        page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
        page.locator("[data-testid=board] [data-legal=true]").first.wait_for()
        wrong += _check(page, language, "table")
        _picture(page, f"phone-{language}-table.png")

        page.goto(f"{base_url}/r/{finished}")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=review]')?.dataset.status === 'done'", timeout=90_000
        )
        page.get_by_test_id("review").scroll_into_view_if_needed()
        wrong += _check(page, language, "review")
        _picture(page, f"phone-{language}-review.png")
        assert not page.errors, (language, page.errors)
        page.context.close()
    assert wrong == []
