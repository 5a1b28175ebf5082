"""API tokens on the account page in a real browser (issue 27, item 1): a player makes a
token, sees its secret once (and copies it), the secret works as ``Authorization:
Bearer`` and is nowhere after a reload; the list shows it; revoking it ends it at once.

axe-core finds nothing serious on the page with a new token shown. Skipped with a
message when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from .helpers import new_page
from .test_accessibility import _axe, _serious

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 27
PASSWORD = "castle-at-midnight"


def _with_token(base_url: str, path: str, secret: str) -> tuple[int, Any]:
    request = urllib.request.Request(base_url + path, headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_token_is_made_seen_once_and_revoked(browser: Any, base_url: str) -> None:
    page = new_page(browser, speed="instant", bypass_csp=True)  # the CSP lets axe-core in
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(base_url + "/login")
    page.wait_for_selector("main[data-state=guest]")
    assert page.get_by_test_id("tokens-view").is_hidden()
    page.get_by_test_id("register-name").fill("Tokenia")
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register-password2").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.wait_for_selector("main[data-state=player]")
    page.get_by_test_id("tokens-none").wait_for()

    # No scope chosen: said so, nothing made.
    page.get_by_test_id("token-name").fill("my bot")
    page.get_by_test_id("token-create").click()
    assert "at least one scope" in page.get_by_test_id("token-error").inner_text()
    page.get_by_test_id("token-scope-read").check()
    page.get_by_test_id("token-scope-play").check()
    page.get_by_test_id("token-create").click()
    page.get_by_test_id("token-new").wait_for()
    secret = page.get_by_test_id("token-secret").input_value()
    assert secret.startswith("gp_") and len(secret) == 46
    page.get_by_test_id("token-copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == secret
    row = page.get_by_test_id("api-token").filter(has_text="my bot")
    assert "read, play" in row.inner_text() and "never used" in row.inner_text()
    assert "expires" in row.inner_text()  # 30 days, the form's default

    status, answer = _with_token(base_url, "/api/account", secret)
    assert status == 200 and answer["player"]["name"] == "Tokenia" and answer["scopes"] == ["read", "play"]
    assert _serious(_axe(page, "the account page with a new token")) == []

    # Shown once: after a reload the secret is nowhere on the page; the token is listed.
    page.reload()
    page.wait_for_selector("main[data-state=player]")
    page.get_by_test_id("api-token").first.wait_for()
    assert page.get_by_test_id("token-new").is_hidden()
    assert secret not in page.content()
    assert "last used" in page.get_by_test_id("api-token").first.inner_text()

    # The section in German, in a browser that prefers it.
    german = browser.new_context(locale="de-DE").new_page()
    german.goto(base_url + "/login")
    german.get_by_test_id("login-name").fill("Tokenia")
    german.get_by_test_id("login-password").fill(PASSWORD)
    german.get_by_test_id("login").click()
    german.wait_for_selector("main[data-state=player]")
    assert german.locator("#tokens-heading").inner_text() == "API-Tokens"
    german.get_by_test_id("api-token").first.wait_for()
    listed = german.get_by_test_id("api-token").first.inner_text()
    assert "zuletzt benutzt am" in listed and "Widerrufen" in listed, listed
    german.context.close()

    page.get_by_test_id("api-token").filter(has_text="my bot").get_by_test_id("revoke").click()
    page.get_by_test_id("token-revoked").wait_for()
    assert page.get_by_test_id("tokens-none").is_visible()
    status, answer = _with_token(base_url, "/api/account", secret)
    assert status == 401 and answer["error"]["code"] == "bad_api_token"
    assert page.errors == []
    page.context.close()
