"""Friends in a real browser (issue 25, item 1), a browser context per person:

Ann and Bob follow each other from their profiles; Bob's lobby lists Ann. Ann creates a
table in the lobby, sits at it and invites Bob from the table's page; Bob's lobby, open
all along, shows the invitation at once (the lobby's WebSocket, no reload), he accepts
and is seated at Ann's table, where Ann's page shows him and lets her start. Bob's
Friends list then shows Ann online at that table. A guest sees prompts to log in
instead. (Two instances sharing PostgreSQL and Redis: tests/cluster/test_invitations.py.)

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .helpers import new_page, person

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from argon2 import PasswordHasher

    from ghostparty.server.app import create_app

    database = f"sqlite:///{tmp_path_factory.mktemp('friends') / 'games.db'}"
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    with serving(create_app(database, bot_delay=0.0, seed=8, hasher=cheap)) as port:
        yield f"http://127.0.0.1:{port}"


def follow(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/players/{name}")
    button = page.get_by_test_id("profile-follow")
    button.wait_for()
    assert button.get_attribute("data-following") == "false"
    button.click()
    page.wait_for_selector("[data-testid=profile-follow][data-following=true]")
    page.reload()  # kept on the server
    page.wait_for_selector("[data-testid=profile-follow][data-following=true]")


def test_follow_invite_accept_and_sit(browser: Any, server: str) -> None:
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    follow(ann, server, "Bob")
    follow(bob, server, "Ann")
    bob.goto(server + "/")
    friend = bob.locator("[data-testid=friend][data-name=Ann]")
    friend.wait_for()
    assert friend.get_attribute("data-online") == "false"
    assert bob.get_by_test_id("invitation").count() == 0

    # Ann makes a table of two people's seats in the lobby and sits at it
    ann.goto(server + "/")
    ann.get_by_test_id("seat-kind-1").select_option("human")
    ann.get_by_test_id("create").click()
    ann.wait_for_url("**/t/*")
    table_id = ann.url.rsplit("/", 1)[1]
    box = ann.get_by_test_id("invite-friend")
    box.wait_for()
    ann.get_by_test_id("invite-name").select_option("Bob")
    ann.get_by_test_id("invite-send").click()
    sent = time.monotonic()
    ann.get_by_test_id("invite-note").filter(has_text="Invitation sent to Bob").wait_for()

    # Bob's lobby shows it at once: no reload, long before any periodic refresh (15 s)
    invitation = bob.locator(f"[data-testid=invitation][data-table='{table_id}']")
    invitation.wait_for(timeout=5000)
    seen = time.monotonic() - sent
    assert seen < 3.0, f"the invitation took {seen:.2f} s to show"
    assert "Ann invites you" in invitation.inner_text()
    invitation.get_by_test_id("invitation-accept").click()
    bob.wait_for_url(f"**/t/{table_id}")
    # seated: his page holds seat 1, Ann's page shows him there and may start the game
    bob.wait_for_selector("[data-testid=table][data-status=open]")
    ann.wait_for_function("() => !document.querySelector('[data-testid=start]').disabled")
    assert "Bob" in ann.locator("#open-seats").inner_text()
    assert not ann.get_by_test_id("invite-friend").is_visible()  # no free seat: no more invitations
    tokens = bob.evaluate(f"localStorage.getItem('ghostparty:tokens:{table_id}')")
    assert tokens is not None and '"1"' in tokens

    # Ann's lobby (a fresh visit): Bob is online at that table
    lobby = new_page(browser, speed="instant")
    lobby.context.add_cookies(ann.context.cookies())
    lobby.goto(server + "/")
    row = lobby.locator("[data-testid=friend][data-name=Bob]")
    row.wait_for()
    lobby.wait_for_selector("[data-testid=friend][data-name=Bob][data-online=true]")
    assert row.get_by_test_id("friend-table-link").get_attribute("data-table") == table_id
    for page in (ann, bob, lobby):
        assert page.errors == []
    print(f"invitation shown in Bob's lobby {seen * 1000:.0f} ms after Ann's click")


def test_a_guest_is_asked_to_log_in(browser: Any, server: str) -> None:
    person(browser, server, "Cyd").context.close()
    guest = new_page(browser, speed="instant")
    guest.goto(server + "/")
    guest.get_by_test_id("friends-login").wait_for()
    assert guest.get_by_test_id("friends").is_hidden()
    guest.goto(server + "/players/Cyd")
    guest.get_by_test_id("follow-login").wait_for()
    assert guest.get_by_test_id("profile-follow").count() == 0
    assert guest.errors == []
