"""The analysis board, /analysis, in Debian's Chromium against the real POST /api/analysis:
on a laptop in English and on a phone in German.

* A blank two-player hugo setup lists every option with its win chance, best first and
  marked, written as the language writes percentages; playing one shows the position
  after it, Back (and the arrow keys) walk the line, another option cuts it.
* The address shares the position: opened in a fresh page it shows the same notation,
  and the notation parses as the server's position.
* In phase roll the options are the die's faces with their probabilities; choosing 4
  leads to that roll's choice, whose deep analysis shows a margin beside each chance.
* A pasted position the server refuses shows the server's reason; a limit's 429 says how
  long to wait; the replay's "Analyse this position" opens the step shown.
* No page error, and nothing wider than a phone's screen.

Skipped with a message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import base64
import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ghostparty import Game
from ghostparty.rules import position_to_dict, ruleset, start_position
from tests.analysis.positions import ballroom_placement

from .helpers import api_get, api_post, new_page, replay_positions

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 29
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE = {"viewport": (390, 844), "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Where each test runs: a laptop in English, a phone in German.
SETUPS = [pytest.param({}, "en", id="laptop-en"), pytest.param(PHONE, "de", id="phone-de")]
#: A percentage as each language writes it, one decimal: "31.5%", "31,5 %" (a no-break space).
PERCENT = {"en": r"^\d{1,3}\.\d%$", "de": r"^\d{1,3},\d\u00a0%$"}

#: The page has its answer: ready, not waiting, the options drawn.
READY = """(ply) => {
  const main = document.querySelector('main');
  return main.dataset.state === 'ready' && main.dataset.busy === 'false'
    && (ply === null || main.dataset.ply === String(ply))
    && document.querySelector('[data-testid=options]').dataset.count !== '0';
}"""


def _page(browser: Any, device: dict[str, Any], lang: str) -> Any:
    return new_page(browser, speed="off", lang=lang, **device)


def _ready(page: Any, ply: int | None = None) -> None:
    page.wait_for_function(READY, arg=ply)


def _notation(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.get_by_test_id("notation").input_value()))


def _options(page: Any) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=option]')].map((row) => ({
              action: JSON.parse(row.dataset.action), win: Number(row.dataset.win), best: row.dataset.best === 'true',
              text: row.querySelector('[data-testid=option-win]').textContent,
              probability: row.querySelector('[data-testid=option-probability]')?.textContent ?? null,
              deep: row.querySelector('[data-testid=option-deep]')?.textContent ?? null}))"""
        )
    )


def _fits(page: Any) -> None:
    """Nothing on the page is wider than its window, and nothing went wrong in it."""
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    assert page.errors == []


def _roll_position() -> dict[str, Any]:
    """A two-player hugo game once every guest is placed: the first roll is next."""
    game = Game.from_position(position_to_dict(start_position(ruleset("hugo"), 2)))
    while game.position()["phase"] == "place":
        game.apply(game.legal_actions()[0])
    return dict(game.position())


def _link(position: dict[str, Any]) -> str:
    text = base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")
    return f"/analysis#p={text}"


def _refusal(base_url: str, body: dict[str, Any]) -> str:
    """The server's message for a body it refuses with 400."""
    request = urllib.request.Request(
        base_url + "/api/analysis", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    return str(json.loads(refused.value.read())["error"]["message"])


def _sorted(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "guests": [sorted(locs) for locs in position["guests"]]}


@pytest.fixture(scope="module")
def finished(base_url: str) -> dict[str, Any]:
    """A finished two-player hugo game of bots: its id and replay."""
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    table_id = api_post(base_url, "/api/tables", {"rules": "hugo", "seats": seats})["table"]["id"]
    deadline = time.monotonic() + 60
    while api_get(base_url, f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return {"id": table_id, "replay": api_get(base_url, f"/api/tables/{table_id}/replay")}


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_blank_setup_is_played_taken_back_and_shared(browser: Any, base_url: str, device: Any, lang: str) -> None:
    page = _page(browser, device, lang)
    page.goto(base_url + "/analysis")
    page.get_by_test_id("setup-rules").select_option("hugo")
    page.get_by_test_id("setup-players").select_option("2")
    page.get_by_test_id("setup-start").click()
    _ready(page, 0)
    start = api_post(base_url, "/api/analysis", {"start": {"rules": "hugo", "players": 2}})
    assert _notation(page) == start["position"]
    assert page.locator("main").get_attribute("data-phase") == "place"
    options = _options(page)
    assert len(options) == len(start["options"]) > 1
    assert [o["action"] for o in options] == [o["action"] for o in start["options"]]
    assert options[0]["best"] and not any(o["best"] for o in options[1:])
    assert [o["win"] for o in options] == sorted((o["win"] for o in options), reverse=True)
    for option in options:
        assert option["text"] and re.match(PERCENT[lang], option["text"]), option["text"]
    assert page.get_by_test_id("option-best").count() == 1
    assert page.get_by_test_id("seat-win").count() == 2

    page.get_by_test_id("option-play").first.click()  # the best placement
    _ready(page, 1)
    after = _notation(page)
    assert after == start["options"][0]["after"]
    assert page.locator("main").get_attribute("data-plies") == "1"

    page.get_by_test_id("analysis-back").click()
    _ready(page, 0)
    assert _notation(page) == start["position"]
    page.keyboard.press("ArrowRight")
    _ready(page, 1)
    assert _notation(page) == after
    page.keyboard.press("ArrowLeft")
    _ready(page, 0)

    page.get_by_test_id("option-play").nth(1).click()  # another placement: the line is cut there
    _ready(page, 1)
    other = _notation(page)
    assert other == start["options"][1]["after"] != after
    assert page.locator("main").get_attribute("data-plies") == "1"
    assert page.get_by_test_id("analysis-forward").is_disabled()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.get_by_test_id("copy-notation").click()
    page.wait_for_function("() => document.querySelector('[data-testid=copied]').textContent !== ''")
    assert json.loads(page.evaluate("() => navigator.clipboard.readText()")) == other
    page.get_by_test_id("copy-link").click()
    page.wait_for_function("() => navigator.clipboard.readText().then((text) => text === location.href)")
    _fits(page)

    shared = _page(browser, device, lang)
    shared.goto(page.url)
    _ready(shared, 0)
    assert _notation(shared) == other
    assert shared.get_by_test_id("notation").input_value() == page.get_by_test_id("notation").input_value()
    _fits(shared)
    shared.context.close()
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_a_die_face_is_chosen_and_its_moves_analysed_deeply(
    browser: Any, base_url: str, device: Any, lang: str
) -> None:
    position = _roll_position()
    page = _page(browser, device, lang)
    page.goto(base_url + _link(position))
    _ready(page, 0)
    assert _notation(page) == position
    assert ("Seat 1 (Red)" if lang == "en" else "Platz 1 (Rot)") in page.get_by_test_id("analysis-status").inner_text()
    assert page.get_by_test_id("options").get_attribute("data-phase") == "roll"
    faces = _options(page)
    assert [o["action"] for o in faces] == [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}, {"roll": "hugo"}]
    assert all(o["probability"] and re.match(PERCENT[lang], o["probability"]) for o in faces)

    page.locator("[data-testid=option][data-action='{\"roll\":4}'] [data-testid=option-play]").click()
    _ready(page, 1)
    assert page.locator("main").get_attribute("data-phase") == "move"
    assert _notation(page)["roll"] == 4
    page.get_by_test_id("deep").check()
    page.wait_for_function("() => document.querySelector('main').dataset.deep === 'true'")
    _ready(page, 1)
    deep = [o["deep"] for o in _options(page)]
    assert any("±" in text for text in deep), deep
    page.get_by_test_id("analysis-back").click()
    _ready(page, 0)
    assert _notation(page) == position
    _fits(page)
    page.context.close()


def test_a_placement_is_analysed_deeply(browser: Any, base_url: str) -> None:
    """Ticking Deep on a placement rolls out every square; the clearly best one is first."""
    page = _page(browser, {}, "en")
    page.goto(base_url + _link(ballroom_placement()))
    _ready(page, 0)
    assert page.get_by_test_id("options").get_attribute("data-phase") == "place"
    page.get_by_test_id("deep").check()
    page.wait_for_function("() => document.querySelector('main').dataset.deep === 'true'", timeout=60_000)
    _ready(page, 0)
    options = _options(page)
    assert all("±" in (o["deep"] or "") for o in options), options
    assert options[0]["action"] == {"place": "G25"} and options[0]["best"]
    assert "after each option" in page.get_by_test_id("options-hint").inner_text()
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_refusals_say_why_and_how_long_to_wait(browser: Any, base_url: str, device: Any, lang: str) -> None:
    page = _page(browser, device, lang)
    page.goto(base_url + "/analysis")
    bad = {**_roll_position(), "players": 9}
    reason = _refusal(base_url, {"position": bad})
    page.get_by_test_id("paste").fill(json.dumps(bad))
    page.get_by_test_id("paste-analyse").click()
    alert = page.get_by_test_id("analysis-error")
    alert.wait_for()
    assert alert.get_attribute("role") == "alert"
    assert reason in alert.inner_text()

    page.get_by_test_id("paste").fill("{not json")
    page.get_by_test_id("paste-analyse").click()
    page.wait_for_function("() => document.querySelector('[data-testid=analysis-error]').textContent.includes('JSON')")

    refusal = {"error": {"code": "rate_limited", "message": "at most 60 analyses a minute", "retry_after": 42}}
    page.route(
        "**/api/analysis",
        lambda route: route.fulfill(
            status=429, content_type="application/json", headers={"Retry-After": "42"}, body=json.dumps(refusal)
        ),
    )
    page.get_by_test_id("setup-start").click()
    page.wait_for_function("() => document.querySelector('main').dataset.state === 'failed'")
    assert ("42 seconds" if lang == "en" else "42 Sekunden") in alert.inner_text()
    assert page.get_by_test_id("analysis-retry").is_visible()
    _fits(page)
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), SETUPS)
def test_the_replay_opens_the_analysis_of_the_step_shown(
    browser: Any, base_url: str, finished: dict[str, Any], device: Any, lang: str
) -> None:
    positions = replay_positions(finished["replay"])
    assert len(positions) > 20
    page = _page(browser, device, lang)
    page.goto(f"{base_url}/r/{finished['id']}")
    page.wait_for_selector("main[data-steps]:not([data-steps='0'])")
    step = 14  # after the placements: a roll or a move
    page.get_by_test_id("replay-slider").fill(str(step + 1))
    page.wait_for_function("(step) => document.querySelector('main').dataset.step === String(step)", arg=step)
    link = page.get_by_test_id("analyse-link")
    assert link.get_attribute("href").startswith("/analysis#p=")
    link.click()
    page.wait_for_url("**/analysis#p=*")
    _ready(page, 0)
    assert _sorted(_notation(page)) == _sorted(positions[step])
    _fits(page)
    page.context.close()


def test_axe_finds_nothing_serious_on_the_analysis_board(browser: Any, base_url: str) -> None:
    """axe-core (vendored, as tests/browser/test_accessibility.py uses it) on a position with options."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not vendored at {AXE}")
    page = new_page(browser, speed="off", bypass_csp=True)
    page.goto(base_url + _link(_roll_position()))
    _ready(page, 0)
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
          .map((v) => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}))"""
    )
    assert [v for v in violations if v["impact"] in ("serious", "critical")] == []
    page.context.close()


def test_a_setup_sent_while_the_page_is_starting_is_analysed_once_it_is_ready(browser: Any, base_url: str) -> None:
    """ "Analyse from the start" pressed before the page has its language (the file held
    back) neither reloads the page as a plain form nor is lost."""
    page = _page(browser, {}, "de")
    held: list[Any] = []

    def hold(route: Any) -> None:  # Playwright needs a Python function here, not a builtin
        held.append(route)

    page.route("**/i18n/de.json", hold)
    page.goto(base_url + "/analysis")
    page.get_by_test_id("setup-start").click()
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the language file was not asked for"
    assert "?" not in page.url, f"the form was sent as a plain form: {page.url}"
    for route in held:
        route.continue_()
    _ready(page, 0)
    assert _notation(page)["phase"] == "place" and len(_options(page)) > 1
    assert not page.errors, page.errors
    page.context.close()
