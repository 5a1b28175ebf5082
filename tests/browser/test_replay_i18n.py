"""The replay page, the two languages, the rules summary and the odds panel, in a real
browser (Debian's Chromium driven by Playwright).

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import new_page, replay_positions

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")


def _static() -> Path:
    from ghostparty.server.http.assets import STATIC

    return Path(STATIC)


#: The client's files as the server serves them.
STATIC = _static()


# ---------------------------------------------------------------- server and browser


def _page(browser: Any, *, lang: str | None = "en", speed: str = "off") -> Any:
    """A fresh page (own storage) in a language, with the animation speed preset."""
    return new_page(browser, speed=speed, lang=lang)


def _api(base_url: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def finished(base_url: str) -> dict[str, Any]:
    """A finished two-player hugo game of bots: its id, replay and record."""
    table = _api(
        base_url,
        "/api/tables",
        {"rules": "hugo", "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]},
    )
    table_id = table["table"]["id"]
    deadline = time.monotonic() + 30
    while _api(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return {
        "id": table_id,
        "replay": _api(base_url, f"/api/tables/{table_id}/replay"),
        "record": _api(base_url, f"/api/tables/{table_id}/record"),
    }


# ---------------------------------------------------------------- helpers


def _board_state(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
            const guests = {};
            for (const node of document.querySelectorAll('[data-testid=guest]')) {
                (guests[node.dataset.seat] ??= []).push(node.dataset.loc);
            }
            for (const list of Object.values(guests)) list.sort();
            return {
                step: Number(document.querySelector('main').dataset.step),
                guests,
                hugo: document.querySelector('[data-testid=hugo]').dataset.loc,
            };
        }"""
    )


def _expected(position: dict[str, Any]) -> dict[str, Any]:
    guests = {str(seat): sorted(locs) for seat, locs in enumerate(position["guests"]) if locs}
    return {"guests": guests, "hugo": position["hugo"]}


def _assert_at(page: Any, replay: dict[str, Any], index: int) -> None:
    """The page shows the position after action ``index`` (-1: the start)."""
    try:
        page.wait_for_function(
            "i => document.querySelector('main').dataset.step === String(i) && document.querySelector('main').dataset.busy === 'false'",
            arg=index,
            timeout=10000,
        )
    except sync_api.TimeoutError:
        shown = page.evaluate("JSON.stringify(document.querySelector('main').dataset)")
        pytest.fail(f"the page did not reach step {index}: {shown}, errors {page.errors}")
    shown = _board_state(page)
    position = replay["record"]["start"] if index < 0 else replay_positions(replay)[index]
    assert shown["step"] == index
    assert {"guests": shown["guests"], "hugo": shown["hugo"]} == _expected(position)
    slider = page.get_by_test_id("replay-slider").input_value()
    assert int(slider) == index + 1


def _slide(page: Any, value: int) -> None:
    page.get_by_test_id("replay-slider").evaluate(
        "(node, v) => { node.value = String(v); node.dispatchEvent(new Event('input', {bubbles: true})); }", value
    )


def _load_strings() -> tuple[dict[str, str], dict[str, str]]:
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    de = json.loads((STATIC / "i18n" / "de.json").read_text(encoding="utf-8"))
    return en, de


def _assert_german(page: Any) -> None:
    """No raw key (⟦key⟧) and no English text that German words differently."""
    en, de = _load_strings()
    english = {en[key].strip() for key in en if en[key].strip() != de[key].strip() and len(en[key].strip()) > 3}
    texts: list[str] = page.evaluate(
        """() => {
            const out = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
                const node = walker.currentNode;
                const parent = node.parentElement;
                if (!parent || parent.closest('script, style, [hidden], option:not(:checked)')) continue;
                const text = node.textContent.trim();
                if (text) out.push(text);
            }
            for (const node of document.querySelectorAll('[title], [placeholder], [aria-label]')) {
                for (const attr of ['title', 'placeholder', 'aria-label']) {
                    const value = node.getAttribute(attr);
                    if (value) out.push(value.trim());
                }
            }
            return out;
        }"""
    )
    raw = [text for text in texts if "⟦" in text]
    assert not raw, f"untranslated keys: {raw}"
    leftovers = sorted({text for text in texts if text in english})
    assert not leftovers, f"English left on a German page: {leftovers}"
    assert page.evaluate("document.documentElement.lang") == "de"


# ---------------------------------------------------------------- tests


def test_replay_steps_forward_back_and_jumps(browser: Any, base_url: str, finished: dict[str, Any]) -> None:
    replay = finished["replay"]
    n = len(replay["steps"])
    page = _page(browser, speed="off")
    page.goto(f"{base_url}/r/{finished['id']}")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    assert page.get_by_test_id("replay").get_attribute("data-steps") == str(n)
    _assert_at(page, replay, -1)
    for i in range(4):
        page.get_by_test_id("replay-forward").click()
        _assert_at(page, replay, i)
    page.get_by_test_id("replay-back").click()
    _assert_at(page, replay, 2)
    # The shown action's sentences: the die's face for a roll.
    action = replay["record"]["actions"][2]
    assert page.get_by_test_id("step-line").count() >= 1
    if "roll" in action:
        face = "HUGO" if action["roll"] == "hugo" else str(action["roll"])
        assert face in page.get_by_test_id("step-lines").inner_text()
    # Jumps: the slider, a click on the log, the ends.
    _slide(page, n // 2)
    _assert_at(page, replay, n // 2 - 1)
    page.locator(f"[data-testid=log-entry][data-index='{n - 5}']").click()
    _assert_at(page, replay, n - 5)
    assert page.locator("[data-testid=log-entry][aria-current=step]").get_attribute("data-index") == str(n - 5)
    page.get_by_test_id("replay-last").click()
    _assert_at(page, replay, n - 1)
    assert page.get_by_test_id("replay-forward").is_disabled()
    assert page.get_by_test_id("replay").get_attribute("data-phase") == "over"
    page.get_by_test_id("replay-first").click()
    _assert_at(page, replay, -1)
    # The record download is the table's.
    assert page.get_by_test_id("download").get_attribute("href") == f"/api/tables/{finished['id']}/record"
    assert not page.errors
    page.context.close()


def test_replay_animates_forward_and_plays(browser: Any, base_url: str, finished: dict[str, Any]) -> None:
    replay = finished["replay"]
    page = _page(browser, speed="fast")
    page.goto(f"{base_url}/r/{finished['id']}")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    # Find a step that moves Hugo and animate up to it: the board ends where the step says.
    target = next(i for i, s in enumerate(replay["steps"]) if any(e["type"] == "hugo_moved" for e in s["events"]))
    _slide(page, target)  # shows the position before the step
    _assert_at(page, replay, target - 1)
    page.get_by_test_id("replay-forward").click()
    page.wait_for_function(
        "() => document.querySelector('main').dataset.busy === 'true' || document.querySelector('main').dataset.step !== ''"
    )
    _assert_at(page, replay, target)
    # Play runs on by itself until paused.
    page.get_by_test_id("replay-play").click()
    page.wait_for_function(f"() => Number(document.querySelector('main').dataset.step) >= {target + 2}", timeout=10000)
    page.get_by_test_id("replay-play").click()
    # Paused mid-animation, the step under way still finishes: read where it came to rest.
    page.wait_for_function(
        "() => document.querySelector('main').dataset.playing === 'false' && document.querySelector('main').dataset.busy === 'false'"
    )
    at = int(page.get_by_test_id("replay").get_attribute("data-step"))
    _assert_at(page, replay, at)
    assert not page.errors
    page.context.close()


def test_uploaded_record_replays(browser: Any, base_url: str, finished: dict[str, Any], tmp_path: Path) -> None:
    replay = finished["replay"]
    good = tmp_path / "game.json"
    good.write_text(json.dumps(finished["record"]), encoding="utf-8")
    bad = tmp_path / "bad.json"
    broken = dict(finished["record"], actions=[{"place": "G0"}, {"place": "G0"}])
    bad.write_text(json.dumps(broken), encoding="utf-8")
    page = _page(browser, speed="off")
    page.goto(f"{base_url}/replay")
    page.get_by_test_id("upload-panel").wait_for(state="visible")
    assert page.get_by_test_id("replay").get_attribute("data-source") == "upload"
    # A record whose actions are illegal: the error by its code, in words.
    page.get_by_test_id("record-file").set_input_files(str(bad))
    page.get_by_test_id("upload").click()
    error = page.get_by_test_id("upload-error")
    error.wait_for(state="visible")
    en, _ = _load_strings()
    assert error.inner_text() == en["error.bad_record"]
    # … and the server's reason: which action, and what is wrong with it.
    reason = page.get_by_test_id("upload-reason")
    assert reason.is_visible()
    assert "action 1" in reason.inner_text() and "G0" in reason.inner_text(), reason.inner_text()
    # The real record replays like the table's replay.
    page.get_by_test_id("record-file").set_input_files(str(good))
    page.get_by_test_id("upload").click()
    page.wait_for_function(f"() => document.querySelector('main').dataset.steps === '{len(replay['steps'])}'")
    _assert_at(page, replay, -1)
    page.get_by_test_id("replay-forward").click()
    _assert_at(page, replay, 0)
    _slide(page, len(replay["steps"]))
    _assert_at(page, replay, len(replay["steps"]) - 1)
    assert page.get_by_test_id("download").get_attribute("href").startswith("blob:")
    assert not page.errors
    page.context.close()


def test_replay_in_german_and_the_language_switch(browser: Any, base_url: str, finished: dict[str, Any]) -> None:
    page = _page(browser, lang=None, speed="off")
    page.goto(f"{base_url}/r/{finished['id']}")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    assert page.evaluate("document.documentElement.lang") == "en"
    # Switch: the page comes back in German, and stays German after a reload.
    with page.expect_navigation():
        page.get_by_test_id("language").select_option("de")
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-forward").click()
    page.wait_for_function("() => document.querySelector('main').dataset.step === '1'")
    _assert_german(page)
    assert page.get_by_test_id("replay-play").inner_text() == "Abspielen"
    page.reload()
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    assert page.evaluate("document.documentElement.lang") == "de"
    _assert_german(page)
    page.goto(f"{base_url}/replay")
    page.wait_for_function("() => document.querySelector('main').dataset.source === 'upload'")
    _assert_german(page)
    assert not page.errors
    page.context.close()


def test_rules_help_shows_both_rule_sets_with_section_numbers(
    browser: Any, base_url: str, finished: dict[str, Any]
) -> None:
    for lang, title in (("en", "The rules in short"), ("de", "Die Spielregeln in Kürze")):
        page = _page(browser, lang=lang)
        page.goto(f"{base_url}/r/{finished['id']}")
        page.get_by_test_id("rules-help-button").click()
        dialog = page.get_by_test_id("rules-help")
        dialog.wait_for(state="visible")
        assert title in dialog.inner_text()
        sets = page.get_by_test_id("rules-help-set")
        assert sorted(sets.evaluate_all("nodes => nodes.map(n => n.dataset.rules)")) == ["hugo", "midnight-party"]
        refs = page.get_by_test_id("rule-ref").all_inner_texts()
        assert len(refs) >= 15 and all(ref.startswith("§") for ref in refs)
        assert {"§4.2", "§5.3", "§7", "§8.4", "§8.5"} <= set(refs)
        assert "⟦" not in dialog.inner_text()
        page.get_by_test_id("rules-help-close").click()
        dialog.wait_for(state="hidden")
        page.context.close()


# ---------------------------------------------------------------- lobby and game page


def _seat(base_url: str, table_id: str, seat: int, name: str) -> str:
    return str(_api(base_url, f"/api/tables/{table_id}/join", {"seat": seat, "name": name})["token"])


def _holding(page: Any, table_id: str, tokens: dict[int, str]) -> None:
    held = json.dumps({str(seat): token for seat, token in tokens.items()})
    page.context.add_init_script(f"localStorage.setItem('ghostparty:tokens:{table_id}', {json.dumps(held)});")


def test_lobby_lists_finished_games_with_replays_and_creates_timed_tables(
    browser: Any, base_url: str, finished: dict[str, Any]
) -> None:
    page = _page(browser)
    page.goto(base_url + "/")
    row = page.locator(f"[data-testid=finished-table][data-table='{finished['id']}']")
    row.wait_for()
    assert page.get_by_test_id("upload-link").get_attribute("href") == "/replay"
    # The create form: a turn timer (real-time, or turn-based: an hour to three days a
    # move) and the level of the bot for absent players.
    assert page.get_by_test_id("turn-seconds").evaluate("n => [...n.options].map(o => o.value)") == [
        "",
        "30",
        "60",
        "120",
        "3600",
        "43200",
        "86400",
        "259200",
    ]
    page.get_by_test_id("turn-seconds").select_option("30")
    page.get_by_test_id("absent-bot").select_option("random")
    page.get_by_test_id("your-name").fill("Ann")
    with page.expect_navigation(url="**/t/*"):
        page.get_by_test_id("create").click()
    table_id = page.url.rsplit("/", 1)[1]
    table = _api(base_url, f"/api/tables/{table_id}")["table"]
    assert (table["turn_seconds"], table["absent_bot"]) == (30, "random")
    page.goto(base_url + "/")
    with page.expect_navigation(url="**/r/*"):
        row.get_by_test_id("finished-table-link").click()
    page.wait_for_function("() => document.querySelector('main').dataset.steps !== '0'")
    assert not page.errors
    page.context.close()


def test_lobby_and_game_pages_in_german(browser: Any, base_url: str, finished: dict[str, Any]) -> None:
    page = _page(browser, lang="de")
    page.goto(base_url + "/")
    page.locator(f"[data-testid=finished-table][data-table='{finished['id']}']").wait_for()
    _assert_german(page)
    # An open table, seen by the one who sits there.
    table_id = _api(
        base_url,
        "/api/tables",
        {"rules": "midnight-party", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
    )["table"]["id"]
    _holding(page, table_id, {0: _seat(base_url, table_id, 0, "Ann")})
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    _assert_german(page)
    # Playing: placement, with the odds panel and the rules summary.
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'playing'")
    page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    _assert_german(page)
    page.get_by_test_id("rules-help-button").click()
    page.get_by_test_id("rules-help").wait_for(state="visible")
    _assert_german(page)
    page.get_by_test_id("rules-help-close").click()
    # A finished game: the result and the replay link.
    page.goto(f"{base_url}/t/{finished['id']}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'over'")
    assert page.get_by_test_id("replay-link").get_attribute("href") == f"/r/{finished['id']}"
    _assert_german(page)
    assert not page.errors
    page.context.close()


def test_game_page_rules_help_and_odds_match_the_server(browser: Any, base_url: str) -> None:
    table_id = _api(
        base_url,
        "/api/tables",
        {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "first_player": 0},
    )["table"]["id"]
    token = _seat(base_url, table_id, 0, "Ann")
    page = _page(browser, speed="off")
    _holding(page, table_id, {0: token})
    frames: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", watch)
    page.goto(f"{base_url}/t/{table_id}")
    page.wait_for_function("() => document.querySelector('main').dataset.status === 'open'")
    page.get_by_test_id("start").click()
    # The rules summary is one click away on the game page, with § numbers.
    page.get_by_test_id("rules-help-button").click()
    refs = page.get_by_test_id("rule-ref").all_inner_texts()
    assert "§4.2" in refs and "§8.6" in refs
    page.get_by_test_id("rules-help-close").click()
    # Play the first legal thing until some guest of ours is within Hugo's reach.
    seen_risk = False
    for _ in range(60):
        try:
            page.wait_for_function(
                "() => document.querySelector('main').dataset.busy === 'false' && "
                "(document.querySelector('[data-legal=true]') || document.querySelector('[data-testid=roll]:not([disabled])') "
                "|| document.querySelector('main').dataset.status === 'over')",
                timeout=10000,
            )
        except sync_api.TimeoutError:
            status = page.get_by_test_id("status").inner_text()
            pytest.fail(f"no legal action came up: {status!r}, errors {page.errors}")
        if page.get_by_test_id("table").get_attribute("data-status") == "over":
            break
        last = next(f for f in reversed(frames) if f.get("type") in ("state", "update"))
        odds = page.get_by_test_id("odds-guest").evaluate_all(
            "nodes => nodes.map(n => [n.dataset.location, Number(n.dataset.chance), n.dataset.probability])"
        )
        expected = [[o["location"], o["chance"], o["probability"]] for o in last["odds"]]
        assert sorted(odds) == sorted(expected)
        labels = page.get_by_test_id("odds-label").evaluate_all("nodes => nodes.map(n => n.dataset.location)")
        # Figures over the board only where Hugo may reach: no "0 %" on every guest.
        assert sorted(labels) == sorted(o["location"] for o in last["odds"] if o["chance"] > 0)
        for location, chance, _ in expected:
            shown = page.locator(f"[data-testid=odds-guest][data-location='{location}'] .odds-percent").inner_text()
            assert shown.replace("\u00a0", "").replace(" ", "") == f"{round(chance * 100)}%"
        if any(chance > 0 for _, chance, _ in expected):
            seen_risk = True
            break
        if page.get_by_test_id("roll").count():
            page.get_by_test_id("roll").click()
        elif page.get_by_test_id("move").count():
            page.get_by_test_id("move").first.click()
        elif page.get_by_test_id("pass").count():
            page.get_by_test_id("pass").click()
        else:
            page.locator("[data-legal=true]").first.click()
    assert seen_risk, "no position with a guest in Hugo's reach came up"
    assert not page.errors
    page.context.close()


def test_turn_timer_counts_down_and_an_away_seat_is_shown(browser: Any, base_url: str) -> None:
    table_id = _api(
        base_url,
        "/api/tables",
        {
            "rules": "hugo",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "first_player": 0,
            "turn_seconds": 5,
            "absent_bot": "random",
        },
    )["table"]["id"]
    _seat(base_url, table_id, 0, "Ann")  # Ann never opens the page
    bob = _seat(base_url, table_id, 1, "Bob")
    _api(base_url, f"/api/tables/{table_id}/start", {"seat": 1, "token": bob})
    page = _page(browser)
    _holding(page, table_id, {1: bob})
    page.goto(f"{base_url}/t/{table_id}")
    timer = page.get_by_test_id("turn-timer")
    timer.wait_for(state="visible")
    assert 0 <= int(timer.get_attribute("data-seconds")) <= 5
    assert "Ann" in timer.inner_text()
    # Ann's time runs out: a bot plays for her, and everyone sees it.
    away = page.locator("[data-testid=seat][data-seat='0'][data-away=true]")
    away.wait_for(timeout=35000)  # 5 s, then the 20 s time bank
    assert "Ann (bot playing)" in away.inner_text()
    assert not page.errors
    page.context.close()
