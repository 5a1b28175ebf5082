"""A bot ladder's page in the browser: after a ladder of three bots (two house bots and a
bot account played by ``ghostparty connect``'s client), the standings show each bot's
score per deal with its 95 % interval, the house bots tagged, the games by deal, group
and rotation, the note on who may join, and no join form for a person."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.fixtures.botapi import bot_account
from tests.fixtures.ladder import CLOCK, connected, join, make_ladder, wait_until_over
from tests.fixtures.serving import serving

from .helpers import new_page


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("ladder-page") / "games.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0.0, seed=8, clock=CLOCK, tournament_every=0.2)
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


def test_the_ladder_page_shows_scores_intervals_and_rotations(base: str, browser: Any) -> None:
    ladder = make_ladder(base, "Host")
    token = bot_account(base, "Paige", scopes=("bot:play", "play"))
    join(base, ladder, token)
    with connected(base, token):
        state = wait_until_over(base, ladder, 120)
    assert state["tournament"]["status"] == "finished"
    page = new_page(browser, speed="instant")
    page.goto(f"{base}/tournaments/{ladder}")
    page.wait_for_selector("[data-testid=tournament][data-state=ok][data-status=finished]")
    rows = page.locator("[data-testid=standing-row]")
    assert rows.count() == 3
    shown = {}
    for i in range(3):
        row = rows.nth(i)
        name = row.get_attribute("data-name")
        shown[name] = row
        line = next(s for s in state["standings"] if s["name"] == name)
        assert float(row.get_attribute("data-ci-low")) == line["ci_low"]
        assert float(row.get_attribute("data-ci-high")) == line["ci_high"]
        assert f"[{line['ci_low']:.2f}, {line['ci_high']:.2f}]" in row.inner_text()
    assert (
        shown["House greedy"].get_attribute("data-house") == "true"
        and "house" in shown["House greedy"].inner_text().lower()
    )
    assert shown["Paige"].get_attribute("data-house") == "false"
    headings = page.locator("#standings-head th").all_inner_texts()
    assert [h.lower() for h in headings[2:4]] == ["score per deal", "95 % interval"]  # (shown in capitals)
    assert "Bot accounts only" in page.get_by_test_id("ladder-note").inner_text()
    assert page.get_by_test_id("join-form").is_hidden()
    labels = page.locator("[data-testid=game-link]").all_inner_texts()
    assert "Deal 2, group 1, rotation 2" in labels and len(labels) == 6
    assert "Bot ladder" in page.get_by_test_id("tournament-heading").inner_text()
    assert page.errors == []
