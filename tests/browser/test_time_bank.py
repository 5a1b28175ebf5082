"""A real-time timed table in the browser: the countdown, its warning in the last 15 s
and while the time bank drains (the timer, the page title, a polite live region), and
the bot only once both are spent. The server's clock and the page's are moved together."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from .helpers import Clock, act, api_get, clocked_server, create_against_random, new_page, offer
from .test_accessibility import _axe, _serious

CLOCK = Clock()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server with a clock this module moves."""
    with clocked_server(tmp_path_factory.mktemp("time_bank"), CLOCK, seed=7) as url:
        yield url


def move(page: Any, seconds: float) -> None:
    """Move the server's clock and the page's by ``seconds``."""
    CLOCK.now += timedelta(seconds=seconds)
    page.clock.set_fixed_time(CLOCK.now.timestamp())


def timer_shows(page: Any, condition: str) -> None:
    """Wait until ``condition`` (JavaScript over ``timer``, the turn-timer element) holds."""
    page.wait_for_function(
        f"() => {{ const timer = document.querySelector('[data-testid=turn-timer]'); return {condition}; }}"
    )


def test_the_last_15_seconds_and_the_time_bank_are_warned_of_before_a_bot_takes_over(
    browser: Any, base_url: str
) -> None:
    page = new_page(browser, speed="off", bypass_csp=True)  # axe-core is injected
    page.clock.set_fixed_time(CLOCK.now.timestamp())
    table_id = create_against_random(page, base_url, "Ann", turn_seconds="60")
    page.get_by_test_id("start").click()
    assert offer(page) == "place"
    table = api_get(base_url, f"/api/tables/{table_id}")["table"]
    assert (table["time_bank"], table["seats"][0]["bank"]) == (60, 60)

    # A minute for the decision, and a minute of bank after it: no warning yet
    timer = page.get_by_test_id("turn-timer")
    timer_shows(page, "timer.dataset.seconds === '60'")
    assert timer.get_attribute("data-warning") == "false" and timer.get_attribute("data-part") == "own"
    assert "60 s left, then 60 s of time bank" in timer.inner_text()
    assert not page.title().startswith("⏰") and page.get_by_test_id("turn-warning").inner_text() == ""

    # 14 s left of her own: the timer warns, the title counts, the live region says it once
    move(page, 46)
    timer_shows(page, "timer.dataset.warning === 'true' && timer.dataset.seconds === '14'")
    assert "urgent" in str(timer.get_attribute("class"))
    page.wait_for_function("() => document.title.startsWith('⏰ 14 s · ')")
    assert "14 seconds left" in page.get_by_test_id("turn-warning").inner_text()
    move(page, 1)
    page.wait_for_function("() => document.title.startsWith('⏰ 13 s · ')")
    assert "14 seconds left" in page.get_by_test_id("turn-warning").inner_text()  # not every second

    # Her own time is up: the bank drains, and still no bot
    move(page, 19)
    timer_shows(page, "timer.dataset.part === 'bank' && timer.dataset.seconds === '54'")
    assert "time bank, 54 s left" in timer.inner_text()
    page.wait_for_function("() => document.title.startsWith('⏰ 54 s bank · ')")
    assert "time bank of 54 seconds is running" in page.get_by_test_id("turn-warning").inner_text()
    assert page.locator("[data-testid=seat][data-seat='0'][data-away=true]").count() == 0
    assert _serious(_axe(page, "the game page, the time bank draining")) == []

    # She places: 6 s came from the bank, 5 went back; the next decision starts calm
    act(page, "place")
    assert offer(page) == "place"  # the bot placed, a second later by the page's own timers
    table = api_get(base_url, f"/api/tables/{table_id}")["table"]
    assert table["seats"][0]["bank"] == 59
    timer_shows(page, "timer.dataset.warning === 'false' && timer.dataset.part === 'own'")
    assert not page.title().startswith("⏰") and page.get_by_test_id("turn-warning").inner_text() == ""

    # Her decision's minute and the 59 s of bank pass: only now the bot plays for her
    move(page, 60 + 58)
    timer_shows(page, "timer.dataset.part === 'bank' && timer.dataset.seconds === '1'")
    move(page, 2)
    page.get_by_test_id("im-back").wait_for(timeout=15000)
    assert not page.title().startswith("⏰")

    # The rules help says what that means for a rated game
    page.get_by_test_id("rules-help-button").click()
    help_text = page.get_by_test_id("rules-help-time").inner_text()
    assert "time bank" in help_text and "A rated game stays rated" in help_text
    assert not page.errors
    page.context.close()
