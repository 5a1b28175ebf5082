"""An arena in the browser on a test clock: five guests join from their own browsers,
two more watch; "10 minutes" of the server's clock pass with at least two pairings each,
each player's page goes to their table when they are paired, the spectators' standings
change live over the socket, and the podium shows at the end. The games themselves are
played by the test through the service (driving every click of ~20 games would take
minutes); the pages see them as any game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .helpers import Clock, api_get, new_page

CLOCK = Clock()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    from ghostparty.server.app import create_app

    folder = tmp_path_factory.mktemp("tournament")
    app = create_app(f"sqlite:///{folder / 'games.db'}", bot_delay=0.0, seed=7, clock=CLOCK)
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}", app


def call(app: Any, coroutine: Any) -> Any:
    """Run ``coroutine`` on the server's event loop and wait for its answer."""
    loop = app.state.parts.accounts.tournament_runner._task.get_loop()
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=60)


async def play_all(app: Any, tournament_id: str) -> int:
    from tests.fixtures.tables import play_humans

    service, store = app.state.parts.service, app.state.parts.accounts.tournaments.store
    played = 0
    for game in await asyncio.to_thread(store.games, tournament_id):
        if (await service.table(game.table_id))["table"]["status"] == "playing":
            await play_humans(service, game.table_id, {game.seats.index(e): t for e, t in game.tokens.items()})
            played += 1
    return played


@contextlib.contextmanager
def runner_held(app: Any) -> Iterator[None]:
    """No pass of the tournament runner meanwhile (it starts, pairs and records nothing):
    what a page shows of the tournament stays put while the test reads it."""
    passing = app.state.parts.accounts.tournament_runner._passing

    async def release() -> None:
        passing.release()

    call(app, passing.acquire())
    try:
        yield
    finally:
        call(app, release())


def wait_for(page: Any, check: Any, timeout: float = 20.0) -> Any:
    """Poll ``check`` while Playwright's events keep coming in (``page.url`` stays current)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        page.wait_for_timeout(200)
    raise AssertionError("timed out")


def test_an_arena_of_five_in_browsers_over_ten_minutes(browser: Any, server: tuple[str, Any]) -> None:
    from ghostparty.server.tournaments.service import Spec

    base_url, app = server
    spec = Spec("arena", "hugo", 2, CLOCK.now + timedelta(minutes=1), minutes=10, turn_seconds=30)
    row = call(app, app.state.parts.accounts.tournaments.create(spec, None))
    url = f"{base_url}/tournaments/{row.id}"

    # the list shows it as upcoming
    lister = new_page(browser, speed="off")
    lister.goto(f"{base_url}/tournaments")
    lister.get_by_test_id("upcoming-list").get_by_test_id("tournament-link").click()
    lister.wait_for_url(url)

    players = []
    for name in ("Ann", "Bob", "Cyd", "Dot", "Eve"):
        page = new_page(browser, speed="off")
        page.goto(url)
        page.get_by_label("Your name").fill(name)
        page.get_by_test_id("join").click()
        page.get_by_test_id("leave").wait_for()
        players.append(page)
    spectators = [lister, new_page(browser, speed="off")]
    spectators[1].goto(url)
    for watcher in spectators:
        watcher.wait_for_function("() => document.querySelectorAll('[data-testid=standing-row]').length === 5")
    assert spectators[0].get_by_test_id("join-form").is_visible()  # a spectator may still join

    CLOCK.now += timedelta(minutes=1)  # the start: the runner pairs four, one waits
    first = players[0]
    wait_for(first, lambda: len(api_get(base_url, f"/api/tournaments/{row.id}")["games"]) == 2)
    wait_for(first, lambda: sum("/t/" in p.url for p in players) == 4)  # each seated page went to its table
    seated = next(p for p in players if "/t/" in p.url)
    seated.get_by_test_id("board").wait_for()

    clicked_back = False
    while CLOCK.now < row.starts + timedelta(minutes=10):
        before = sum(s["games"] for s in api_get(base_url, f"/api/tournaments/{row.id}")["standings"])
        played = call(app, play_all(app, row.id))
        if played:
            wait_for(
                first,
                lambda before=before: (
                    sum(s["games"] for s in api_get(base_url, f"/api/tournaments/{row.id}")["standings"]) > before
                ),
            )
        CLOCK.now += timedelta(seconds=40)
        first.wait_for_timeout(1500)  # a pass of the runner pairs the free players
        for page in players:  # back from their tables to the tournament page
            if "/t/" in page.url and not clicked_back:  # the first time by the result panel's link
                page.get_by_test_id("back-to-tournament").click()
                page.wait_for_url(url)
                clicked_back = True
            elif "/t/" in page.url:
                page.goto(url)
    # live: a spectator's standings changed without a reload
    spectators[1].wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=standing-row]')].every(r => Number(r.dataset.games) >= 2)"
    )
    call(app, play_all(app, row.id))  # games under way at the end finish and count
    spectators[1].get_by_test_id("podium").wait_for(timeout=20000)
    places = spectators[1].get_by_test_id("podium-place")
    assert places.count() == 3
    state = api_get(base_url, f"/api/tournaments/{row.id}")
    assert state["tournament"]["status"] == "finished"
    assert [places.nth(i).get_attribute("data-name") for i in range(3)] == [s["name"] for s in state["standings"][:3]]
    assert all(s["games"] >= 2 for s in state["standings"])
    # the other spectator's page hears the same update; its render waits for its own request first
    spectators[0].locator("[data-testid=tournament][data-status=finished]").wait_for(timeout=10000)
    first.goto(url)
    first.get_by_test_id("game-link").first.wait_for()
    assert "/r/" in str(first.get_by_test_id("game-link").first.get_attribute("href"))  # replays once finished
    for page in [*players, *spectators]:
        assert not page.errors, page.errors


def test_axe_finds_nothing_serious_on_the_tournament_pages(browser: Any, server: tuple[str, Any]) -> None:
    from .test_accessibility import _axe, _serious

    base_url, app = server
    listed = api_get(base_url, "/api/tournaments")
    tours = listed["finished"] + listed["running"] + listed["upcoming"]
    if not tours:
        from ghostparty.server.tournaments.service import Spec

        tours = [
            {
                "id": call(
                    app,
                    app.state.parts.accounts.tournaments.create(
                        Spec("swiss", "hugo", 4, CLOCK.now + timedelta(minutes=5), rounds=3), None
                    ),
                ).id
            }
        ]
    page = new_page(browser, speed="off", bypass_csp=True)
    page.goto(f"{base_url}/tournaments")
    page.locator("[data-testid=tournaments][data-state=ok]").wait_for()
    assert _serious(_axe(page, "the tournaments page")) == []
    page.goto(f"{base_url}/tournaments/{tours[0]['id']}")
    page.locator("[data-testid=tournament][data-state=ok]").wait_for()
    assert _serious(_axe(page, "a tournament's page")) == []
    page.keyboard.press("Tab")  # the page is reachable by keyboard: focus lands on a link
    assert page.evaluate("() => document.activeElement && document.activeElement.tagName") in (
        "A",
        "BUTTON",
        "INPUT",
        "SELECT",
    )


def test_create_by_the_form_and_cancel_with_a_reason_the_players_read(browser: Any, server: tuple[str, Any]) -> None:
    base_url, _ = server
    creator = new_page(browser, speed="off")
    answer = creator.request.post(
        f"{base_url}/api/account/register", data={"name": "Hostess", "password": "correct horse battery"}
    )
    assert answer.status == 201, answer.text()
    creator.goto(f"{base_url}/tournaments")
    creator.get_by_label("Kind").select_option("swiss")
    creator.get_by_label("Rounds").fill("3")
    creator.get_by_label("Players a table").select_option("4")
    creator.get_by_test_id("create-submit").click()
    creator.wait_for_url(f"{base_url}/tournaments/*")
    creator.locator("[data-testid=tournament][data-state=ok]").wait_for()
    assert "Swiss" in creator.get_by_test_id("tournament-heading").inner_text()

    player = new_page(browser, speed="off")
    player.goto(creator.url)
    player.get_by_label("Your name").fill("Gus")
    player.get_by_test_id("join").click()
    player.get_by_test_id("leave").wait_for()
    assert player.get_by_test_id("cancel-form").is_hidden()  # only its creator may cancel

    creator.get_by_label("Reason (the players read it)").fill("the hall is closed tonight")
    creator.get_by_test_id("cancel").click()
    reason = player.get_by_test_id("cancel-reason")  # live, over the socket
    reason.wait_for()
    assert "the hall is closed tonight" in reason.inner_text()
    assert player.locator("[data-testid=tournament][data-status=cancelled]").count() == 1
    assert player.get_by_test_id("join-form").is_hidden() and player.get_by_test_id("leave").is_hidden()
    guest = new_page(browser, speed="off")
    guest.goto(f"{base_url}/tournaments")
    guest.get_by_test_id("create-login").wait_for()  # a guest is asked to log in to create
    for page in (creator, player, guest):
        assert not page.errors, page.errors


def _page_in(browser: Any, language: str, **device: Any) -> Any:
    """A fresh page reading ``language`` (the language switch's stored choice)."""
    page = new_page(browser, speed="off", **device)
    page.context.add_init_script(f"localStorage.setItem('ghostparty:lang', '\"{language}\"');")
    return page


# Flaky on a loaded machine: once (in a full CI run) Leave stayed hidden for 20 s after
# "Come back" although the runner was held. A likely cause, since mended: the arena test
# before it had spent the address's reads, so the page's ask for its table was refused.
@pytest.mark.flaky(reruns=2)
def test_a_player_away_at_the_end_reads_why_and_comes_back_with_one_click(
    browser: Any, server: tuple[str, Any]
) -> None:
    """Sam's page stays open at the table but Sam doesn't move (a bot finishes the game):
    the end offers "Back to the tournament", no rematch, and says Sam forfeited (0 points,
    as the standings count it); back on the tournament page Sam reads why they are no
    longer paired and comes back with one click, as the same entry (one "Sam"); the next
    pass of the runner pairs Sam with Bob again and Sam's page goes to that table."""
    from ghostparty.server.tournaments.service import Spec

    base_url, app = server
    spec = Spec("arena", "hugo", 2, CLOCK.now + timedelta(minutes=1), minutes=30, turn_seconds=30)
    row = call(app, app.state.parts.accounts.tournaments.create(spec, None))
    url = f"{base_url}/tournaments/{row.id}"
    pages = {}
    for name in ("Sam", "Bob"):
        page = new_page(browser, speed="off")
        page.goto(url)
        page.get_by_label("Your name").fill(name)
        page.get_by_test_id("join").click()
        page.get_by_test_id("leave").wait_for()
        pages[name] = page
    CLOCK.now += timedelta(minutes=1)  # the start: the runner seats both, their pages go to the table
    for page in pages.values():
        wait_for(page, lambda page=page: "/t/" in page.url)
        page.get_by_test_id("board").wait_for()
    state = api_get(base_url, f"/api/tournaments/{row.id}")
    (game,) = state["games"]
    sam = game["seats"].index("Sam")
    (stored,) = call(app, asyncio.to_thread(app.state.parts.accounts.tournaments.store.games, row.id))
    bob_token = stored.tokens[stored.seats[1 - sam]]

    async def sam_away_bob_plays() -> None:
        from tests.fixtures.tables import play_humans

        await app.state.parts.service.play.set_away(game["table"], sam, away=True)
        await play_humans(app.state.parts.service, game["table"], {1 - sam: bob_token})

    call(app, sam_away_bob_plays())
    for page in pages.values():
        end = page.locator("[data-testid=tournament-end][data-recorded=true]")
        end.wait_for(timeout=20000)
        assert end.get_attribute("data-tournament") == row.id
        assert page.get_by_test_id("again").count() == 0 and page.get_by_test_id("play-again").count() == 0
        forfeit = end.get_by_test_id("forfeit")
        assert forfeit.count() == 1 and forfeit.get_attribute("data-seat") == str(sam)
        assert "Sam forfeited" in forfeit.inner_text() and "0 tournament points" in forfeit.inner_text()
        points = {s["name"]: str(s["points"]) for s in api_get(base_url, f"/api/tournaments/{row.id}")["standings"]}
        shown = end.locator(f"[data-testid=tournament-seat-points][data-seat='{sam}']")
        assert shown.get_attribute("data-points") == points["Sam"] == "0"
        winners = page.get_by_test_id("result-winners")
        if str(sam) in (winners.get_attribute("data-winners") or "").split(","):
            assert "Sam forfeited" in winners.inner_text() and "wins" not in winners.inner_text()

    page = pages["Sam"]
    page.get_by_test_id("back-to-tournament").click()
    page.wait_for_url(url)
    box = page.locator("[data-testid=come-back-box][data-why=away]")
    box.wait_for()
    assert "a bot finished it for you" in page.get_by_test_id("out-note").inner_text()
    assert page.get_by_test_id("join-form").is_hidden() and page.get_by_test_id("leave").is_hidden()
    # Bob waits for an opponent: once Sam is back, the runner's next pass (every second)
    # pairs them and Sam's page goes to the new table. Held off, the page is read first.
    with runner_held(app):
        page.get_by_test_id("come-back").click()  # one click
        page.get_by_test_id("leave").wait_for()
        assert box.is_hidden()
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=standing-row]')].filter(r => r.dataset.name === 'Sam').length === 1"
        )
        standings = api_get(base_url, f"/api/tournaments/{row.id}")["standings"]
        assert sorted((s["name"], s["active"]) for s in standings) == [("Bob", True), ("Sam", True)]
    wait_for(page, lambda: "/t/" in page.url and game["table"] not in page.url)
    page.get_by_test_id("board").wait_for()
    second = api_get(base_url, f"/api/tournaments/{row.id}")["games"]
    assert len(second) == 2 and sorted(second[-1]["seats"]) == ["Bob", "Sam"], second
    for page in pages.values():
        assert not page.errors, page.errors


def test_a_refused_ask_for_ones_table_keeps_what_the_page_knew(browser: Any, server: tuple[str, Any]) -> None:
    """Ida has entered; when the page asks again for her table (another entrant came) and
    is refused (a limit, a moment offline), Leave stays: nothing known is blanked."""
    from ghostparty.server.tournaments.service import Spec

    base_url, app = server
    tournaments = app.state.parts.accounts.tournaments
    spec = Spec("arena", "hugo", 2, CLOCK.now + timedelta(minutes=30), minutes=30, turn_seconds=30)
    row = call(app, tournaments.create(spec, None))
    page = new_page(browser, speed="off")
    page.goto(f"{base_url}/tournaments/{row.id}")
    page.get_by_label("Your name").fill("Ida")
    page.get_by_test_id("join").click()
    page.get_by_test_id("leave").wait_for()
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        error = {"code": "rate_limited", "message": "tournaments are asked for too often", "retry_after": 30}
        route.fulfill(
            status=429,
            content_type="application/json",
            headers={"Retry-After": "30"},
            body=json.dumps({"error": error}),
        )

    page.route("**/api/tournaments/*/me", refuse)
    call(app, tournaments.join(row.id, None, "Joe"))  # a change over the socket: the page asks again
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=standing-row]')].some(r => r.dataset.name === 'Joe')"
    )
    wait_for(page, lambda: refused)
    page.wait_for_timeout(300)
    assert page.get_by_test_id("leave").is_visible(), "a refused ask hid Leave"
    assert page.get_by_test_id("join-form").is_hidden()
    assert not page.errors, page.errors
    page.context.close()


#: A phone held upright, in CSS pixels.
PHONE = (390, 844)


def test_the_tournament_pages_fit_a_phone_in_every_language(browser: Any, server: tuple[str, Any]) -> None:
    """The tournaments list and each tournament's page (a Swiss and an arena with their
    standings, and any the other tests made) in every language the server offers, 390 px
    wide: nothing wider than the screen, so the page never scrolls sideways."""
    from ghostparty.server.tournaments.service import Spec

    base_url, app = server
    tournaments = app.state.parts.accounts.tournaments
    for kind in ("swiss", "arena"):
        more = {"rounds": 3} if kind == "swiss" else {"minutes": 30}
        spec = Spec(kind, "midnight-party", 4, CLOCK.now + timedelta(minutes=5), turn_seconds=30, **more)
        made = call(app, tournaments.create(spec, None))
        for name in ("Maximiliane", "Bartholomäus", "Gus"):
            call(app, tournaments.join(made.id, None, f"{name} {kind[0]}"))
    listed = api_get(base_url, "/api/tournaments")
    paths = ["/tournaments"] + [f"/tournaments/{t['id']}" for part in listed.values() for t in part]
    languages = [language["code"] for language in api_get(base_url, "/api/languages")["languages"]]
    assert {"en", "de"} <= set(languages)
    wide = []
    for language in languages:
        page = _page_in(browser, language, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        for path in paths:
            page.goto(base_url + path)
            page.locator("main[data-state=ok]").wait_for()
            assert page.evaluate("() => document.documentElement.lang") == language
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > PHONE[0]:
                wide.append((language, path, width))
        assert not page.errors, page.errors
        page.context.close()
    assert wide == [], f"wider than a {PHONE[0]} px phone: {wide}"
