"""The game for everyone, in Debian's Chromium: screen readers, the keyboard alone, and
an axe-core scan of every page.

* axe-core (vendored in tests/browser/vendor/, injected into the page) finds no serious or
  critical violation on the lobby, the game page under way and the replay page; the
  violations it does find are printed (``pytest -s``).
* The accessibility tree: the board's squares, rooms and steps are buttons named by
  what they are and who stands there, the position has a description, the log is a
  live region that grows with each action.
* A person plays by keyboard alone, on the board itself: Tab onto it, the arrow keys
  and Enter; the default placement is never the square where Hugo comes up; the
  moves' effects match what the server says they do.
* A person whose seat a bot took over comes back with "I'm back", and the status no
  longer says "bot playing" twice.
* One narration: the live log and the replay tell a game in the same words, with the
  players' names.

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import NEXT, api_get, api_post, new_page

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 13
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
#: axe-core's impacts that fail a page.
FAILING = {"serious", "critical"}

#: Every violation axe-core finds on the page: rule, impact, help and a few elements.
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.length, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}));
}"""


def _page(browser: Any, **options: Any) -> Any:
    """A fresh English page; its CSP lets the test inject axe-core."""
    return new_page(browser, speed="off", bypass_csp=True, **options)


def _table(base_url: str, seats: list[dict[str, Any]], **options: Any) -> str:
    return str(api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats, **options})["table"]["id"])


def _sit(page: Any, base_url: str, table_id: str, seat: int, name: str) -> str:
    token = str(api_post(base_url, f"/api/tables/{table_id}/join", {"seat": seat, "name": name})["token"])
    held = json.dumps({str(seat): token})
    page.context.add_init_script(f"localStorage.setItem('ghostparty:tokens:{table_id}', {json.dumps(held)});")
    return token


def _finished(base_url: str) -> str:
    table_id = _table(base_url, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return table_id


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    """A finished game of two bots."""
    return _finished(base_url)


def _axe(page: Any, what: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is; printed for the record."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not vendored at {AXE}")
    page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    print(f"\naxe-core on {what}: {len(violations)} violation(s)")
    for violation in violations:
        print(
            f"  {violation['impact']:9} {violation['id']}: {violation['help']} ({violation['nodes']}) {violation['targets']}"
        )
    return violations


def _serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in FAILING]


# ---------------------------------------------------------------- axe-core


def test_axe_finds_nothing_serious_on_the_lobby_the_game_and_the_replay(
    browser: Any, base_url: str, finished: str
) -> None:
    page = _page(browser)
    page.goto(base_url + "/")
    page.locator(f"[data-testid=finished-table][data-table='{finished}']").wait_for()
    assert _serious(_axe(page, "the lobby")) == []

    # A game under way, the person to move choosing where to place a guest.
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], first_player=0)
    token = _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function(f"() => ({NEXT})() === 'place'")
    assert _serious(_axe(page, "the game page")) == []

    page.goto(f"{base_url}/r/{finished}")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    page.get_by_test_id("replay-forward").click()
    page.wait_for_function("() => document.querySelector('main').dataset.step === '0'")
    assert _serious(_axe(page, "the replay page")) == []

    page.goto(f"{base_url}/t/{finished}")  # the end of a game: the result panel
    page.get_by_test_id("result").wait_for(state="visible")
    assert _serious(_axe(page, "a finished game's page")) == []
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- the accessibility tree


def test_the_board_has_names_a_description_and_the_log_is_announced(browser: Any, base_url: str) -> None:
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], first_player=0)
    page = _page(browser)
    token = _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function(f"() => ({NEXT})() === 'place'")

    board = page.get_by_role("group", name="Hugo board")
    assert board.count() == 1
    # Every location is a button with a name; only the clickable ones are enabled.
    assert page.get_by_role("button", name=re.compile(r"^G\d+\b")).count() == 40
    assert page.get_by_role("button", name=re.compile(r"^G0, the arrow square")).count() == 1
    assert page.get_by_role("button", name=re.compile(r"^chapel \(")).count() == 1
    assert page.get_by_role("button", name=re.compile(r"^cellar step 10")).count() == 1
    placeable = page.get_by_role("button", name=re.compile("Place a guest here"))
    assert placeable.count() > 30
    assert page.locator("[data-testid=square][aria-disabled=false]").count() == placeable.count()

    # The board says where Hugo is, and the description tells the whole position.
    hugo = page.get_by_role("button", name=re.compile(r": (.*, )?Hugo(\.|$)"))
    assert hugo.count() == 1 and "start" in (hugo.get_attribute("aria-label") or "").lower()
    description = page.get_by_test_id("board-description")
    assert board.get_attribute("aria-describedby") == "board-description"
    assert "Hugo is on" in description.inner_text() and "Ann (Red)" in description.inner_text()

    # The log is a polite live region; a placement appears in it, by the player's name.
    log = page.get_by_test_id("log")
    assert log.get_attribute("aria-live") == "polite"
    page.get_by_role("button", name=re.compile(r"^G17\b")).click()
    page.get_by_role("button", name=re.compile(r"^G17\b[^:]*: a guest of Ann \(Red\)")).wait_for()
    log.get_by_text("Ann places a guest on G17").wait_for()
    assert "G17" in description.inner_text()
    # The status line is a live region too, and never repeats "bot playing".
    assert page.get_by_test_id("status").get_attribute("role") == "status"
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- the keyboard alone

#: What has the keyboard's focus: the test id, the board location, whether clickable.
FOCUS = """() => {
  const node = document.activeElement;
  const legal = node?.closest?.('[data-testid=board]') !== null && node?.getAttribute('aria-disabled') === 'false';
  return {testid: node?.dataset?.testid ?? null, loc: node?.dataset?.square ?? node?.dataset?.location ?? null,
          legal, kind: legal ? (node.dataset.legalKind ?? 'source') : null};
}"""


def _tab_to(page: Any, wanted: Any, limit: int = 80) -> int:
    """Press Tab until ``wanted(focus)``; how many presses it took."""
    for presses in range(limit):
        if wanted(page.evaluate(FOCUS)):
            return presses
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached what was wanted: focus {page.evaluate(FOCUS)}")


def test_a_whole_opening_by_keyboard_alone_on_the_board(browser: Any, base_url: str) -> None:
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], first_player=0)
    page = _page(browser)
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    token = _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page.goto(f"{base_url}/t/{table_id}")

    done: list[str] = []
    tabs: list[int] = []
    effects_seen = 0
    for _ in range(120):
        if sum(1 for action in done if "→" in action) >= 3:
            break
        kind = str(page.wait_for_function(NEXT, timeout=30000).json_value())
        assert kind != "over"
        if kind == "roll":
            tabs.append(_tab_to(page, lambda f: f["testid"] == "roll"))
            page.keyboard.press("Enter")
            done.append("roll")
        elif kind == "pass":
            tabs.append(_tab_to(page, lambda f: f["testid"] == "pass"))
            page.keyboard.press("Enter")
            done.append("pass")
        elif kind == "place":
            tabs.append(_tab_to(page, lambda f: f["legal"] and f["kind"] == "place"))
            square = page.evaluate(FOCUS)["loc"]
            # The default is the safest square: never G0, where Hugo comes onto the gallery.
            assert square != "G0"
            assert page.get_by_test_id("place-select").input_value() == square
            page.keyboard.press("ArrowRight")  # the next free square, safest first
            page.keyboard.press("ArrowLeft")
            assert page.evaluate(FOCUS)["loc"] == square
            page.keyboard.press("Enter")
            page.locator(f"[data-testid=guest][data-guest='0:{square}']").wait_for()
            done.append(f"place {square}")
        else:  # choose a guest (if there is a choice), then where it goes
            tabs.append(_tab_to(page, lambda f: f["legal"]))
            if page.evaluate(FOCUS)["kind"] == "source":
                page.keyboard.press("Enter")
                page.wait_for_function("() => document.activeElement?.dataset.legalKind === 'dest'")
            source = page.locator("[data-testid=board] .selected").first
            start = source.get_attribute("data-square") or source.get_attribute("data-location")
            where = page.evaluate(FOCUS)["loc"]
            # The move's effect, as the server computes it, on the focused destination and in the list.
            last = next(f for f in reversed(frames) if f.get("type") in ("state", "update") and f.get("legal"))
            index = last["legal"].index({"from": start, "to": where})
            label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            button = page.locator(f"[data-testid=move][data-from='{start}'][data-to='{where}']")
            if last["effects"][index]:
                effects_seen += 1
                assert "nothing else happens" not in label
                assert button.get_by_test_id("move-effect").count() == 1
            else:
                assert "nothing else happens" in label
                assert button.get_by_test_id("move-effect").count() == 0
            assert page.get_by_test_id("move-hint").inner_text().startswith(button.inner_text().split(" · ")[0])
            page.keyboard.press("Enter")
            done.append(f"{start} → {where}")
        page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    else:
        pytest.fail(f"no three moves by keyboard: {done}")
    assert sum(1 for action in done if action.startswith("place")) == 6 and "roll" in done
    # After the first action the focus follows the decision: hardly any Tab needed.
    assert sum(tabs[1:]) <= 2 * len(tabs[1:]) // 3, tabs
    print(f"\nkeyboard: {len(done)} actions, Tab presses {tabs}, moves with effects {effects_seen}")
    record = api_get(base_url, f"/api/tables/{table_id}/record")
    placed = [a["place"] for a in record["actions"] if "place" in a]
    assert [f"place {square}" for square in placed[::2]] == [a for a in done if a.startswith("place")]
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- away and back


def test_an_away_player_comes_back_with_im_back(browser: Any, base_url: str) -> None:
    table_id = _table(
        base_url, [{"kind": "human"}, {"kind": "human"}], first_player=0, turn_seconds=5, absent_bot="random"
    )
    page = _page(browser)
    ann = _sit(page, base_url, table_id, 0, "Sam")
    bob = str(api_post(base_url, f"/api/tables/{table_id}/join", {"seat": 1, "name": "Bob"})["token"])
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": ann})
    page.goto(f"{base_url}/t/{table_id}")
    # Sam lets the time run out: a bot plays for Sam, and the page offers the seat back.
    page.locator("[data-testid=seat][data-seat='0'][data-away=true]").wait_for(timeout=35000)  # 5 s + 20 s bank
    back = page.get_by_test_id("im-back")
    back.wait_for()
    assert "Sam (bot playing)" in page.locator("[data-testid=seat][data-seat='0']").inner_text()
    status = page.get_by_test_id("status").inner_text()
    assert status.count("bot playing") <= 1 and "(bot playing)" not in status, status
    back.click()
    # Back at once, or from the next turn if the bot was halfway through Sam's.
    page.wait_for_function(
        "() => { const row = document.querySelector('[data-testid=seat][data-seat=\"0\"]');"
        " return row.dataset.away === 'false' || document.querySelector('[data-testid=away-note]')?.textContent.includes('next turn'); }"
    )
    assert page.get_by_test_id("im-back").count() == 0
    del bob
    assert not page.errors, page.errors
    page.context.close()


# ---------------------------------------------------------------- one narration


def test_the_live_log_and_the_replay_tell_the_game_alike(browser: Any, base_url: str) -> None:
    table_id = _table(base_url, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], first_player=0)
    page = _page(browser)
    token = _sit(page, base_url, table_id, 0, "Ann")
    api_post(base_url, f"/api/tables/{table_id}/start", {"seat": 0, "token": token})
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function(f"() => ({NEXT})() === 'place'")
    # Play the game out through the API as Ann (the first legal action each time).
    for _ in range(800):
        answer = api_get(base_url, f"/api/tables/{table_id}")
        table = answer["table"]
        if table["status"] == "over":
            break
        if table["to_move"] != 0:
            time.sleep(0.02)
            continue
        position = answer["position"]
        action: dict[str, Any]
        action = {"roll": True} if position["phase"] == "roll" else _legal(position)[0]
        body = {"seat": 0, "token": token, "version": table["version"], "action": action}
        try:
            api_post(base_url, f"/api/tables/{table_id}/actions", body)
        except urllib.error.HTTPError:
            continue  # a bot moved meanwhile: the version is stale
    page.get_by_test_id("result").wait_for(state="visible", timeout=30000)
    n = len(api_get(base_url, f"/api/tables/{table_id}/record")["actions"])
    page.wait_for_function("n => document.querySelectorAll('[data-testid=log-entry]').length === n", arg=n)
    for lang in ("en", "de"):
        # The game page (English: the log as it grew, action by action; German: read whole
        # from the state message) and the replay page, in the same language.
        if lang == "en":
            live = page
        else:
            live = _page(browser)
            live.context.add_init_script("localStorage.setItem('ghostparty:lang', '\"de\"');")
            live.goto(f"{base_url}/t/{table_id}")
            live.wait_for_function("n => document.querySelectorAll('[data-testid=log-entry]').length === n", arg=n)
        replay = _page(browser)
        replay.context.add_init_script(f"localStorage.setItem('ghostparty:lang', '\"{lang}\"');")
        replay.goto(f"{base_url}/r/{table_id}")
        replay.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
        told = replay.locator("[data-testid=log] .log-text").all_inner_texts()
        assert live.locator("[data-testid=log] .log-text").all_inner_texts() == told
        assert len(told) == n and all("⟦" not in text for text in told)
        assert any(text.startswith("Ann ") for text in told), told[:5]
        blue = "Blue " if lang == "en" else "Blau "
        assert any(text.startswith(blue) for text in told), told[:5]  # the bot, by its colour
        assert not live.errors and not replay.errors
        live.context.close()
        replay.context.close()


def _legal(position: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal actions in a position (FORMAT.md's), by the rules engine."""
    from ghostparty.rules import action_to_dict, legal_actions, position_from_dict

    return [action_to_dict(a) for a in legal_actions(position_from_dict(position))]
