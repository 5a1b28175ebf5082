"""Personal API tokens (issue 27, items 1 and 6): made on the account page's session,
shown once, stored as a hash, listed, revoked; ``Authorization: Bearer`` on the API
within the token's scopes."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from ghostparty.server.accounts import tokens
from ghostparty.server.accounts.schema import api_tokens
from ghostparty.server.accounts.tokens import TOKEN_PATTERN, check_scopes, check_token_name, new_secret, token_hash
from ghostparty.server.common.errors import ServiceError
from ghostparty.server.infra.limits import Limit
from tests.fixtures.accounts import error, make_client, register

TWO = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}]}


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def make_token(client: TestClient, csrf: str, scopes: list[str], name: str = "bot", **extra: Any) -> dict[str, Any]:
    response = client.post(
        "/api/account/tokens", json={"name": name, "scopes": scopes, **extra}, headers={"X-CSRF-Token": csrf}
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, clock: Clock) -> Iterator[TestClient]:
    with make_client(db_url, clock=clock) as c:
        yield c


# -- the secret ------------------------------------------------------------------------------


def test_a_token_is_256_random_bits_behind_a_prefix() -> None:
    made = {new_secret() for _ in range(200)}
    assert len(made) == 200
    for secret in made:
        assert TOKEN_PATTERN.fullmatch(secret) and secret.startswith("gp_")
        assert len(secret) - 3 == 43  # 32 bytes of base64url, unpadded: 256 bits
    assert token_hash("gp_x") == hashlib.sha256(b"gp_x").hexdigest()


def test_scopes_and_names_are_checked() -> None:
    assert check_scopes(["play", "read"]) == ("read", "play")
    assert check_scopes(["bot:play"]) == ("bot:play",)
    for wrong in ([], ["admin"], "read", None):
        with pytest.raises(ServiceError) as refused:
            check_scopes(wrong)
        assert refused.value.code == "bad_request" and "read, play, bot:play" in refused.value.message
    assert check_token_name("  my bot ") == "my bot"
    for wrong in ("", " ", "x" * 41, "\u3164", "a\nb", 7):
        with pytest.raises(ServiceError):
            check_token_name(wrong)


# -- making, listing, revoking -----------------------------------------------------------------


def test_a_token_is_shown_once_and_kept_only_as_its_hash(client: TestClient, db_url: str) -> None:
    csrf = register(client, "ann")
    made = make_token(client, csrf, ["read", "play"], name="laptop", days=30)
    secret = made["secret"]
    assert TOKEN_PATTERN.fullmatch(secret)
    assert made["token"]["scopes"] == ["read", "play"] and made["token"]["name"] == "laptop"
    assert made["token"]["expires"].startswith("2026-12-26")
    listed = client.get("/api/account/tokens").json()
    assert listed["scopes"] == ["read", "play", "bot:play"]
    assert [t["name"] for t in listed["tokens"]] == ["laptop"]
    assert secret not in str(listed) and listed["tokens"][0]["last_used"] is None
    with create_engine(db_url).connect() as conn:
        rows = conn.execute(select(api_tokens)).all()
    assert [row.hash for row in rows] == [hashlib.sha256(secret.encode()).hexdigest()]
    assert secret not in str(rows)
    assert client.get("/api/account", headers=bearer(secret)).json()["player"]["name"] == "ann"
    assert client.get("/api/account/tokens").json()["tokens"][0]["last_used"] is not None


def test_making_a_token_needs_the_session_and_its_csrf_header(client: TestClient) -> None:
    assert error(client.get("/api/account/tokens")) == "login_required"
    csrf = register(client, "ann")
    no_csrf = client.post("/api/account/tokens", json={"name": "x", "scopes": ["read"]})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
    for body, says in (
        ({"name": "x", "scopes": ["root"]}, "no scope 'root'"),
        ({"name": "x", "scopes": []}, "scopes"),
        ({"name": "x", "scopes": ["read"], "days": 0}, "days"),
        ({"name": "x", "scopes": ["read"], "days": 400}, "days"),
        ({"name": "", "scopes": ["read"]}, "name"),
    ):
        refused = client.post("/api/account/tokens", json=body, headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 400 and error(refused) == "bad_request", refused.text
        assert says in refused.json()["error"]["message"]


def test_revoking_refuses_the_token_at_once(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = make_token(client, csrf, ["read"])
    assert client.get("/api/account", headers=bearer(made["secret"])).status_code == 200
    token_id = made["token"]["id"]
    revoked = client.post(f"/api/account/tokens/{token_id}/revoke", headers={"X-CSRF-Token": csrf})
    assert revoked.json() == {"revoked": token_id}
    refused = client.get("/api/account", headers=bearer(made["secret"]))
    assert refused.status_code == 401 and error(refused) == "bad_api_token"
    assert client.get("/api/account/tokens").json()["tokens"] == []
    again = client.post(f"/api/account/tokens/{token_id}/revoke", headers={"X-CSRF-Token": csrf})
    assert again.status_code == 404 and error(again) == "unknown_token"


def test_nobody_revokes_or_sees_anothers_tokens(client: TestClient) -> None:
    ann = make_token(client, register(client, "ann"), ["read"])
    client.cookies.clear()
    bob_csrf = register(client, "bob")
    assert client.get("/api/account/tokens").json()["tokens"] == []
    other = client.post(f"/api/account/tokens/{ann['token']['id']}/revoke", headers={"X-CSRF-Token": bob_csrf})
    assert other.status_code == 404 and error(other) == "unknown_token"
    assert client.get("/api/account", headers=bearer(ann["secret"])).json()["player"]["name"] == "ann"


def test_an_expired_token_is_refused(client: TestClient, clock: Clock) -> None:
    made = make_token(client, register(client, "ann"), ["read"], days=1)
    client.cookies.clear()
    assert client.get("/api/account", headers=bearer(made["secret"])).status_code == 200
    clock.now += timedelta(days=1)
    refused = client.get("/api/account", headers=bearer(made["secret"]))
    assert refused.status_code == 401 and error(refused) == "bad_api_token"


def test_an_account_holds_at_most_so_many_tokens(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "MOST", 2)
    csrf = register(client, "ann")
    make_token(client, csrf, ["read"])
    make_token(client, csrf, ["read"])
    third = client.post("/api/account/tokens", json={"name": "c", "scopes": ["read"]}, headers={"X-CSRF-Token": csrf})
    assert third.status_code == 409 and error(third) == "too_many_tokens"


def test_making_and_revoking_is_limited_per_account(client: TestClient) -> None:
    csrf = register(client, "ann")
    codes = [
        client.post("/api/account/tokens", json={"name": f"t{i}", "scopes": ["read"]}, headers={"X-CSRF-Token": csrf})
        for i in range(12)
    ]
    assert [r.status_code for r in codes][:10] == [201] * 10
    assert codes[10].status_code == 429 and error(codes[10]) == "rate_limited" and "retry-after" in codes[10].headers


def test_deleting_the_account_deletes_its_tokens(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = make_token(client, csrf, ["read"])
    deleted = client.post(
        "/api/account/delete", json={"password": "correct horse battery"}, headers={"X-CSRF-Token": csrf}
    )
    assert deleted.status_code == 200, deleted.text
    assert error(client.get("/api/account", headers=bearer(made["secret"]))) == "bad_api_token"


# -- scopes ------------------------------------------------------------------------------------


def test_a_play_token_sits_and_plays_as_its_owner_without_csrf(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["play"])
    client.cookies.clear()
    auth = bearer(made["secret"])
    table = client.post("/api/tables", json=TWO, headers=auth).json()["table"]
    joined = client.post(f"/api/tables/{table['id']}/join", json={"seat": 0}, headers=auth)
    assert joined.status_code == 200, joined.text
    assert joined.json()["table"]["seats"][0]["player"] == "ann"
    assert client.post(f"/api/tables/{table['id']}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    seat = {"seat": 0, "token": joined.json()["token"]}
    started = client.post(f"/api/tables/{table['id']}/start", json=seat, headers=auth)
    assert started.status_code == 200, started.text


def test_a_token_outside_its_scope_is_refused_with_403(client: TestClient) -> None:
    csrf = register(client, "ann")
    read = make_token(client, csrf, ["read"])
    play = make_token(client, csrf, ["play"])
    bot = make_token(client, csrf, ["bot:play"])
    client.cookies.clear()
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    for secret in (read["secret"], bot["secret"]):
        refused = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=bearer(secret))
        assert refused.status_code == 403 and error(refused) == "token_scope", refused.text
        assert refused.json()["error"]["needed"] == "play"
    refused = client.get("/api/blocks", headers=bearer(play["secret"]))
    assert refused.status_code == 403 and error(refused) == "token_scope"
    assert client.get("/api/blocks", headers=bearer(read["secret"])).json() == {"blocked": []}
    # Public routes take any current token, of any scope; a bad one is refused even there.
    assert client.get("/api/tables", headers=bearer(bot["secret"])).status_code == 200
    assert error(client.get("/api/tables", headers=bearer(new_secret()))) == "bad_api_token"


def test_no_token_reaches_the_session_only_routes(client: TestClient) -> None:
    csrf = register(client, "ann")
    everything = make_token(client, csrf, ["read", "play", "bot:play"])
    auth = bearer(everything["secret"])
    for path, body in (
        ("/api/account/tokens", {"name": "more", "scopes": ["play"]}),
        (f"/api/account/tokens/{everything['token']['id']}/revoke", None),
        ("/api/account/password", {"old": "correct horse battery", "new": "another long phrase"}),
        ("/api/account/delete", {"password": "correct horse battery"}),
        ("/api/moderation/timeout", {"name": "bob", "minutes": 15, "reason": "x"}),
    ):
        # Even with the session's cookie and CSRF header beside it: the token decides.
        refused = client.post(path, json=body, headers={**auth, "X-CSRF-Token": csrf})
        assert refused.status_code == 403 and error(refused) == "session_only", path
    assert client.get("/api/account/tokens", headers=auth).status_code == 403
    assert client.get("/api/account").json()["player"]["name"] == "ann"  # still there


def test_an_unsafe_bearer_request_without_cookies_passes_the_cross_site_check(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["play"])
    cookies = dict(client.cookies)
    client.cookies.clear()
    cross = {"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example"}
    passed = client.post("/api/tables", json=TWO, headers={**bearer(made["secret"]), **cross})
    assert passed.status_code == 201, passed.text
    # With the visitor's cookie, a cross-site request is refused, whatever it carries.
    client.cookies.update(cookies)
    refused = client.post("/api/tables", json=TWO, headers={**bearer(made["secret"]), **cross})
    assert refused.status_code == 403 and error(refused) == "cross_site"


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    ["Bearer ", "Bearer gp_short", "Bearer " + "x" * 5000, "Bearer gp_" + "A" * 43, b"bearer \xc3\xa9\xc3\xa9"],
)
def test_garbage_tokens_get_the_error_format(client: TestClient, header: str | bytes) -> None:
    refused = client.get("/api/account", headers={"Authorization": header})
    assert refused.status_code == 401 and error(refused) == "bad_api_token"
    assert "make a new one" in refused.json()["error"]["message"]


def test_guessing_tokens_is_throttled_per_address_before_the_look_up(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["read"])
    client.cookies.clear()
    codes = [error(client.get("/api/account", headers=bearer(new_secret()))) for _ in range(tokens.FAILURES.count)]
    assert codes == ["bad_api_token"] * tokens.FAILURES.count
    refused = client.get("/api/account", headers=bearer(new_secret()))
    assert refused.status_code == 429 and error(refused) == "rate_limited" and int(refused.headers["retry-after"]) > 0
    # Throttled before the look-up: even the right token waits, from this address.
    assert error(client.get("/api/account", headers=bearer(made["secret"]))) == "rate_limited"


def test_good_tokens_give_their_attempt_back(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["read"])
    client.cookies.clear()
    for _ in range(tokens.FAILURES.count * 2):
        assert client.get("/api/account", headers=bearer(made["secret"])).status_code == 200


def test_each_token_has_its_own_rate_limit(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "PER_TOKEN", Limit(3, 60, "at most 3 requests a minute with one API token"))
    csrf = register(client, "ann")
    one, two = make_token(client, csrf, ["read"]), make_token(client, csrf, ["read"])
    client.cookies.clear()
    codes = [client.get("/api/account", headers=bearer(one["secret"])).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get("/api/account", headers=bearer(two["secret"])).status_code == 200


def test_a_guessers_address_is_throttled_and_nobody_elses(db_url: str) -> None:
    """A real server (uvicorn believes ``X-Forwarded-For`` from loopback, as from a proxy)."""
    import json
    import urllib.error
    import urllib.request

    from ghostparty.server.app import create_app
    from tests.fixtures.accounts import CHEAP
    from tests.fixtures.serving import serving

    def get(port: int, secret: str, address: str) -> tuple[int, str]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/account", headers={**bearer(secret), "X-Forwarded-For": address}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, ""
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())["error"]["code"]

    with TestClient(create_app(db_url, bot_delay=0.0, hasher=CHEAP)) as setup:
        made = make_token(setup, register(setup, "ann"), ["read"])
    with serving(create_app(db_url, bot_delay=0.0, hasher=CHEAP)) as port:
        guesses = [get(port, new_secret(), "198.51.100.7") for _ in range(tokens.FAILURES.count + 5)]
        assert guesses[: tokens.FAILURES.count] == [(401, "bad_api_token")] * tokens.FAILURES.count
        assert set(guesses[tokens.FAILURES.count :]) == {(429, "rate_limited")}
        assert get(port, made["secret"], "198.51.100.7") == (429, "rate_limited")
        assert get(port, made["secret"], "203.0.113.5") == (200, "")


def test_a_store_failure_is_not_counted_as_a_guess_nor_fails_on_bookkeeping() -> None:
    import asyncio

    from ghostparty.server.accounts.store import Player
    from ghostparty.server.accounts.tokens import ApiTokens
    from ghostparty.server.accounts.tokens_store import TokenInfo
    from ghostparty.server.bus.pubsub import MemoryPubSub
    from ghostparty.server.infra.limits import MemoryLimiter

    when = datetime(2026, 11, 26, tzinfo=UTC)
    secret = new_secret()
    info = TokenInfo(1, 7, "bot", ("read",), when, None, None)

    class Flaky:
        down = True

        def look_up(self, hashed: str, now: datetime) -> Any:
            if self.down:
                raise OSError("connection refused")
            return info, Player(7, "ann", "user", None, when), hashed

        def touch(self, token_id: int, now: datetime) -> None:
            raise OSError("connection refused")

    store = Flaky()
    api = ApiTokens(store, MemoryLimiter(), MemoryPubSub(), clock=lambda: when)  # type: ignore[arg-type]

    async def attempts() -> list[str]:
        codes = []
        for _ in range(tokens.FAILURES.count + 5):
            try:
                await api.authenticate(secret, "192.0.2.1")
            except ServiceError as refused:
                codes.append(refused.code)
        store.down = False
        found = await api.authenticate(secret, "192.0.2.1")  # touch fails: logged, not refused
        assert found.player.name == "ann"
        return codes

    assert set(asyncio.run(attempts())) == {"unavailable"}
