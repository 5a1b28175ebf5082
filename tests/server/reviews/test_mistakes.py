"""Learning from one's mistakes through the API: an account's marked decisions in its
reviewed games as puzzles, each in the position before it, and attempts judged by the
review's search; refused to guests, for another's games, bad indexes, illegal actions,
other sites, without the CSRF header, past the limits and when the instance is busy."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty import Game
from ghostparty.analysis.review import Evaluator, Value
from ghostparty.analysis.review.solver import unknown
from ghostparty.rules import Action, GameRecord, Position, action_to_dict, legal_actions, position_from_dict
from ghostparty.server.http import cpu
from ghostparty.server.reviews.mistakes import GOOD_ENOUGH, Mistake, MistakeJudge, mistakes_in, position_before
from ghostparty.server.reviews.store import SeatReview
from tests.fixtures.accounts import error, make_client, register

#: Cheap reviews: one roll deep, no solver.
CHEAP = {"depth": 1, "horizon": 0}
LIST = "/api/puzzles/mistakes"


def _attempt_url(table_id: str, index: int | str) -> str:
    return f"{LIST}/{table_id}/{index}/attempt"


def worst(position: dict[str, Any]) -> dict[str, Any]:
    """The legal action the review's own cheap search values lowest for the mover: a game
    played by it has mistakes whatever the dice (the last legal action each time need not)."""
    parsed = position_from_dict(position)
    valued = Evaluator(**CHEAP).actions(parsed)
    action, _ = min(valued, key=lambda found: found[1].win[parsed.to_move])
    return action_to_dict(action)


def play_badly(client: TestClient, csrf: str) -> str:
    """A hugo game of the logged-in account (seat 0, the worst action each time) against
    a random bot, played to its end; the table's id."""
    headers = {"X-CSRF-Token": csrf}
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "first_player": 0}, headers=headers)
    table_id = str(created.json()["table"]["id"])
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers).json()["token"]
    assert client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}, headers=headers).is_success
    for _ in range(3000):
        view = client.get(f"/api/tables/{table_id}").json()
        position = view["position"]
        if view["table"]["status"] == "over":
            return table_id
        if position["to_move"] != 0:
            time.sleep(0.005)
            continue
        action: dict[str, Any] = {"roll": True}
        if position["phase"] != "roll":
            action = worst(position)
        body = {"seat": 0, "token": token, "version": view["table"]["version"], "action": action}
        client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers)
    raise AssertionError(f"table {table_id} did not finish")


def reviewed(client: TestClient, table_id: str) -> dict[str, Any]:
    for _ in range(600):
        response = client.get(f"/api/tables/{table_id}/review")
        if response.status_code == 200:
            return dict(response.json()["review"])
        time.sleep(0.1)
    raise AssertionError("no review")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str, dict[str, Any]]]:
    """A server, a logged-in account's CSRF token, its reviewed game and the review."""
    url = f"sqlite:///{tmp_path_factory.mktemp('mistakes') / 'games.db'}"
    with make_client(url, review_settings=CHEAP) as client:
        csrf = register(client, "ann")
        table_id = play_badly(client, csrf)
        yield client, csrf, table_id, reviewed(client, table_id)


def _own_marked(review: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in review["steps"] if s["seat"] == 0 and s.get("mark") in ("mistake", "blunder")]


def test_the_accounts_mistakes_are_listed_in_the_position_before_them_without_the_best(game: Any) -> None:
    client, _, table_id, review = game
    marked = _own_marked(review)
    assert marked, "the worst action each time makes mistakes"
    answer = client.get(LIST)
    assert answer.status_code == 200, answer.text
    items = answer.json()["mistakes"]
    assert [(m["table"], m["index"]) for m in items] == [(table_id, s["index"]) for s in marked]
    assert client.get(LIST, params={"table": table_id}).json()["mistakes"] == items
    assert client.get(LIST, params={"table": "nosuchtable"}).json()["mistakes"] == []
    record = GameRecord.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    positions = record.replay()
    for item, step in zip(items, marked, strict=True):
        position = positions[step["index"]]
        assert item["id"] == f"{table_id}:{step['index']}" and item["rules"] == "hugo" and item["players"] == 2
        assert position_from_dict(item["position"]) == position and item["to_move"] == 0
        assert item["phase"] == position.phase and item["roll"] == position.roll
        assert item["played"] == step["action"] and item["mark"] == step["mark"] and item["loss"] == step["loss"]
        assert step["action"] in item["legal"] and step["best"] in item["legal"]
        assert "best" not in item and "answer" not in item


def test_the_best_is_right_the_mistake_is_wrong_and_the_answer_tells_the_alternatives(game: Any) -> None:
    client, csrf, table_id, review = game
    step = _own_marked(review)[0]
    url = _attempt_url(table_id, step["index"])
    right = client.post(url, json={"action": step["best"]}, headers={"X-CSRF-Token": csrf})
    assert right.status_code == 200, right.text
    body = right.json()
    assert body["correct"] is True and body["answer"] == step["best"] and body["rated"] is False
    assert body["played"] == step["action"] and body["mark"] == step["mark"]
    wins = [a["win"] for a in body["alternatives"]]
    assert body["alternatives"][0]["action"] == step["best"] and wins[1:] == sorted(wins[1:], reverse=True)
    item = next(m for m in client.get(LIST).json()["mistakes"] if m["index"] == step["index"])
    assert sorted(map(str, (a["action"] for a in body["alternatives"]))) == sorted(map(str, item["legal"]))
    assert set(body["reason"]) == {"en", "de"} and body["reason"]["en"] and isinstance(body["themes"], list)
    wrong = client.post(url, json={"action": step["action"]}, headers={"X-CSRF-Token": csrf}).json()
    assert wrong["correct"] is False and wrong["chosen"]["loss"] >= GOOD_ENOUGH
    assert abs(wrong["chosen"]["loss"] - step["loss"]) < 1e-4, "valued by the review's own search"


class FixedValues(Evaluator):
    """The mover's win chance after each legal action given by hand, in the rules core's order."""

    wins: tuple[float, ...] = ()

    def actions(self, position: Position, played: Action | None = None) -> list[tuple[Action, Value]]:
        seat, n = position.to_move, position.players
        found = []
        for action, win in zip(legal_actions(position), self.wins, strict=True):
            chances = tuple(win if s == seat else (1 - win) / (n - 1) for s in range(n))
            found.append((action, Value(chances, (0.0,) * n, unknown(n))))
        return found


def test_the_best_and_a_move_within_an_inaccuracy_of_it_are_right_the_rest_wrong() -> None:
    game = Game("hugo", players=2)
    while game.position()["phase"] == "place":
        game.apply(game.legal_actions()[0])
    game.apply({"roll": 4})
    position = position_from_dict(game.position())
    legal = legal_actions(position)
    assert len(legal) >= 4
    # the best (0.60) is the third; the first is 4.9 points behind, the second 5.1, the rest 20.
    FixedValues.wins = (0.551, 0.549, 0.60, *([0.40] * (len(legal) - 3)))
    played = action_to_dict(legal[-1])
    mistake = Mistake("t", 8, "hugo", position.to_move, played, action_to_dict(legal[2]), "blunder", 0.2)
    judge = MistakeJudge(evaluator=FixedValues)
    verdicts = [judge.judge(mistake, position, action) for action in legal]
    assert [v["correct"] for v in verdicts[:4]] == [True, False, True, False]
    assert all(v["answer"] == action_to_dict(legal[2]) for v in verdicts)
    assert [a["action"] for a in verdicts[0]["alternatives"][:3]] == [action_to_dict(legal[i]) for i in (2, 0, 1)]
    assert [round(v["chosen"]["loss"], 3) for v in verdicts[:3]] == [0.049, 0.051, 0.0]
    assert verdicts[0]["played"] == played and verdicts[0]["mark"] == "blunder" and verdicts[0]["rated"] is False
    assert "60%" in verdicts[0]["reason"]["en"] and "55%" in verdicts[0]["reason"]["en"]  # the best, and the next


def test_guests_other_accounts_bad_indexes_and_illegal_actions_are_refused(game: Any) -> None:
    client, csrf, table_id, review = game
    step = _own_marked(review)[0]
    headers = {"X-CSRF-Token": csrf}
    guest = TestClient(client.app)
    assert guest.get(LIST).status_code == 401 and error(guest.get(LIST)) == "login_required"
    refused = guest.post(_attempt_url(table_id, step["index"]), json={"action": step["best"]})
    assert refused.status_code == 401 and error(refused) == "login_required"
    not_marked = next(s for s in review["steps"] if s["kind"] != "roll" and not s.get("mark") and s["seat"] == 0)
    bot_step = next(s for s in review["steps"] if s["seat"] == 1 and s["kind"] != "roll")
    for index in (not_marked["index"], bot_step["index"], 99999, "x1", "-1"):
        answer = client.post(_attempt_url(table_id, index), json={"action": step["best"]}, headers=headers)
        assert answer.status_code == 404 and error(answer) == "unknown_mistake", index
    elsewhere = client.post(_attempt_url("nosuchtable", step["index"]), json={"action": step["best"]}, headers=headers)
    assert elsewhere.status_code == 404 and error(elsewhere) == "unknown_mistake"
    unreviewed = play_badly(client, csrf)
    answer = client.post(_attempt_url(unreviewed, step["index"]), json={"action": step["best"]}, headers=headers)
    assert answer.status_code == 404 and error(answer) == "unknown_mistake"
    with TestClient(client.app) as other:  # another account sees none of ann's mistakes
        other_csrf = register(other, "bob")
        assert other.get(LIST).json()["mistakes"] == []
        theirs = other.post(
            _attempt_url(table_id, step["index"]), json={"action": step["best"]}, headers={"X-CSRF-Token": other_csrf}
        )
        assert theirs.status_code == 404 and error(theirs) == "unknown_mistake"
    url = _attempt_url(table_id, step["index"])
    illegal = client.post(url, json={"action": {"from": "G1", "to": "G39"}}, headers=headers)
    assert illegal.status_code == 400 and error(illegal) == "illegal_action"
    unreadable = client.post(url, json={"action": {"jump": 3}}, headers=headers)
    assert unreadable.status_code == 400 and error(unreadable) == "bad_request"
    no_csrf = client.post(url, json={"action": step["best"]})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
    other_site = client.post(url, json={"action": step["best"]}, headers={**headers, "Sec-Fetch-Site": "cross-site"})
    assert other_site.status_code == 403 and error(other_site) == "cross_site"


def test_a_busy_instance_says_to_wait_and_the_limits_hold(game: Any) -> None:
    client, csrf, table_id, review = game
    step = _own_marked(review)[0]
    url = _attempt_url(table_id, step["index"])
    headers = {"X-CSRF-Token": csrf}
    for _ in range(cpu.RUNNING_AT_ONCE):
        assert cpu.running.acquire(blocking=False)
    try:
        busy = client.post(url, json={"action": step["best"]}, headers=headers)
        assert busy.status_code == 503 and error(busy) == "busy" and busy.headers["Retry-After"] == "2"
    finally:
        for _ in range(cpu.RUNNING_AT_ONCE):
            cpu.running.release()
    answers = [client.post(url, json={"action": step["best"]}, headers=headers).status_code for _ in range(21)]
    assert answers[-1] == 429 and set(answers[:-1]) <= {200, 429}
    reads = [client.get(LIST).status_code for _ in range(31)]
    assert reads[-1] == 429


def test_mistakes_are_read_from_the_seats_of_the_account_alone() -> None:
    from datetime import UTC, datetime

    step = {"index": 5, "kind": "move", "seat": 1, "action": {"pass": True}, "best": {"from": "G1", "to": "G2"}}
    review = {"steps": [{**step, "mark": "blunder", "loss": 0.2}, {**step, "index": 7, "seat": 0, "mark": "mistake"}]}
    review["steps"].append({**step, "index": 9, "mark": "inaccuracy", "loss": 0.06})
    seats = [SeatReview("t1", "hugo", 1, datetime(2026, 1, 1, tzinfo=UTC), review)]
    found = mistakes_in(seats)
    assert [(m.id, m.mark, m.loss) for m in found] == [("t1:5", "blunder", 0.2)]
    assert mistakes_in(seats, "t2") == []


def test_a_record_that_disagrees_with_the_review_is_a_server_error() -> None:
    from ghostparty.server.common.errors import ServiceError

    game = Game("hugo", players=2)
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    record = game.record()
    with pytest.raises(ServiceError, match="disagrees"):
        position_before(record, Mistake("t", 1, "hugo", 0, {"place": "G1"}, {}, "mistake", 0.2))
    with pytest.raises(ServiceError, match="no action"):
        position_before(record, Mistake("t", 5, "hugo", 0, {}, {}, "mistake", 0.2))
