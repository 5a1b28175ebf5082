"""Game records: a whole game as one JSON document that replays exactly."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from ghostparty import Game, GameRecord, InvalidRecord, Place, Roll
from ghostparty.rules import position_to_dict

from .builders import playout


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 2, 1), ("hugo", 5, 2), ("midnight-party", 3, 3)])
def test_record_round_trips_through_json(rules: str, players: int, seed: int) -> None:
    game = playout(rules, players, seed)
    data = game.record().to_dict()
    assert data["format"] == "ghostparty-record/1"
    assert (data["rules"], data["players"], data["first_player"], data["seed"]) == (rules, players, 0, seed)
    assert data["final"] == game.position()
    assert len(data["actions"]) == len(game.history)
    loaded = GameRecord.from_dict(json.loads(json.dumps(data)))
    assert loaded.final() == game.state
    assert loaded.actions == game.history
    assert loaded.start == game.start
    assert loaded.replay() == list(game.positions)


def test_replay_events_match_the_game() -> None:
    game = Game("midnight-party", players=2, seed=9)
    seen = []
    for _ in range(80):
        if game.state.phase == "roll":
            game.roll()
        else:
            game.push(game.actions()[-1])
        seen.append(game.last_events)
    events: list[list[Any]] = []
    game.record().replay(events)
    assert events == seen


def _data() -> dict[str, Any]:
    return Game("hugo", players=2, seed=4).record().to_dict() | {
        "actions": [{"place": "G1"}, {"place": "G2"}],
        "final": None,
    }


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (lambda d: d.pop("format"), "format"),
        (lambda d: d.pop("start"), "start"),
        (lambda d: d.pop("actions"), "actions"),
        (lambda d: d.update(format="ghostparty-record/9"), "format"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.update(rules="midnight-party"), "rules"),
        (lambda d: d.update(players=3), "players"),
        (lambda d: d.update(first_player=1), "first_player"),
        (lambda d: d.update(seed="4"), "seed"),
        (lambda d: d.update(actions={"place": "G1"}), "actions"),
        (lambda d: d["start"].update(players=9), "start position"),
        (lambda d: d.update(final={"format": "x"}), "final position"),
    ],
)
def test_malformed_records(change: Any, text: str) -> None:
    data = _data()
    GameRecord.from_dict(copy.deepcopy(data))  # the control
    change(data)
    with pytest.raises(InvalidRecord) as caught:
        GameRecord.from_dict(data)
    assert text in str(caught.value)
    assert caught.value.index is None


@pytest.mark.parametrize("data", [None, [], "record"])
def test_a_record_must_be_an_object(data: object) -> None:
    with pytest.raises(InvalidRecord):
        GameRecord.from_dict(data)


def test_a_wrong_final_position_is_reported() -> None:
    data = _data()
    wrong = Game("hugo", players=2, seed=4)
    wrong.apply({"place": "G1"})
    wrong.apply({"place": "G3"})
    data["final"] = wrong.position()
    with pytest.raises(InvalidRecord, match="final"):
        GameRecord.from_dict(data)
    right = Game("hugo", players=2)
    right.apply({"place": "G1"})
    right.apply({"place": "G2"})
    data["final"] = right.position()
    assert position_to_dict(GameRecord.from_dict(data).final()) == right.position()


def test_records_replay_without_a_random_source() -> None:
    """The die's outcomes are in the record: replaying does not depend on the seed."""
    game = playout("hugo", 3, seed=21)
    data = game.record().to_dict()
    data["seed"] = 999
    assert GameRecord.from_dict(data).final() == game.state
    assert any(isinstance(a, Roll) for a in game.history)
    assert any(isinstance(a, Place) for a in game.history)
