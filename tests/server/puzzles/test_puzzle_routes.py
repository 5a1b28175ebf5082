"""The puzzles' API as a player and an attacker use it: what is shown before an attempt,
who is rated and how often, the limits, other sites' pages, bad bodies and actions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from ghostparty.cli.main import cli
from ghostparty.rules import legal_actions, position_from_dict
from ghostparty.rules.notation import actions_to_dicts
from ghostparty.server.app import create_app
from ghostparty.server.puzzles.loading import starter
from ghostparty.server.stores import MemoryStore
from tests.fixtures.accounts import error, freeze_limits, make_client, register

SHOWN = {"id", "rules", "players", "position", "phase", "to_move", "roll", "legal", "rating", "attempts", "solved"}
WHOLE = {p.id: p.puzzle for p in starter()}


def answer_of(puzzle_id: str) -> dict[str, Any]:
    return dict(WHOLE[puzzle_id]["answer"]["action"])


def wrong_of(puzzle_id: str) -> dict[str, Any]:
    return dict(WHOLE[puzzle_id]["alternatives"][0]["action"])


@pytest.fixture
def guest(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as client:
        yield client


def attempt(client: TestClient, puzzle_id: str, action: object, **headers: str) -> Any:
    return client.post(f"/api/puzzles/{puzzle_id}/attempt", json={"action": action}, headers=headers)


def test_a_fresh_server_has_the_starter_set_once(db_url: str) -> None:
    for _ in range(2):  # started again on the same database: nothing added twice
        with make_client(db_url) as client:
            counted = client.get("/api/puzzles/themes").json()["themes"]
            assert {t["theme"] for t in counted} <= {t for p in WHOLE.values() for t in p["themes"]}
            assert sum(t["count"] for t in counted) == sum(len(p["themes"]) for p in WHOLE.values())
    assert len(WHOLE) >= 100
    assert {(p["rules"], p["players"]) for p in WHOLE.values()} == {
        (r, n) for r in ("hugo", "midnight-party") for n in (2, 4)
    }


def test_no_answer_is_shown_before_an_attempt(guest: TestClient) -> None:
    answers: list[Any] = []
    after = None
    for _ in range(25):
        response = guest.get("/api/puzzles/next", params={"after": after} if after else {})
        assert response.status_code == 200
        answers.append(response)
        after = response.json()["puzzle"]["id"]
        answers.append(guest.get(f"/api/puzzles/{after}"))
    answers.append(guest.get("/api/puzzles/daily"))
    for response in answers:
        shown = response.json()["puzzle"]
        assert set(shown) == SHOWN
        text = response.text
        for secret in ("answer", "alternatives", "themes", "reason", "margin", '"win"', "source"):
            assert secret not in text
        assert shown["position"] == json.loads(json.dumps(WHOLE[shown["id"]]["position"]))
        # Every legal action in the rules core's order: nothing in it points at the answer.
        assert shown["legal"] == actions_to_dicts(legal_actions(position_from_dict(shown["position"])))
        assert answer_of(shown["id"]) in shown["legal"] and len(shown["legal"]) >= 2


def test_a_guest_goes_up_from_1500_by_after_and_is_never_rated(guest: TestClient) -> None:
    first = guest.get("/api/puzzles/next?rules=hugo").json()["puzzle"]
    assert first["rules"] == "hugo" and first["rating"] >= 1400
    second = guest.get(f"/api/puzzles/next?rules=hugo&after={first['id']}").json()["puzzle"]
    assert (second["rating"], second["id"]) > (first["rating"], first["id"])
    right = attempt(guest, first["id"], answer_of(first["id"]))
    assert right.status_code == 200, right.text
    body = right.json()
    assert body["correct"] is True and body["rated"] is False
    assert body["rating"] is None and body["streak"] is None
    assert body["puzzle_rating"] == {"before": first["rating"], "after": first["rating"]}
    assert body["answer"] == answer_of(first["id"]) and body["alternatives"][0]["action"] == body["answer"]
    assert set(body["reason"]) == {"en", "de"} and body["margin"] == WHOLE[first["id"]]["margin"]
    assert attempt(guest, first["id"], wrong_of(first["id"])).json()["correct"] is False
    assert guest.get(f"/api/puzzles/{first['id']}").json()["puzzle"] == first  # nothing counted
    assert guest.get("/api/puzzles/me").json() == dict.fromkeys(
        ("rating", "rd", "attempts", "solved", "streak", "best_streak")
    )


def test_only_an_accounts_first_attempt_is_rated(guest: TestClient) -> None:
    csrf = register(guest, "Ann")
    assert guest.get("/api/puzzles/me").json() == {
        "rating": 1500,
        "rd": 350,
        "attempts": 0,
        "solved": 0,
        "streak": 0,
        "best_streak": 0,
    }
    shown = guest.get("/api/puzzles/next").json()["puzzle"]
    assert shown["rating"] >= 1400
    missed = attempt(guest, shown["id"], wrong_of(shown["id"]), **{"x-csrf-token": csrf}).json()
    assert missed["correct"] is False and missed["rated"] is True and missed["streak"] == 0
    assert missed["rating"]["before"] == 1500 and missed["rating"]["after"] < 1500
    assert missed["puzzle_rating"]["after"] > missed["puzzle_rating"]["before"] == shown["rating"]
    me = guest.get("/api/puzzles/me").json()
    puzzle = guest.get(f"/api/puzzles/{shown['id']}").json()["puzzle"]
    assert (puzzle["attempts"], puzzle["solved"]) == (1, 0)
    # Right after the miss, the right answer: answered, nothing changes.
    again = attempt(guest, shown["id"], answer_of(shown["id"]), **{"x-csrf-token": csrf}).json()
    assert again["correct"] is True and again["rated"] is False and again["streak"] == 0
    assert again["rating"] == {"before": me["rating"], "after": me["rating"], "rd": me["rd"]}
    assert again["puzzle_rating"]["before"] == again["puzzle_rating"]["after"] == puzzle["rating"]
    assert guest.get("/api/puzzles/me").json() == me
    assert guest.get(f"/api/puzzles/{shown['id']}").json()["puzzle"] == puzzle
    # The next puzzle is another, near the new rating.
    following = guest.get("/api/puzzles/next").json()["puzzle"]
    assert following["id"] != shown["id"] and following["rating"] >= me["rating"] - 100
    solved = attempt(guest, following["id"], answer_of(following["id"]), **{"x-csrf-token": csrf}).json()
    assert solved["rated"] is True and solved["streak"] == 1 and solved["rating"]["after"] > me["rating"]
    assert guest.get("/api/puzzles/me").json()["best_streak"] == 1


def test_a_logged_in_attempt_needs_the_csrf_header_and_another_sites_page_is_refused(guest: TestClient) -> None:
    csrf = register(guest, "Bob")
    shown = guest.get("/api/puzzles/next").json()["puzzle"]
    assert error(attempt(guest, shown["id"], answer_of(shown["id"]))) == "csrf"
    refused = attempt(
        guest, shown["id"], answer_of(shown["id"]), **{"x-csrf-token": csrf, "sec-fetch-site": "cross-site"}
    )
    assert refused.status_code == 403 and error(refused) == "cross_site"
    other_origin = attempt(guest, shown["id"], answer_of(shown["id"]), origin="https://evil.example")
    assert other_origin.status_code == 403 and error(other_origin) == "cross_site"
    assert guest.get("/api/puzzles/me").json()["attempts"] == 0


def test_bad_bodies_and_actions_are_400_and_unknown_puzzles_404(guest: TestClient) -> None:
    shown = guest.get("/api/puzzles/next").json()["puzzle"]
    url = f"/api/puzzles/{shown['id']}/attempt"
    json_header = {"content-type": "application/json"}
    assert error(guest.post(url, content=b"{not json", headers=json_header)) == "bad_request"
    assert error(guest.post(url, json={"move": {}})) == "bad_request"
    assert error(guest.post(url, json={"action": [1, 2]})) == "bad_request"
    assert error(guest.post(url, json={"action": {"fly": "away"}})) == "bad_request"
    assert error(guest.post(url, json={"action": {"roll": 1}})) == "illegal_action"
    assert error(guest.post(url, json={"action": {"from": "G1", "to": "G40"}})) == "illegal_action"
    assert guest.post(url, content=b'{"action": {}}', headers={"content-type": "text/plain"}).status_code == 415
    assert error(attempt(guest, "nope", {"pass": True})) == "unknown_puzzle"
    assert guest.get("/api/puzzles/nope").status_code == 404
    assert error(guest.get("/api/puzzles/" + "x" * 300)) == "unknown_puzzle"
    assert error(guest.get("/api/puzzles/next?rules=chess")) == "bad_request"
    assert error(guest.get("/api/puzzles/next?theme=mate")) == "bad_request"


def test_floods_of_attempts_and_reads_get_429_with_retry_after(guest: TestClient) -> None:
    freeze_limits(guest)  # a read every half second is given back: a slow machine would see fewer 429s
    shown = guest.get("/api/puzzles/next").json()["puzzle"]
    codes = [attempt(guest, shown["id"], wrong_of(shown["id"])).status_code for _ in range(30)]
    assert codes == [200] * 30
    flooded = attempt(guest, shown["id"], wrong_of(shown["id"]))
    assert flooded.status_code == 429 and int(flooded.headers["retry-after"]) >= 1
    reads = [guest.get("/api/puzzles/themes").status_code for _ in range(130)]
    assert reads.count(429) >= 10 and 429 not in reads[:118]


def test_the_daily_puzzle_is_one_for_everyone_today(guest: TestClient, db_url: str) -> None:
    first = guest.get("/api/puzzles/daily").json()
    with make_client(db_url) as another:  # another instance on the same database
        assert another.get("/api/puzzles/daily").json() == first
    assert len(first["date"]) == 10 and first["puzzle"]["id"] in WHOLE


def test_an_account_that_tried_every_matching_puzzle_gets_no_puzzles(guest: TestClient) -> None:
    csrf = register(guest, "Cyd")
    theme = min(guest.get("/api/puzzles/themes").json()["themes"], key=lambda t: t["count"])
    assert theme["count"] <= 5
    for _ in range(theme["count"]):
        shown = guest.get(f"/api/puzzles/next?theme={theme['theme']}").json()["puzzle"]
        assert theme["theme"] in WHOLE[shown["id"]]["themes"]
        assert attempt(guest, shown["id"], wrong_of(shown["id"]), **{"x-csrf-token": csrf}).json()["rated"]
    assert error(guest.get(f"/api/puzzles/next?theme={theme['theme']}")) == "no_puzzles"


def test_a_server_without_a_database_serves_puzzles_to_guests() -> None:
    with TestClient(create_app(store=MemoryStore(), bot_delay=0.0)) as client:
        shown = client.get("/api/puzzles/next").json()["puzzle"]
        body = attempt(client, shown["id"], answer_of(shown["id"])).json()
        assert body["correct"] is True and body["rated"] is False
        assert client.get("/api/puzzles/me").json()["rating"] is None


def test_puzzles_load_adds_a_file_once(tmp_path: Any, db_url: str) -> None:
    some = {"format": "ghostparty-puzzles/1", "puzzles": list(WHOLE.values())[:3]}
    path = tmp_path / "few.json"
    path.write_text(json.dumps(some), encoding="utf-8")
    runner = CliRunner()
    first = runner.invoke(cli, ["puzzles", "load", str(path), "--database", db_url])
    assert first.exit_code == 0, first.output
    assert "added 3 of 3 puzzles" in first.output
    second = runner.invoke(cli, ["puzzles", "load", str(path), "--database", db_url])
    assert "added 0 of 3 puzzles (3 kept already); 3 in the database" in second.output
    with make_client(db_url) as client:  # not empty: no starter set
        assert client.get("/api/puzzles/next").json()["puzzle"]["id"] in {p["id"] for p in some["puzzles"]}
    path.write_text('{"format": "nope"}', encoding="utf-8")
    bad = runner.invoke(cli, ["puzzles", "load", str(path), "--database", db_url])
    assert bad.exit_code != 0 and "ghostparty-puzzles/1" in bad.output


def test_a_programs_api_token_attempts_with_play_and_reads_with_read(guest: TestClient) -> None:
    csrf = register(guest, "Dora")
    secrets = {}
    for scope in ("read", "play"):
        made = guest.post(
            "/api/account/tokens", json={"name": scope, "scopes": [scope]}, headers={"x-csrf-token": csrf}
        )
        assert made.status_code == 201, made.text
        secrets[scope] = made.json()["secret"]
    guest.cookies.clear()
    shown = guest.get("/api/puzzles/next").json()["puzzle"]
    reader = {"authorization": f"Bearer {secrets['read']}"}
    assert guest.get("/api/puzzles/me", headers=reader).json()["rating"] == 1500
    assert error(attempt(guest, shown["id"], answer_of(shown["id"]), **reader)) == "token_scope"
    player = {"authorization": f"Bearer {secrets['play']}"}
    solved = attempt(guest, shown["id"], answer_of(shown["id"]), **player).json()
    assert solved["rated"] is True and solved["correct"] is True
    assert guest.get("/api/puzzles/me", headers=reader).json()["solved"] == 1
