"""Blocking, reports and moderators in a real browser (issue 25, items 2 and 3).

Two server instances on one SQLite database, and a browser context per person:

* Ann (on instance one) and Bob (on instance two) sit at one table; Bob's line shows on
  Ann's page until she blocks him, then it vanishes and his next lines never come, while
  his own page shows everything; in her replay of the finished game his lines are
  gone, in his they are there. Then both press "Play now" (Ann on one instance, Bob on
  the other): they are never seated together; Cyd and Dee, who come next, are.
* Ann reports Bob's line; Mona, a moderator (``ghostparty admin moderator``), sees it in
  the queue at /moderation with the lines around it, times Bob out for 15 minutes with a
  reason, which Bob's page shows when he writes, removes the line (it vanishes from
  Ann's page) and closes the report; the audit log shows each action.
* A player's own lines offer no mute, block or report in any window of theirs (their
  account's on another browser, a second tab holding their seat); blocking oneself
  through the API is refused with ``block_self``, which the page words.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tests.fixtures.serving import serving

from .helpers import PASSWORD, api_get, new_page
from .helpers import person as registered
from .test_accessibility import _axe, _serious

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """Two instances on one database: (first URL, second URL, database URL)."""
    from argon2 import PasswordHasher

    from ghostparty.server.app import create_app

    database = f"sqlite:///{tmp_path_factory.mktemp('moderation') / 'games.db'}"
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    one = create_app(database, bot_delay=0.0, seed=25, hasher=cheap)
    two = create_app(database, bot_delay=0.0, seed=26, hasher=cheap)
    with serving(one) as first, serving(two) as second:
        yield f"http://127.0.0.1:{first}", f"http://127.0.0.1:{second}", database


def person(browser: Any, base: str, name: str, **options: Any) -> Any:
    """A browser context logged in as a new account ``name`` on the server at ``base``
    (registered as :func:`helpers.person` does), which it remembers as ``page.base``."""
    page = registered(browser, base, name, **options)
    page.base = base
    return page


def post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A POST in the page's name (its session cookie and CSRF token)."""
    csrf = page.request.get(page.base + "/api/account").json()["csrf"]
    response = page.request.post(
        page.base + path, data=json.dumps(body), headers={"Content-Type": "application/json", "X-CSRF-Token": csrf}
    )
    assert response.ok, response.text()
    return response.json()


def sit_together(ann: Any, bob: Any) -> tuple[str, dict[int, str]]:
    """A started table of Ann (seat 0) and Bob (seat 1), each page at it; (id, tokens).

    Both play on Ann's instance: without Redis, instances share the database (accounts,
    blocks, the queue) but not live updates. A session cookie is the host's, whatever the
    port, so Bob's works there too."""
    bob.base = ann.base
    human = {"kind": "human"}
    table_id = post(ann, "/api/tables", {"rules": "hugo", "seats": [human, human], "first_player": 0})["table"]["id"]
    tokens = {0: post(ann, f"/api/tables/{table_id}/join", {"seat": 0})["token"]}
    tokens[1] = post(bob, f"/api/tables/{table_id}/join", {"seat": 1})["token"]
    post(ann, f"/api/tables/{table_id}/start", {"seat": 0, "token": tokens[0]})
    for page, seat in ((ann, 0), (bob, 1)):
        held = json.dumps(json.dumps({str(seat): tokens[seat]}))
        page.goto(f"{page.base}/api/health")  # the table's origin: its localStorage holds the seat
        page.evaluate(f"localStorage.setItem('ghostparty:tokens:{table_id}', {held})")
        page.goto(f"{page.base}/t/{table_id}")
        page.get_by_test_id("chat-input").wait_for()
    return table_id, tokens


def say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()
    page.get_by_test_id("chat-text").filter(has_text=text).wait_for()


def texts(page: Any) -> list[str]:
    return list(page.get_by_test_id("chat-text").all_text_contents())


def line_of(page: Any, text: str) -> Any:
    return page.get_by_test_id("chat-line").filter(has_text=text)


def finish(base: str, table_id: str, tokens: dict[int, str]) -> None:
    """Play both seats' first legal action over one WebSocket until the game is over."""
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with websockets_sync.connect(url, additional_headers={"Origin": base}) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": {str(s): t for s, t in tokens.items()}, "chat": False}))
        acted = -1  # the version last acted on (an update of presence repeats a version)
        for _ in range(2000):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] not in ("state", "update"):
                continue
            table = message["table"]
            if table["status"] != "playing":
                return
            if message.get("legal") and table["version"] > acted:
                acted = table["version"]
                action = {"type": "act", "seat": table["to_move"], "version": acted, "action": message["legal"][0]}
                time.sleep(0.04)  # within the socket's 30 messages a second
                ws.send(json.dumps(action))
    raise AssertionError("the game did not end")


def test_a_blocked_players_lines_vanish_and_quick_match_keeps_them_apart(
    browser: Any, servers: tuple[str, str, str]
) -> None:
    first, second, _database = servers
    ann, bob = person(browser, first, "Ann"), person(browser, second, "Bobby")
    table_id, tokens = sit_together(ann, bob)
    say(bob, "hello Ann")
    line_of(ann, "hello Ann").wait_for()
    # Ann blocks him from his line: it vanishes, and what he writes next never comes
    line_of(ann, "hello Ann").hover()
    line_of(ann, "hello Ann").get_by_test_id("chat-block").click()
    ann.get_by_test_id("chat-note").filter(has_text="You blocked Bobby").wait_for()
    line_of(ann, "hello Ann").wait_for(state="detached")
    say(bob, "are you there?")
    say(ann, "good game")
    assert texts(ann) == ["good game"]
    line_of(bob, "good game").wait_for()
    assert texts(bob) == ["hello Ann", "are you there?", "good game"]  # he sees no change
    # a reload asks the server afresh: still hidden
    ann.reload()
    line_of(ann, "good game").wait_for()
    assert texts(ann) == ["good game"]
    # the replays of the finished game: hers without him, his with everything
    finish(first, table_id, tokens)
    for page, expected in ((ann, ["good game"]), (bob, ["hello Ann", "are you there?", "good game"])):
        page.goto(f"{page.base}/r/{table_id}")
        page.get_by_test_id("chat-text").filter(has_text="good game").wait_for()
        assert texts(page) == expected
    # Ann's account page lists him, with a way to unblock
    ann.goto(first + "/login")
    ann.get_by_test_id("blocked-player").filter(has_text="Bobby").wait_for()
    # quick-match: Ann on one instance, Bob on the other, never together
    bob.base = second
    for page in (ann, bob):
        page.goto(page.base + "/")
        page.get_by_test_id("quick-card").wait_for()
        page.get_by_test_id("qm-players").select_option("2")
        page.get_by_test_id("qm-bots").select_option("")
        page.get_by_test_id("play-now").click()
        page.wait_for_selector("[data-testid=qm-waiting][data-ticket-state=waiting]")
    time.sleep(2.5)  # both instances form tables every second: still nobody seated
    assert ann.url.endswith("/") and bob.url.endswith("/")
    seated = []
    for base, name in ((second, "Cyd"), (first, "Dee")):
        other = person(browser, base, name)
        other.goto(base + "/")
        other.get_by_test_id("quick-card").wait_for()
        other.get_by_test_id("qm-players").select_option("2")
        other.get_by_test_id("qm-bots").select_option("")
        other.get_by_test_id("play-now").click()
        other.wait_for_url("**/t/*")
        seated.append(other.url.rsplit("/", 1)[1])
    for page in (ann, bob):
        page.wait_for_url("**/t/*")
    tables = {page.url.rsplit("/", 1)[1] for page in (ann, bob)}
    assert tables == set(seated) and len(tables) == 2  # each with one of the newcomers
    for table in tables:
        names = {seat["name"] for seat in api_get(first, f"/api/tables/{table}")["table"]["seats"]}
        assert names != {"Ann", "Bobby"}
    for page in (ann, bob):
        assert page.errors == []


def test_your_own_lines_offer_no_mute_block_or_report_in_any_window_of_yours(
    browser: Any, servers: tuple[str, str, str]
) -> None:
    first, _second, _database = servers
    ann, bob = person(browser, first, "Annika"), person(browser, first, "Bert")
    table_id, _tokens = sit_together(ann, bob)
    # Annika's second window: her account logged in on another browser, without her
    # seat's token (a spectator's page); and a second tab of her first browser (the token).
    elsewhere = new_page(browser, speed="instant")
    elsewhere.goto(first + "/login")
    elsewhere.wait_for_selector("main[data-state=guest]")
    elsewhere.get_by_test_id("login-name").fill("Annika")
    elsewhere.get_by_test_id("login-password").fill(PASSWORD)
    elsewhere.get_by_test_id("login").click()
    elsewhere.wait_for_selector("main[data-state=player]")
    elsewhere.goto(f"{first}/t/{table_id}")
    tab = ann.context.new_page()
    tab.goto(f"{first}/t/{table_id}")
    say(ann, "my own line")
    say(bob, "hello Annika")
    actions = "[data-testid=chat-mute], [data-testid=chat-block], [data-testid=chat-report]"
    for page in (elsewhere, tab, ann):
        line_of(page, "hello Annika").wait_for()
        mine, theirs = line_of(page, "my own line"), line_of(page, "hello Annika")
        assert mine.locator(actions).count() == 0, page.url
        assert theirs.locator(actions).count() == 3  # Bert's: mute, block, report
        assert (mine.get_attribute("data-own"), theirs.get_attribute("data-own")) == ("true", "false")
    # Asked anyway (an API client), blocking herself is refused as what it is, and the
    # page words that code in its language.
    csrf = elsewhere.request.get(first + "/api/account").json()["csrf"]
    refused = elsewhere.request.post(
        first + "/api/blocks",
        data=json.dumps(
            {"table": table_id, "line": int(str(line_of(elsewhere, "my own line").get_attribute("data-id")))}
        ),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
    )
    assert refused.status == 400 and refused.json()["error"]["code"] == "block_self", refused.text()
    told = elsewhere.evaluate(  # the page's own i18n module (its versioned URL), its texts loaded
        """async (error) => {
          const page = document.querySelector('script[type=module]').src;
          return (await import(new URL('../lib/i18n.js', page).href)).errorText(error);
        }""",
        refused.json()["error"],
    )
    assert told == "You can't block yourself: that is your own account."
    for page in (ann, tab, elsewhere, bob):
        assert getattr(page, "errors", []) == []
    for page in (ann, elsewhere, bob):
        page.context.close()


def test_a_report_reaches_a_moderator_who_times_the_player_out(browser: Any, servers: tuple[str, str, str]) -> None:
    first, second, database = servers
    ann, bob = person(browser, first, "Anna"), person(browser, second, "Brutus")
    mona = person(browser, first, "Mona", bypass_csp=True)  # axe-core is injected into her page
    from ghostparty.cli.main import cli

    appointed = CliRunner().invoke(cli, ["admin", "moderator", "Mona", "--database", database])
    assert appointed.exit_code == 0, appointed.output
    _table_id, _tokens = sit_together(ann, bob)
    say(ann, "good luck")
    say(bob, "you are an idiot")
    say(bob, "a total idiot")
    line_of(ann, "a total idiot").wait_for()
    # Ann reports the first of his lines
    line_of(ann, "you are an idiot").hover()
    line_of(ann, "you are an idiot").get_by_test_id("chat-report").click()
    ann.get_by_test_id("report-reason").select_option("insults")
    ann.get_by_test_id("report-text").fill("he keeps insulting me")
    ann.get_by_test_id("report-send").click()
    ann.get_by_test_id("chat-note").filter(has_text="moderators will look").wait_for()
    # Mona's queue: the report with the lines around it
    mona.goto(first + "/")
    mona.get_by_test_id("moderation-link").click()
    mona.wait_for_selector("main[data-state=ok]")
    card = mona.get_by_test_id("report-card").filter(has_text="Brutus")
    card.wait_for()
    assert "he keeps insulting me" in card.inner_text()
    evidence = card.get_by_test_id("evidence-line")
    assert evidence.count() == 3
    assert "you are an idiot" in card.locator("[data-testid=evidence-line][data-reported=true]").inner_text()
    assert _serious(_axe(mona, "the moderators' page")) == []
    # a timeout with a reason; Bob sees it when he tries to write
    card.get_by_test_id("mod-reason").fill("insulting another player")
    card.locator("[data-testid=mod-timeout][data-minutes='15']").click()
    mona.get_by_test_id("mod-status").filter(has_text="Brutus is out of the chat").wait_for()
    bob.get_by_test_id("chat-input").fill("why?")
    bob.get_by_test_id("chat-send").click()
    bob.get_by_test_id("chat-note").filter(has_text="insulting another player").wait_for()
    assert "taken you out of the chat" in bob.get_by_test_id("chat-note").inner_text()
    # the line goes from Ann's page; the report is closed
    card = mona.get_by_test_id("report-card").filter(has_text="Brutus")
    card.get_by_test_id("mod-reason").fill("an insult")
    card.get_by_test_id("mod-remove-line").click()
    mona.get_by_test_id("mod-status").filter(has_text="removed").wait_for()
    line_of(ann, "you are an idiot").wait_for(state="detached")
    assert texts(ann) == ["good luck", "a total idiot"]
    card = mona.get_by_test_id("report-card").filter(has_text="Brutus")
    card.get_by_test_id("mod-reason").fill("dealt with")
    card.get_by_test_id("mod-close").click()
    mona.get_by_test_id("reports-empty").wait_for()
    # the audit log: who, what, whom, why
    rows = mona.get_by_test_id("audit-row")
    assert [rows.nth(i).get_attribute("data-action") for i in range(rows.count())] == [
        "close",
        "remove_line",
        "timeout",
    ]
    timeout_row = mona.locator("[data-testid=audit-row][data-action=timeout]")
    assert "Mona" in timeout_row.inner_text() and "Brutus" in timeout_row.inner_text()
    assert "insulting another player" in timeout_row.inner_text()
    # from Brutus's profile: Anna blocks and unblocks him, and reports his name
    ann.goto(first + "/players/Brutus")
    ann.get_by_test_id("profile-block").click()
    ann.locator("[data-testid=profile-block][data-blocked=true]").wait_for()
    ann.get_by_test_id("profile-block").click()
    ann.locator("[data-testid=profile-block][data-blocked=false]").wait_for()
    ann.get_by_test_id("profile-report").click()
    ann.get_by_test_id("report-reason").select_option("name")
    ann.get_by_test_id("report-send").click()
    ann.get_by_test_id("profile-note").filter(has_text="moderators will look").wait_for()
    mona.reload()
    mona.get_by_test_id("report-card").filter(has_text="Offensive name").wait_for()
    # a player who isn't a moderator gets the page's refusal
    ann.goto(first + "/moderation")
    ann.wait_for_selector("main[data-state=forbidden]")
    for page in (ann, bob, mona):
        assert page.errors == []
