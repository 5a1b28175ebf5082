"""The account page's open-data choice in a real browser (issue 27, item 5): a player
ticks "replace my name with a pseudonym", the server keeps it, a reload shows it.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_page

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 27


def test_a_player_keeps_their_name_out_of_the_open_data(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="instant")
    registered = page.request.post(
        base_url + "/api/account/register", data={"name": "Ottilie", "password": "castle-at-midnight"}
    )
    assert registered.status == 201
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=player]")
    box = page.get_by_test_id("open-data-opt-out")
    box.wait_for()
    assert not box.is_checked()
    box.check()
    saved = page.get_by_test_id("open-data-saved")
    saved.wait_for()
    assert "pseudonym" in saved.inner_text()
    assert page.request.get(base_url + "/api/account/open-data").json() == {"opt_out": True}
    page.reload()
    page.get_by_test_id("open-data-opt-out").wait_for()
    assert page.get_by_test_id("open-data-opt-out").is_checked()
    assert page.get_by_role("checkbox", name="Replace my name with a pseudonym in the published games").is_checked()
    assert not page.errors
    page.context.close()
