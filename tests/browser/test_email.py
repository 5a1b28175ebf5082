"""Email in the browser, against a real SMTP server (aiosmtpd) the test starts: give
and confirm an address on the account page, then, logged out elsewhere, ask for a
reset link, open it, set a new password; the old session ends, the new password logs in;
the email's unsubscribe page removes the address."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import free_port, serving

from .helpers import new_page, screenshot_path

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed (pip install aiosmtpd)")

from tests.fixtures.mail import Inbox, link

NAME = "Annika"
PASSWORD = "castle-at-midnight"
NEW_PASSWORD = "a-new-moon-over-the-gallery"
ADDRESS = "annika@example.org"


@pytest.fixture(scope="module")
def smtp() -> Iterator[Inbox]:
    from aiosmtpd.controller import Controller

    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    handler.url = f"smtp://127.0.0.1:{port}?from=ghosts@example.org"
    yield handler
    controller.stop()


@pytest.fixture(scope="module")
def mail_server(smtp: Inbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole server on a free port, its links to that port, mailing to ``smtp``."""
    from ghostparty.server.app import create_app

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = tmp_path_factory.mktemp("email") / "games.db"
    app = create_app(
        f"sqlite:///{database}",
        bot_delay=0.0,
        smtp_url=smtp.url,
        email_secret="an e2e secret of enough characters",
        public_url=base,
    )
    with serving(app, port):
        yield base


def _state(page: Any, state: str) -> None:
    page.wait_for_selector(f"main[data-state={state}]")


def _log_in(page: Any, base: str, password: str) -> None:
    page.goto(base + "/login")
    _state(page, "guest")
    page.get_by_test_id("login-name").fill(NAME)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login").click()


def test_confirm_an_address_then_reset_the_password_from_the_email(
    browser: Any, mail_server: str, smtp: Inbox, tmp_path: Path
) -> None:
    base = mail_server
    owner = new_page(browser, speed="fast")
    owner.goto(base + "/login")
    _state(owner, "guest")
    owner.get_by_test_id("register-name").fill(NAME)
    owner.get_by_test_id("register-password").fill(PASSWORD)
    owner.get_by_test_id("register-password2").fill(PASSWORD)
    owner.get_by_test_id("register").click()
    _state(owner, "player")

    # the address: given, mailed a link, confirmed from it; then the choices appear
    owner.get_by_test_id("email-address").fill(ADDRESS)
    owner.get_by_test_id("email-save").click()
    owner.get_by_test_id("email-current").filter(has_text="a…@example.org").wait_for()
    assert owner.get_by_test_id("email-choices").is_hidden()
    assert ADDRESS not in owner.content()  # never shown, not even to its owner
    confirm = link(smtp.wait(1)[0], "/email/confirm#")
    owner.goto(confirm)
    _state(owner, "done")
    assert "confirmed" in owner.get_by_test_id("email-note").inner_text()
    owner.goto(base + "/login")
    _state(owner, "player")
    owner.get_by_test_id("email-choices").wait_for()
    owner.get_by_test_id("email-reminders").check()
    owner.get_by_test_id("email-done").filter(has_text="Saved").wait_for()
    owner.screenshot(path=str(screenshot_path("screenshot-email.png", tmp_path)), full_page=True)

    # elsewhere, logged out: "Forgot your password?" mails a reset link
    other = new_page(browser, speed="fast")
    other.goto(base + "/login")
    _state(other, "guest")
    with other.expect_navigation(url="**/email/reset"):
        other.get_by_test_id("forgot-password").click()
    other.get_by_test_id("reset-address").fill(ADDRESS.upper())
    other.get_by_test_id("reset-send").click()
    _state(other, "done")
    reset = link(smtp.wait(2)[1], "/email/reset#")
    other.goto(reset)
    other.get_by_test_id("reset-password").fill(NEW_PASSWORD)
    other.get_by_test_id("reset-password2").fill(NEW_PASSWORD)
    other.get_by_test_id("reset-save").click()
    _state(other, "done")
    assert NAME in other.get_by_test_id("email-note").inner_text()
    assert "#" not in other.url  # the used token is gone from the address bar

    # the old session ended; the old password no longer works, the new one does
    owner.goto(base + "/login")
    _state(owner, "guest")
    _log_in(owner, base, PASSWORD)
    owner.get_by_test_id("login-error").wait_for()
    _log_in(owner, base, NEW_PASSWORD)
    _state(owner, "player")
    # the link worked once
    other.goto(reset)
    other.get_by_test_id("reset-password").fill(NEW_PASSWORD + "2")
    other.get_by_test_id("reset-password2").fill(NEW_PASSWORD + "2")
    other.get_by_test_id("reset-save").click()
    other.get_by_test_id("reset-error").filter(has_text="not valid").wait_for()

    # the reset email's unsubscribe page: one button, and the address is gone
    other.goto(link(smtp.messages[1], "/email/unsubscribe?token="))
    other.get_by_test_id("unsubscribe-button").click()
    _state(other, "done")
    assert "removed" in other.get_by_test_id("email-note").inner_text()
    owner.goto(base + "/login")
    _state(owner, "player")
    owner.get_by_test_id("email-form").wait_for()
    assert owner.get_by_test_id("email-current").is_hidden()
    assert owner.errors == [] and other.errors == []
