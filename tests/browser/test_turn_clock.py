"""A turn-based game in the browser with the server's clock moved between moves: a day
a move, the time running out, the bot stepping in, the person coming back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from .helpers import Clock, act, clocked_server, create_against_random, new_page, offer

CLOCK = Clock()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server with a clock this module moves."""
    with clocked_server(tmp_path_factory.mktemp("turn_clock"), CLOCK, seed=5) as url:
        yield url


def deadline(page: Any) -> str:
    return str(page.get_by_test_id("turn-timer").get_attribute("data-deadline"))


def test_a_day_a_move_with_the_clock_moved_between_moves(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="off")
    create_against_random(page, base_url, "Ann", turn_seconds="86400")  # a day a move
    page.get_by_test_id("start").click()
    assert offer(page) == "place"
    assert deadline(page) == "2026-11-26T09:00:00Z"  # a day from now, as a date

    # Ann places in her own time; the bot answers; the next day's deadline
    CLOCK.now += timedelta(hours=20)
    act(page, "place")
    assert offer(page) == "place"
    page.wait_for_function(
        "() => document.querySelector('[data-testid=turn-timer]').dataset.deadline === '2026-11-27T05:00:00Z'"
    )

    # Away from the page for a whole day and a second: the bot plays her turn …
    CLOCK.now += timedelta(days=1, seconds=1)
    page.get_by_test_id("im-back").wait_for(timeout=15000)
    assert "bot" in page.get_by_test_id("status").inner_text().lower()

    # … until she says she's back: from her next turn on, with a day for it
    page.get_by_test_id("im-back").click()
    offer(page, timeout=20000)
    moved_on = deadline(page)
    assert moved_on.startswith("2026-11-28T05:00")

    # 23 hours later she still has her turn: only a whole day runs out
    CLOCK.now += timedelta(hours=23)
    page.wait_for_timeout(1500)  # three ticks of the server's timer at its own pace
    assert page.get_by_test_id("im-back").count() == 0 or not page.get_by_test_id("im-back").is_visible()
    assert deadline(page) == moved_on
    offer(page)
    assert not page.errors
    page.context.close()
