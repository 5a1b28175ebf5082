"""Ghost Party as an installed app, in Debian's Chromium: installable by Chromium's own
check (what Lighthouse's "installable" audit asks), its service worker in control after
a reload, and without the network a page still opens, in the player's language — the
lobby as it was kept, with a bar that says it is offline, and a page never opened the
offline page, whose rules summary works and whose "try again" loads the page once the
network is back.

Each test has its own browser profile (a persistent context: Chromium never finds an
incognito window's app installable, and a worker stays registered in a profile).
Skipped with a message when Playwright or /usr/bin/chromium is missing; never runs
``playwright install``. (Over HTTP: tests/server/http/test_app_shell.py.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARGS, CHROMIUM
from .test_accessibility import AXE, AXE_RUN, FAILING

#: Table ids and seeds of this module's server (tests/browser/conftest.py).
SERVER_SEED = 23
STATIC = Path(__file__).resolve().parents[2] / "src" / "ghostparty" / "web" / "static"
#: Resolves once a service worker is active for the page (its files are kept by then).
READY = "navigator.serviceWorker.ready.then((registration) => registration.active.scriptURL)"


def strings(language: str) -> dict[str, str]:
    return dict(json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8")))


@pytest.fixture
def profile(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """Open a page in a fresh Chromium profile: ``profile(language)`` gives the page."""
    contexts: list[Any] = []

    def open_page(language: str = "en") -> Any:
        context = browser.browser_type.launch_persistent_context(
            str(tmp_path / f"profile-{len(contexts)}"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            locale={"en": "en-US", "de": "de-DE"}[language],
            bypass_csp=True,  # to inject axe-core
        )
        contexts.append(context)
        context.add_init_script(f"localStorage.setItem('ghostparty:lang', {json.dumps(json.dumps(language))});")
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(20000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()


def serious_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in FAILING]


def test_chromium_finds_the_app_installable(profile: Any, base_url: str) -> None:
    page = profile()
    page.goto(base_url + "/")
    assert page.evaluate(READY) == base_url + "/sw.js"
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == base_url + "/manifest.webmanifest"
    assert manifest["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    assert (
        page.locator("meta[name=theme-color]").get_attribute("content") == json.loads(manifest["data"])["theme_color"]
    )
    assert not page.errors, page.errors


def test_the_worker_controls_the_page_after_a_reload_and_keeps_this_versions_files(profile: Any, base_url: str) -> None:
    page = profile()
    page.goto(base_url + "/leaderboard")
    page.evaluate(READY)
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller?.scriptURL") == base_url + "/sw.js"
    version = page.evaluate("document.querySelector('script[type=module]').src").split("/")[4]
    caches = page.evaluate("caches.keys()")
    assert f"ghostparty-assets-{version}" in caches and f"ghostparty-pages-{version}" in caches
    kept = page.evaluate(
        f"caches.open('ghostparty-assets-{version}').then((c) => c.keys()).then((k) => k.map((r) => r.url))"
    )
    assert f"{base_url}/assets/{version}/js/pages/lobby.js" in kept
    assert f"{base_url}/assets/{version}/i18n/de.json" in kept
    assert not [url for url in kept if "/api/" in url]
    assert not page.errors, page.errors


@pytest.mark.parametrize("language", ["en", "de"])
def test_offline_the_lobby_opens_as_kept_and_a_new_page_says_playing_needs_the_network(
    profile: Any, base_url: str, language: str
) -> None:
    text = strings(language)
    page = profile(language)
    page.goto(base_url + "/")
    page.evaluate(READY)
    page.context.set_offline(True)

    page.reload()
    page.get_by_test_id("lobby").wait_for()
    bar = page.get_by_test_id("offline-bar")
    bar.wait_for()
    assert bar.locator("span").text_content() == text["offline.bar"]
    assert page.get_by_test_id("offline-retry").text_content() == text["offline.retry"]
    assert page.evaluate("document.documentElement.lang") == language
    assert page.title() == text["lobby.title"]

    page.goto(base_url + "/leaderboard")  # never opened: the offline page stands in
    page.get_by_test_id("offline-page").wait_for()
    page.wait_for_function("document.documentElement.dataset.lang !== undefined")
    assert page.url == base_url + "/leaderboard"
    assert page.locator("main h1").text_content() == text["offline.heading"]
    assert text["offline.needs_network"] in page.get_by_test_id("offline-page").inner_text()
    assert page.get_by_test_id("offline-bar").count() == 0  # the page says it already
    page.get_by_test_id("rules-help-button").click()
    assert page.get_by_test_id("rules-help").locator("h2").text_content() == text["help.title"]
    assert page.get_by_test_id("rule").count() > 10
    page.get_by_test_id("rules-help-close").click()
    assert serious_violations(page) == []

    page.context.set_offline(False)
    page.get_by_test_id("offline-again").click()
    page.get_by_test_id("leaderboard").wait_for()
    assert page.get_by_test_id("offline-page").count() == 0
    assert not page.errors, page.errors


def test_with_the_server_away_the_kept_lobby_says_it_is_the_kept_copy(profile: Any, tmp_path: Path) -> None:
    """The device is online but the server does not answer: the worker's kept page is
    marked, and shows the bar all the same."""
    from ghostparty.server.app import create_app
    from tests.fixtures.serving import serving

    page = profile()
    with serving(create_app(f"sqlite:///{tmp_path}/games.db", bot_delay=0.0, seed=1)) as port:
        page.goto(f"http://127.0.0.1:{port}/")
        page.evaluate(READY)
    page.reload()  # the server has stopped
    page.get_by_test_id("lobby").wait_for()
    assert page.evaluate("navigator.onLine") is True
    assert page.evaluate("document.documentElement.dataset.kept") == "true"
    page.get_by_test_id("offline-bar").wait_for()
    assert serious_violations(page) == []
    assert not page.errors, page.errors
