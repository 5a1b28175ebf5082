"""``POST /api/analysis``, the analysis board's endpoint: what it answers, and the ways
people try to abuse it (bad positions, huge and deep bodies, cross-site requests,
floods from one address and one account, more at once than the instance works on)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty.analysis.explore import explore
from ghostparty.rules import (
    MOVE,
    action_from_dict,
    apply,
    legal_actions,
    position_from_dict,
    position_to_dict,
    ruleset,
    start_position,
)
from ghostparty.server.http import cpu
from tests.analysis.positions import ballroom_placement
from tests.fixtures.accounts import error, register

URL = "/api/analysis"


def _decision() -> dict[str, Any]:
    """A two-player hugo decision with several moves (all guests placed, a 4 rolled)."""
    position = start_position(ruleset("hugo"), 2)
    while position.phase != MOVE:
        position = apply(position, legal_actions(position)[0] if position.phase != "roll" else _four(position))
    return position_to_dict(position)


def _four(position: Any) -> Any:
    return next(a for a in legal_actions(position) if getattr(a, "face", None) == 4)


def test_a_new_games_placements_are_valued_best_first(client: TestClient) -> None:
    answer = client.post(URL, json={"start": {"rules": "hugo", "players": 3}})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["phase"] == "place" and data["to_move"] == 0 and len(data["win"]) == 3
    assert abs(sum(data["win"]) - 1) < 1e-5
    wins = [option["win"] for option in data["options"]]
    assert wins == sorted(wins, reverse=True) and len(wins) == len(legal_actions(start_position(ruleset("hugo"), 3)))
    assert [option["best"] for option in data["options"]].count(True) == 1 and data["options"][0]["best"]
    assert data["win"][0] == pytest.approx(wins[0], abs=1e-5)  # the position is worth its best placement
    first = data["options"][0]
    assert first["probability"] is None and first["deep"] is None and data["deep"] is None
    # Each option's position is the one its action leads to (RULES.md §2.2).
    start = start_position(ruleset("hugo"), 3)
    for option in data["options"]:
        assert position_from_dict(option["after"]) == apply(start, action_from_dict(option["action"]))


def test_a_roll_lists_every_face_with_its_chance(client: TestClient) -> None:
    position = start_position(ruleset("midnight-party"), 2)
    while position.phase != "roll":
        position = apply(position, legal_actions(position)[0])
    data = client.post(URL, json={"position": position_to_dict(position)}).json()
    assert data["phase"] == "roll"
    assert [option["action"]["roll"] for option in data["options"]] == [1, 2, 4, 5, "hugo"]  # RULES.md §1.4
    assert [option["probability"] for option in data["options"]] == pytest.approx([1 / 6] * 4 + [1 / 3], abs=1e-5)
    for option in data["options"]:
        assert position_from_dict(option["after"]) == apply(position, action_from_dict(option["action"]))
    # "What if I roll 4?": before the roll the roller's chance is the faces' mean.
    mean = sum(o["probability"] * o["win"] for o in data["options"])
    assert data["win"][data["to_move"]] == pytest.approx(mean, abs=1e-4)


def test_a_decision_deep_rolls_out_every_move(client: TestClient) -> None:
    position = _decision()
    data = client.post(URL, json={"position": position, "deep": True}).json()
    assert data["phase"] == "move" and data["deep"] == {"rollouts": 24, "cut": 6}
    assert len(data["options"]) == len(legal_actions(position_from_dict(position))) > 1
    assert all(option["deep"] is not None and option["deep"]["se"] >= 0 for option in data["options"])
    deep = [option["deep"]["win"] for option in data["options"]]
    assert deep == sorted(deep, reverse=True) and data["options"][0]["best"]
    # The same numbers as the engine the command line uses.
    assert data == json.loads(json.dumps(explore(position_from_dict(position), deep=True).to_dict()))


def test_a_placement_deep_rolls_out_every_square(client: TestClient) -> None:
    position = ballroom_placement()
    data = client.post(URL, json={"position": position, "deep": True}).json()
    assert data["phase"] == "place" and data["deep"] == {"rollouts": 24, "cut": 6}
    assert len(data["options"]) == len(legal_actions(position_from_dict(position)))
    assert all(option["deep"] is not None for option in data["options"])
    assert data["options"][0]["action"] == {"place": "G25"} and data["options"][0]["best"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({}, "either 'position'"),
        ({"position": {"format": "hugo-position/1"}, "start": {"rules": "hugo", "players": 2}}, "either 'position'"),
        ({"position": {"format": "hugo-position/1"}}, "invalid position"),
        ({"position": "G12"}, "position"),
        ({"start": {"rules": "chess", "players": 2}}, "rules"),
        ({"start": {"rules": "hugo", "players": 9}}, "players"),
        ({"start": {"rules": "hugo", "players": 2}, "deep": "yes"}, "deep"),
        ({"start": {"rules": "hugo", "players": 2}, "evil": 1}, "evil"),
    ],
)
def test_bad_bodies_get_a_400_that_says_what_was_wrong(client: TestClient, body: dict[str, Any], says: str) -> None:
    answer = client.post(URL, json=body)
    assert answer.status_code == 400 and error(answer) == "bad_request", answer.text
    assert says in answer.json()["error"]["message"], answer.json()


def test_an_impossible_position_names_the_field(client: TestClient) -> None:
    position = _decision()
    position["to_move"] = 5
    answer = client.post(URL, json={"position": position})
    assert answer.status_code == 400 and "to_move" in answer.json()["error"]["message"], answer.text


def test_huge_deep_and_non_json_bodies_are_refused(client: TestClient) -> None:
    huge = client.post(
        URL, content=b'{"position": "' + b"x" * 40_000 + b'"}', headers={"Content-Type": "application/json"}
    )
    assert huge.status_code == 413 and error(huge) == "too_large"
    deep = client.post(URL, content=b"[" * 200 + b"]" * 200, headers={"Content-Type": "application/json"})
    assert deep.status_code == 400 and "nests too deep" in deep.json()["error"]["message"]
    text = client.post(URL, content=b"start", headers={"Content-Type": "text/plain"})
    assert text.status_code == 415 and error(text) == "bad_content_type"


def test_cross_site_requests_are_refused(client: TestClient) -> None:
    body = {"start": {"rules": "hugo", "players": 2}}
    evil = client.post(URL, json=body, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403 and error(evil) == "cross_site"


def test_an_address_is_limited(client: TestClient) -> None:
    start = {"start": {"rules": "hugo", "players": 2}}
    answers = [client.post(URL, json=start) for _ in range(65)]
    assert [a.status_code for a in answers[:60]] == [200] * 60
    refused = next(a for a in answers if a.status_code == 429)
    assert error(refused) == "rate_limited" and "Retry-After" in refused.headers


def test_an_accounts_deep_looks_are_limited_sooner(client: TestClient) -> None:
    register(client, "ann")
    position = _decision()
    deep = [client.post(URL, json={"position": position, "deep": True}) for _ in range(12)]
    assert [a.status_code for a in deep[:10]] == [200] * 10
    refused = next(a for a in deep if a.status_code == 429)
    assert "deep analyses" in refused.json()["error"]["message"] and "Retry-After" in refused.headers
    fast = client.post(URL, json={"position": position})
    assert fast.status_code == 200, "a refused deep look took the fast ones with it"


def test_more_at_once_than_the_instance_works_on_is_told_to_wait(client: TestClient) -> None:
    held = cpu.running
    for _ in range(cpu.RUNNING_AT_ONCE):
        assert held.acquire(blocking=False)
    try:
        busy = client.post(URL, json={"start": {"rules": "hugo", "players": 2}})
        assert busy.status_code == 503 and error(busy) == "busy" and busy.headers["Retry-After"] == "2"
    finally:
        for _ in range(cpu.RUNNING_AT_ONCE):
            held.release()
    assert client.post(URL, json={"start": {"rules": "hugo", "players": 2}}).status_code == 200
