"""The replay page, the two languages, the rules summary and the odds panel, in a real
browser (Debian's Chromium driven by Playwright).

Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATIC = Path(__file__).resolve().parents[2] / "src" / "ghostparty" / "web" / "static"

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )


# ---------------------------------------------------------------- server and browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole server on a free loopback port, bots without pauses."""
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("replay-i18n") / "games.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0.0, seed=1)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield url
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield launched
        launched.close()


def _page(browser: Any, *, lang: str | None = "en", speed: str = "off") -> Any:
    """A fresh page (own storage) in a language, with the animation speed preset."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    script = f"localStorage.setItem('ghostparty:speed', {json.dumps(json.dumps(speed))});"
    if lang is not None:
        script += f"localStorage.setItem('ghostparty:lang', {json.dumps(json.dumps(lang))});"
    context.add_init_script(script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


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
    position = replay["start"] if index < 0 else replay["steps"][index]["position"]
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
    step = replay["steps"][2]
    assert page.get_by_test_id("step-line").count() >= 1
    if "roll" in step["action"]:
        face = "HUGO" if step["action"]["roll"] == "hugo" else str(step["action"]["roll"])
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
    target = next(s["index"] for s in replay["steps"] if any(e["type"] == "hugo_moved" for e in s["events"]))
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
    page.wait_for_function("() => document.querySelector('main').dataset.playing === 'false'")
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
    assert page.get_by_test_id("upload-panel").is_visible()
    assert page.get_by_test_id("replay").get_attribute("data-source") == "upload"
    # A record whose actions are illegal: the error by its code, in words.
    page.get_by_test_id("record-file").set_input_files(str(bad))
    page.get_by_test_id("upload").click()
    error = page.get_by_test_id("upload-error")
    error.wait_for(state="visible")
    en, _ = _load_strings()
    assert error.inner_text() == en["error.bad_record"]
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


@pytest.mark.xfail(reason="the board's labels (board.js) are translated once the client is committed", strict=False)
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
