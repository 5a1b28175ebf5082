"""Invitations and friends across two server instances sharing PostgreSQL and Redis.

Ann uses instance one, Bob instance two (as a load balancer may send them). Bob's lobby
socket on instance two hears of Ann's invitation, made on instance one, at once (the
pub/sub through Redis); he accepts it on instance two and instance one seats him. Ann's
Friends list on instance one shows Bob online while his table page is open on instance
two (presence in Redis). Once Bob blocked Ann, her next invitation never reaches him.

Skipped with a message where redis-server or PostgreSQL is missing.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fixtures.serving import serving

from .conftest import RedisServer, wait_until

websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

PASSWORD = "castle-at-midnight"


@pytest.fixture
def instances(redis_server: RedisServer, database: str) -> Iterator[tuple[str, str]]:
    """Two instances on one PostgreSQL database and one Redis: their base URLs."""
    from argon2 import PasswordHasher

    from ghostparty.server.app import create_app

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    apps = [create_app(database, redis_url=redis_server.url, bot_delay=0.0, hasher=cheap) for _ in range(2)]
    with serving(apps[0]) as one, serving(apps[1]) as two:
        yield f"http://127.0.0.1:{one}", f"http://127.0.0.1:{two}"


class Person:
    """An account's requests to one instance (its session cookie and CSRF token)."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.cookie = ""
        self.csrf = ""
        made = self.request("POST", "/api/account/register", {"name": name, "password": PASSWORD}, status=201)
        self.csrf = made["csrf"]

    def request(self, method: str, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf, "Cookie": self.cookie}
        data = json.dumps(body or {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                got, text = response.status, response.read()
                cookie = response.headers.get("Set-Cookie")
        except urllib.error.HTTPError as error:
            got, text, cookie = error.code, error.read(), None
        assert got == status, text
        if cookie and cookie.startswith("gp_session="):
            self.cookie = cookie.split(";", 1)[0]
        return json.loads(text)

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        return self.request("POST", path, body, status)

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def socket(self, path: str) -> Any:
        url = self.base.replace("http://", "ws://") + path
        return websockets_sync.connect(url, additional_headers={"Cookie": self.cookie})


def quiet(ws: Any, seconds: float) -> bool:
    """Whether nothing comes on ``ws`` for ``seconds``."""
    try:
        ws.recv(timeout=seconds)
    except TimeoutError:
        return True
    return False


def test_an_invitation_crosses_instances_and_seats_its_invitee(instances: tuple[str, str]) -> None:
    one, two = instances
    ann, bob = Person(one, "Ann"), Person(two, "Bob")
    ann.post("/api/follows", {"name": "Bob"})
    human = {"kind": "human"}
    table_id = ann.post("/api/tables", {"rules": "hugo", "seats": [human, human]}, status=201)["table"]["id"]
    ann.post(f"/api/tables/{table_id}/join", {"seat": 0})
    with bob.socket("/ws/lobby") as lobby:
        assert json.loads(lobby.recv(timeout=5)) == {"type": "invitations"}  # listening
        sent = time.monotonic()
        ann.post("/api/invitations", {"name": "Bob", "table": table_id}, status=201)
        assert json.loads(lobby.recv(timeout=5)) == {"type": "invitations"}
        latency = time.monotonic() - sent
        [invitation] = bob.get("/api/invitations")["invitations"]
        assert invitation["from"] == "Ann" and invitation["table"] == table_id
        joined = bob.post(f"/api/invitations/{invitation['id']}/accept")
        assert joined["seat"] == 1
        assert json.loads(lobby.recv(timeout=5)) == {"type": "invitations"}  # answered: gone
    # instance one seats him too (one database), and sees his page on instance two
    assert ann.get(f"/api/tables/{table_id}")["table"]["seats"][1]["name"] == "Bob"
    assert ann.get("/api/friends")["friends"] == [
        {
            "name": "Bob",
            "online": False,
            "tables": [{"id": table_id, "status": "open", "rules": "hugo", "players": 2, "online": False}],
        }
    ]
    with bob.socket(f"/ws/tables/{table_id}") as page:
        page.send(json.dumps({"type": "hello", "tokens": {"1": joined["token"]}}))
        assert json.loads(page.recv(timeout=5))["type"] == "state"
        wait_until(lambda: ann.get("/api/friends")["friends"][0]["online"], 5, "Bob online on instance one")
    print(f"invitation heard on the other instance after {latency * 1000:.0f} ms")


def test_a_blocked_inviter_never_reaches_the_other_instance(instances: tuple[str, str]) -> None:
    one, two = instances
    ann, bob = Person(one, "Ann"), Person(two, "Bob")
    bob.post("/api/blocks", {"name": "Ann"})
    human = {"kind": "human"}
    table_id = ann.post("/api/tables", {"rules": "hugo", "seats": [human, human]}, status=201)["table"]["id"]
    ann.post(f"/api/tables/{table_id}/join", {"seat": 0})
    with bob.socket("/ws/lobby") as lobby:
        assert json.loads(lobby.recv(timeout=5)) == {"type": "invitations"}
        answer = ann.post("/api/invitations", {"name": "Bob", "table": table_id}, status=201)
        assert answer["invitation"]["to"] == "Bob"  # Ann is answered as if it were sent
        assert quiet(lobby, 1.0)
    assert bob.get("/api/invitations") == {"invitations": []}
