"""Web Push end to end: the server sends through pywebpush to a push service the test runs
on 127.0.0.1, which decrypts what arrives as a browser does (RFC 8291, aes128gcm) and
checks the VAPID header (RFC 8292); an unsubscribed device gets nothing more, and a
device whose push service answers 410 is forgotten."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from starlette.testclient import TestClient

from tests.fixtures.accounts import make_client, register
from tests.fixtures.community import as_player
from tests.fixtures.push import Device, Posted, PushService, unb64url
from tests.server.community.test_friends_routes import open_table
from tests.server.mail.test_email_routes import _turn_based_table


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def decrypted(posted: Posted, device: Device) -> dict[str, Any]:
    assert posted.headers["content-encoding"] == "aes128gcm"
    clear = http_ece.decrypt(posted.body, private_key=device.key, auth_secret=device.auth, version="aes128gcm")
    found: dict[str, Any] = json.loads(clear)
    return found


def vapid_claims(posted: Posted, server_key: str) -> dict[str, Any]:
    """The VAPID JWT's claims, once its signature is checked against the server's key."""
    scheme, _, params = posted.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key  # the key the page subscribed with
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))  # raises if forged
    found: dict[str, Any] = json.loads(unb64url(claims))
    return found


def push_client(db_url: str, service: PushService) -> TestClient:
    return make_client(db_url, push_origins=(service.origin,), push_subject="mailto:ops@example.org")


def test_an_invitation_is_pushed_encrypted_and_signed_then_unsubscribed_devices_get_nothing(
    db_url: str, push_service: PushService
) -> None:
    with push_client(db_url, push_service) as client:
        ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
        key = client.get("/api/push/key").json()["key"]
        phone = Device.new(f"{push_service.origin}/push/bob-phone")
        made = client.post("/api/account/push", json={**phone.subscription(), "language": "de"}, headers=bob)
        assert made.status_code == 201, made.text
        assert made.json()["devices"] == 1 and made.json()["key"] == key
        table_id, _ = open_table(client, ann)
        sent = client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
        assert sent.status_code == 201, sent.text
        [posted] = push_service.wait(1)
        assert posted.path == "/push/bob-phone" and int(posted.headers["ttl"]) > 0
        assert decrypted(posted, phone) == {
            "kind": "invitation",
            "title": "Eine Einladung von Ann",
            "body": "Ann lädt dich zu einer Partie an seinem Tisch ein.",
            "url": f"/t/{table_id}",
            "unsubscribe": "Abbestellen",
        }
        claims = vapid_claims(posted, key)
        assert claims["aud"] == push_service.origin and claims["sub"] == "mailto:ops@example.org"
        assert claims["exp"] > time.time()
        # Unsubscribed: nothing more reaches the device.
        gone = client.request("DELETE", "/api/account/push", json={"endpoint": phone.endpoint}, headers=bob)
        assert gone.status_code == 200, gone.text
        assert client.get("/api/account/push", headers=bob).json()["devices"] == 0
        second, _ = open_table(client, ann)
        assert client.post("/api/invitations", json={"name": "Bob", "table": second}, headers=ann).status_code == 201
        time.sleep(0.3)
        assert len(push_service.posted) == 1


def test_a_device_whose_push_service_says_gone_is_forgotten(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
        kept, lost = Device.new(f"{push_service.origin}/push/kept"), Device.new(f"{push_service.origin}/push/lost")
        push_service.gone.add("/push/lost")
        for device in (kept, lost):
            assert client.post("/api/account/push", json=device.subscription(), headers=bob).status_code == 201
        assert client.get("/api/account/push", headers=bob).json()["devices"] == 2
        table_id, _ = open_table(client, ann)
        assert client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann).status_code == 201
        posted = push_service.wait(2)
        assert sorted(p.path for p in posted) == ["/push/kept", "/push/lost"]
        deadline = time.monotonic() + 5
        while client.get("/api/account/push", headers=bob).json()["devices"] != 1:
            assert time.monotonic() < deadline, "the gone device is still kept"
            time.sleep(0.05)
        assert decrypted(next(p for p in posted if p.path == "/push/kept"), kept)["title"] == "An invitation from Ann"


def test_your_move_is_pushed_once_per_turn_of_a_turn_based_game(db_url: str, push_service: PushService) -> None:
    clock = Clock()
    with make_client(db_url, push_origins=(push_service.origin,), clock=clock, push_every=3600) as client:
        csrf = register(client, "ann")
        phone = Device.new(f"{push_service.origin}/push/ann")
        chosen = {**phone.subscription(), "kinds": ["move"]}
        assert client.post("/api/account/push", json=chosen, headers={"x-csrf-token": csrf}).status_code == 201
        table_id = _turn_based_table(client, csrf)
        moves = client.app.state.parts.accounts.pusher.moves  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None
        assert portal.call(moves) == 0  # just now: the player may be at the table
        clock.now += timedelta(minutes=2)
        assert portal.call(moves) == 1
        [posted] = push_service.wait(1)
        message = decrypted(posted, phone)
        assert message["kind"] == "move" and message["url"] == f"/t/{table_id}" and table_id in message["body"]
        clock.now += timedelta(hours=6)
        assert portal.call(moves) == 0  # the same turn: once


def test_an_account_gets_only_the_kinds_it_chose(db_url: str, push_service: PushService) -> None:
    with push_client(db_url, push_service) as client:
        ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
        phone = Device.new(f"{push_service.origin}/push/bob")
        chosen = {**phone.subscription(), "kinds": ["move"]}
        assert client.post("/api/account/push", json=chosen, headers=bob).status_code == 201
        assert client.get("/api/account/push", headers=bob).json()["kinds"] == ["move"]
        table_id, _ = open_table(client, ann)
        assert client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann).status_code == 201
        time.sleep(0.3)
        assert push_service.posted == []


def test_a_tournament_about_to_start_is_pushed_to_its_entrants_once(db_url: str, push_service: PushService) -> None:
    clock = Clock()
    clock.now = datetime.now(UTC).replace(microsecond=0)
    options = {"push_origins": (push_service.origin,), "clock": clock, "tournament_every": 3600}
    with make_client(db_url, **options) as client:
        ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
        starts = clock.now + timedelta(minutes=10)
        event = {"kind": "arena", "rules": "hugo", "table_size": 2, "minutes": 30, "turn_seconds": 30}
        made = client.post("/api/tournaments", json={**event, "starts": starts.isoformat()}, headers=ann)
        assert made.status_code == 201, made.text
        tournament = made.json()["id"]
        phone = Device.new(f"{push_service.origin}/push/bob")
        assert client.post("/api/account/push", json=phone.subscription(), headers=bob).status_code == 201
        assert client.post(f"/api/tournaments/{tournament}/join", json={}, headers=bob).status_code == 201
        step = client.app.state.parts.accounts.tournament_runner.step  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None
        portal.call(step)
        time.sleep(0.2)
        assert push_service.posted == []  # ten minutes ahead: not yet
        clock.now = starts - timedelta(minutes=1)
        portal.call(step)
        [posted] = push_service.wait(1)
        message = decrypted(posted, phone)
        assert message["kind"] == "tournament" and message["url"] == f"/tournaments/{tournament}"
        portal.call(step)
        time.sleep(0.2)
        assert len(push_service.posted) == 1  # once
