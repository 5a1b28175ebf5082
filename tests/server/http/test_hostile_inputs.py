"""What a security review found (session 23), each tried as the attacker did: numbers in
other scripts' digits, ids past a database integer, replays asked for in a loop, a
socket flipping its presence with hello after hello, a guest calling itself what a
deleted account's seats are called."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty.server.accounts.store import FORMER_PLAYER
from ghostparty.server.common.ids import LIMIT, whole_number
from ghostparty.server.http.quotas import REPLAYS
from ghostparty.server.http.socket_limits import STATE_BURST
from ghostparty.server.mail.keys import EmailKeys
from tests.fixtures.accounts import error
from tests.fixtures.community import appoint, as_player, hello, table_of_two, until

SUPERSCRIPT_TWO = "%C2%B2"  # "²": str.isdigit() says yes, int() refuses it


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("42", 42), (str(LIMIT - 1), LIMIT - 1), (str(LIMIT), None), ("²", None), ("٣", None), ("", None),
     ("-1", None), ("+1", None), (" 1", None), ("1_000", None), ("9" * 400, None)],
)  # fmt: skip
def test_a_whole_number_is_ascii_digits_below_the_limit(text: str, number: int | None) -> None:
    assert whole_number(text) == number


def test_an_unsubscribe_token_with_other_digits_is_malformed_not_a_crash() -> None:
    assert EmailKeys.unsubscribe_parts("².reminders.AAAA") is None
    assert EmailKeys.unsubscribe_parts("12.reminders.AAAA") == (12, "reminders")


def test_an_invitation_id_in_other_digits_is_unknown(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    for path in (f"/api/invitations/{SUPERSCRIPT_TWO}/accept", f"/api/invitations/{SUPERSCRIPT_TWO}/decline"):
        answer = client.post(path, json={}, headers=ann)
        assert answer.status_code == 404 and error(answer) == "unknown_invitation", answer.text


def test_the_audit_logs_before_in_other_digits_is_a_bad_request(client: TestClient, db_url: str) -> None:
    mod = as_player(client, "Mona")
    appoint(db_url, "mona")
    answer = client.get(f"/api/moderation/audit?before={SUPERSCRIPT_TWO}", headers=mod)
    assert answer.status_code == 400 and error(answer) == "bad_request", answer.text
    assert client.get("/api/moderation/audit?before=5", headers=mod).status_code == 200


def test_ids_past_a_database_integer_are_refused_not_a_store_failure(client: TestClient, db_url: str) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    mod = as_player(client, "Mona")
    appoint(db_url, "mona")
    table_id, _, _ = table_of_two(client, ann, bob)
    huge = 2**63
    for path, body in [
        ("/api/blocks", {"table": table_id, "line": huge}),
        ("/api/reports", {"reason": "spam", "table": table_id, "line": huge}),
    ]:
        answer = client.post(path, json=body, headers=ann)
        assert answer.status_code == 400 and error(answer) == "bad_request", (path, answer.text)
    removed = client.post(
        "/api/moderation/remove-line", json={"table": table_id, "line": 10**30, "reason": "x"}, headers=mod
    )
    assert removed.status_code == 400, removed.text
    for path, who in [
        ("/api/account/tokens/99999999999999999999999/revoke", ann),
        ("/api/moderation/reports/99999999999999999999999/close", mod),
    ]:
        answer = client.post(path, json={"reason": "abc"}, headers=who)
        assert answer.status_code == 404, (path, answer.text)  # no such route: never the store


def test_replays_are_counted_per_address_before_their_work(client: TestClient) -> None:
    most = REPLAYS[0].count
    answers = [client.get("/api/tables/nosuch/replay").status_code for _ in range(most)]
    assert 429 not in answers  # (unknown: 404, but each counted)
    refused = client.get("/api/tables/nosuch/replay")
    assert refused.status_code == 429 and error(refused) == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    # the upload shares the count, before its body is read
    upload = client.post("/api/replay", content=b"{}", headers={"content-type": "application/json"})
    assert upload.status_code == 429 and error(upload) == "rate_limited"


def test_a_flood_of_hellos_is_refused_and_a_flood_of_syncs_gets_one_state_later(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    table_id, ann_token, _ = table_of_two(client, ann, bob)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as flipper, client.websocket_connect(url) as watcher:
        hello(watcher, None, None)
        sent = 0
        for turn in range(int(STATE_BURST) + 5):
            flipper.send_json({"type": "hello", "tokens": {"0": ann_token} if turn % 2 == 0 else {}})
            sent += 1
        answers = [_next_kind(flipper, {"state", "error"}) for _ in range(sent)]
        states = [a for a in answers if a["type"] == "state"]
        refused = [a for a in answers if a["type"] == "error"]
        assert len(states) == STATE_BURST and len(refused) == 5  # the burst, then no more
        assert {a["code"] for a in refused} == {"rate_limited"} and all(a["retry_after"] >= 1 for a in refused)
        # the watcher was told of the flips the burst allowed, and no more
        flips = _drain(watcher, "update")
        assert len(flips) <= STATE_BURST
        # a sync over the limit is not refused (clients answer an error with a sync): its
        # state comes once the limit allows, one for any number of them
        for _ in range(3):
            flipper.send_json({"type": "sync"})
        assert until(flipper, "state")["table"]["id"] == table_id
        flipper.send_json({"type": "ping"})
        assert _next_kind(flipper, {"state", "pong"})["type"] == "pong"  # no second state queued


def _next_kind(ws: Any, kinds: set[str]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds:
            return message


def _drain(ws: Any, kind: str) -> list[dict[str, Any]]:
    """The ``kind`` messages that came before a pong."""
    ws.send_json({"type": "ping"})
    got = []
    while (message := ws.receive_json())["type"] != "pong":
        if message["type"] == kind:
            got.append(message)
    return got


def test_a_guest_may_not_sit_as_a_former_player(client: TestClient) -> None:
    human = {"kind": "human"}
    made = client.post("/api/tables", json={"rules": "hugo", "seats": [human, human], "first_player": 0})
    table_id = made.json()["table"]["id"]
    for name in (FORMER_PLAYER, "Former  Player", "f0rmer player"):
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": name})
        assert joined.status_code == 400 and error(joined) == "bad_name", (name, joined.text)
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Former"}).status_code == 200
