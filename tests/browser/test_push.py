"""Web Push in a real browser: the service worker shows a pushed notification (delivered
through the DevTools protocol, ``ServiceWorker.deliverPushMessage``) with its Unsubscribe
action, and the account page's switch subscribes this device and ends it.

Headless Chromium without the network can't reach its push service, so the switch is
tried with the browser's ``pushManager`` standing in for it (a subscription with real
keys at a push service's endpoint, as a browser makes); the sending itself is
``tests/server/push/test_push_end_to_end.py``'s. Skipped with a message when Playwright or
/usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.fixtures.push import Device

from .helpers import person

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

SERVER_SEED = 41


def logged_in(browser: Any, base_url: str, name: str) -> Any:
    """A person whose page may show notifications, with the app's service worker."""
    page = person(browser, base_url, name, service_workers="allow")
    page.context.grant_permissions(["notifications"], origin=base_url)
    return page


def registration_id(page: Any, cdp: Any, scope: str, timeout: float = 10.0) -> str:
    """The DevTools protocol's id of the service worker registration of ``scope``."""
    found: dict[str, str] = {}

    def seen(event: dict[str, Any]) -> None:
        for each in event["registrations"]:
            if each["scopeURL"] == scope and not each.get("isDeleted"):
                found["id"] = each["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + timeout
    while "id" not in found:
        assert time.monotonic() < deadline, f"no service worker registration of {scope}"
        page.wait_for_timeout(50)  # lets Playwright deliver the protocol's events
    return found["id"]


#: The scope of the app's worker once it is activated: ``ready`` resolves as soon as there
#: is an active worker, which may still be activating (clearing old caches, claiming the
#: pages), and a push delivered then was now and then never shown (once in CI).
ACTIVATED = """navigator.serviceWorker.register('/sw.js', {scope: '/'})
  .then(() => navigator.serviceWorker.ready)
  .then((r) => r.active.state === 'activated' ? r.scope : new Promise((done) => {
    r.active.addEventListener('statechange', () => { if (r.active.state === 'activated') done(r.scope); });
  }))"""


@pytest.mark.flaky(reruns=2)  # a loaded machine; see ACTIVATED
def test_a_pushed_message_is_shown_with_its_unsubscribe_action(browser: Any, base_url: str) -> None:
    page = logged_in(browser, base_url, "Pushia")
    scope = page.evaluate(ACTIVATED)
    assert scope == base_url + "/"
    cdp = page.context.new_cdp_session(page)
    message = {
        "kind": "invitation",
        "title": "An invitation from Ann",
        "body": "Ann invites you to a game at their table.",
        "url": "/t/abc",
        "unsubscribe": "Unsubscribe",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base_url, "registrationId": registration_id(page, cdp, scope), "data": json.dumps(message)},
    )
    deadline = time.monotonic() + 10
    while not page.evaluate("navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((n) => n.length)"):
        assert time.monotonic() < deadline, "no notification is shown"
        page.wait_for_timeout(100)
    shown = page.evaluate(
        "navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => ns.map((n) => "
        "({title: n.title, body: n.body, data: n.data, actions: n.actions.map((a) => [a.action, a.title])})))"
    )
    assert shown == [
        {
            "title": "An invitation from Ann",
            "body": "Ann invites you to a game at their table.",
            "data": {"url": "/t/abc", "kind": "invitation"},
            "actions": [["unsubscribe", "Unsubscribe"]],
        }
    ]
    assert page.errors == []


def test_the_switch_subscribes_this_device_and_turns_it_off(browser: Any, base_url: str) -> None:
    page = logged_in(browser, base_url, "Switchia")
    device = Device.new("https://fcm.googleapis.com/fcm/send/switchia-device").subscription()
    # The browser's push service stands in: subscribe() gives a subscription with real keys.
    page.evaluate(
        """(json) => {
          let current = null;
          const fake = { endpoint: json.endpoint, toJSON: () => json,
                         unsubscribe: async () => { current = null; return true; } };
          PushManager.prototype.subscribe = async function (options) {
            if (!options.userVisibleOnly || !options.applicationServerKey) throw new Error("bad options");
            window.subscribedWith = options.applicationServerKey;
            current = fake;
            return fake;
          };
          PushManager.prototype.getSubscription = async function () { return current; };
        }""",
        device,
    )
    switch = page.get_by_test_id("push-switch")
    switch.wait_for()
    assert not switch.is_checked()
    switch.click()
    page.get_by_test_id("push-status").filter(has_text="on for this device").wait_for()
    assert switch.is_checked()
    key = page.evaluate("fetch('/api/push/key').then((r) => r.json()).then((j) => j.key)")
    assert page.evaluate("window.subscribedWith") == key
    state = page.evaluate("fetch('/api/account/push').then((r) => r.json())")
    assert state["devices"] == 1
    switch.click()
    page.get_by_test_id("push-status").filter(has_text="off for this device").wait_for()
    assert not switch.is_checked()
    assert page.evaluate("fetch('/api/account/push').then((r) => r.json())")["devices"] == 0
    assert page.errors == []
