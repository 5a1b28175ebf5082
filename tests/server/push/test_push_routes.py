"""The push routes refuse what they should: other sites' pages, a missing CSRF token,
guests, floods, malformed subscriptions, endpoints that are not a push service's, and
someone else's endpoint."""

from __future__ import annotations

from typing import Any

from tests.fixtures.accounts import error
from tests.fixtures.community import as_player
from tests.fixtures.push import Device, PushService
from tests.server.push.test_push_end_to_end import push_client


def test_subscribing_needs_this_site_the_csrf_token_and_an_account(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann = as_player(client, "Ann")
        device = Device.new(f"{push_service.origin}/push/a").subscription()
        cross = client.post("/api/account/push", json=device, headers={**ann, "sec-fetch-site": "cross-site"})
        assert cross.status_code == 403 and error(cross) == "cross_site"
        no_csrf = client.post("/api/account/push", json=device, headers={"cookie": ann["cookie"]})
        assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
        guest = client.post("/api/account/push", json=device)
        assert guest.status_code == 401 and error(guest) == "login_required"
        unsub = client.request("DELETE", "/api/account/push", json={"endpoint": device["endpoint"]})
        assert unsub.status_code == 401
        assert client.get("/api/account/push", headers=ann).json()["devices"] == 0


def test_bad_bodies_are_refused_saying_what_is_wrong(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann = as_player(client, "Ann")
        good = Device.new(f"{push_service.origin}/push/a").subscription()
        bad: list[tuple[dict[str, Any], str]] = [
            ({**good, "endpoint": "http://169.254.169.254/latest"}, "push service"),
            ({**good, "endpoint": "https://evil.example/push"}, "push service"),
            ({**good, "endpoint": "https://fcm.googleapis.com:8443/x"}, "push service"),
            ({**good, "endpoint": "https://x.push.apple.com@10.0.0.1/x"}, "push service"),
            ({**good, "endpoint": "https://10.0.0.1\\@fcm.googleapis.com/x"}, "backslashes"),
            ({**good, "endpoint": "https://fcm.googleapis.com/x\ny"}, "control characters"),
            ({**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, "P-256"),
            ({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}}, "16 bytes"),
            ({**good, "kinds": ["spam"]}, "kinds"),
            ({**good, "extra": 1}, "extra"),
            ({"endpoint": good["endpoint"]}, "keys"),
            ({**good, "endpoint": "x" * 1001}, "endpoint"),
        ]
        for body, says in bad:
            response = client.post("/api/account/push", json=body, headers=ann)
            assert response.status_code == 400, (body, response.text)
            assert error(response) == "bad_request" and says in response.json()["error"]["message"], response.text
        assert client.get("/api/account/push", headers=ann).json()["devices"] == 0


def test_nobody_ends_someone_elses_subscription_without_its_secret(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann, mallory = as_player(client, "Ann"), as_player(client, "Mallory")
        device = Device.new(f"{push_service.origin}/push/ann")
        assert client.post("/api/account/push", json=device.subscription(), headers=ann).status_code == 201
        endpoint = device.endpoint
        theirs = client.request("DELETE", "/api/account/push", json={"endpoint": endpoint}, headers=mallory)
        assert theirs.status_code == 404 and error(theirs) == "not_found"
        guessed = client.request(
            "DELETE", "/api/account/push", json={"endpoint": endpoint, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}
        )
        assert guessed.status_code == 404
        assert client.get("/api/account/push", headers=ann).json()["devices"] == 1
        # The device's own service worker: the endpoint and its auth secret, no session.
        auth = device.subscription()["keys"]["auth"]
        own = client.request("DELETE", "/api/account/push", json={"endpoint": endpoint, "auth": auth})
        assert own.status_code == 200
        assert client.get("/api/account/push", headers=ann).json()["devices"] == 0


def test_subscription_changes_are_limited_per_account(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann = as_player(client, "Ann")
        codes = [
            client.post(
                "/api/account/push", json=Device.new(f"{push_service.origin}/push/{n}").subscription(), headers=ann
            ).status_code
            for n in range(21)
        ]
        assert codes[:20] == [201] * 20 and codes[20] == 429
        assert client.get("/api/account/push", headers=ann).json()["devices"] == 10  # the oldest made way


def test_the_notifications_follow_the_language_the_account_chooses(db_url: str, push_service: PushService) -> None:
    from ghostparty.server.common.names import name_key

    with push_client(db_url, push_service) as client:
        ann = as_player(client, "Ann")
        device = Device.new(f"{push_service.origin}/push/ann").subscription()
        assert client.post("/api/account/push", json={**device, "language": "en"}, headers=ann).status_code == 201
        parts = client.app.state.parts.accounts  # type: ignore[attr-defined]
        player = parts.accounts.store.player_by_key(name_key("Ann"))
        assert parts.pusher.store.choices(player.id).language == "en"
        chosen = client.post("/api/account/language", json={"language": "pl"}, headers=ann)
        assert chosen.status_code == 200, chosen.text
        assert parts.pusher.store.choices(player.id).language == "pl"
