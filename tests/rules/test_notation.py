"""FORMAT.md's notation: positions and actions as JSON-ready dicts, both ways."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from ghostparty import Game, Move, Pass, Place, Roll
from ghostparty.rules import (
    HUGO,
    InvalidAction,
    action_from_dict,
    action_to_dict,
    position_from_dict,
    position_to_dict,
)

from . import refmodel
from .builders import hugo_pos, mp_pos

ROOT = Path(__file__).resolve().parents[2]
FIELDS = [
    "format",
    "rules",
    "players",
    "first_player",
    "round",
    "phase",
    "to_move",
    "roll",
    "clock",
    "hugo",
    "scores",
    "round_scores",
    "guests",
    "place_queue",
    "winners",
]


def _scenario_positions() -> list:
    found = []
    for folder in (ROOT.parent / "shared" / "scenarios", ROOT / "tests" / "scenarios"):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            data = json.loads(path.read_text(encoding="utf-8"))
            if {"invalid": True} not in data["steps"]:
                found.append(pytest.param(data["position"], id=path.stem))
    return found


@pytest.mark.parametrize("pos", _scenario_positions())
def test_scenario_positions_round_trip(pos: dict) -> None:
    """Reading then writing gives the same position, guests in FORMAT.md's writing order."""
    expected = refmodel.normalise(copy.deepcopy(pos))
    written = position_to_dict(position_from_dict(pos))
    assert written == expected
    assert list(written) == FIELDS
    assert position_from_dict(written) == position_from_dict(pos)


def test_writer_order_of_guests() -> None:
    """FORMAT.md: gallery squares ascending, then rooms in board order, then steps from the highest down."""
    scrambled = ["C3", "R:tower", "G15", "C10", "R:library", "G2"]
    pos = hugo_pos([scrambled, ["G30"] * 6])
    assert Game.from_position(pos).position()["guests"][0] == ["G2", "G15", "R:library", "R:tower", "C10", "C3"]
    scrambled = ["C2", "R:music-room", "G39", "R:abandoned-room", "G0", "C9"]
    pos = mp_pos([scrambled, ["G30"] * 6])
    expected = ["G0", "G39", "R:abandoned-room", "R:music-room", "C9", "C2"]
    assert Game.from_position(pos).position()["guests"][0] == expected


def test_position_is_a_fresh_object_each_call() -> None:
    game = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    first = game.position()
    first["guests"][0].append("G3")
    first["scores"][0] = 99
    first["phase"] = "over"
    second = game.position()
    assert second["guests"][0] == ["G1"] * 6 and second["scores"] == [10, 10] and second["phase"] == "roll"
    assert second is not game.position()


def test_reading_does_not_keep_the_callers_lists() -> None:
    pos = hugo_pos([["G1"] * 6, ["G2"] * 6])
    game = Game.from_position(pos)
    pos["guests"][0][0] = "G9"
    pos["scores"][1] = 40
    assert game.position()["guests"][0] == ["G1"] * 6
    assert game.position()["scores"] == [10, 10]


def test_position_dict_is_json_ready() -> None:
    game = Game("midnight-party", players=3, seed=1)
    for _ in range(40):
        if game.state.phase == "roll":
            game.roll()
        else:
            game.push(game.actions()[0])
        text = json.dumps(game.position())
        assert json.loads(text) == game.position()


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (Roll(1), {"roll": 1}),
        (Roll(5), {"roll": 5}),
        (Roll(HUGO), {"roll": "hugo"}),
        (Place("G12"), {"place": "G12"}),
        (Move("G8", "R:fireplace"), {"from": "G8", "to": "R:fireplace"}),
        (Move("C10", "G0"), {"from": "C10", "to": "G0"}),
        (Pass(), {"pass": True}),
    ],
)
def test_action_dicts_round_trip(action: object, data: dict) -> None:
    assert action_to_dict(action) == data  # type: ignore[arg-type]
    assert action_from_dict(data) == action
    assert type(action_from_dict(data)) is type(action)
    assert eval(repr(action), {"Roll": Roll, "Place": Place, "Move": Move, "Pass": Pass}) == action  # pasteable


def test_action_reprs() -> None:
    assert repr(Move("G8", "R:fireplace")) == "Move(source='G8', target='R:fireplace')"
    assert repr(Roll(HUGO)) == "Roll(face='hugo')"
    assert repr(Pass()) == "Pass()"


def test_actions_are_hashable_values() -> None:
    assert {Move("G1", "G2"), Move("G1", "G2"), Roll(1), Roll(1)} == {Move("G1", "G2"), Roll(1)}


@pytest.mark.parametrize(
    "data",
    [
        None,
        "roll 4",
        ["roll", 4],
        {},
        {"roll": 3},
        {"roll": 0},
        {"roll": "HUGO"},
        {"roll": True},
        {"roll": 4.0},
        {"roll": "4"},
        {"place": 12},
        {"place": None},
        {"from": "G1"},
        {"to": "G1"},
        {"from": "G1", "to": 5},
        {"from": ["G1"], "to": "G2"},
        {"from": "G1", "to": "G2", "roll": 1},
        {"pass": False},
        {"pass": 1},
        {"pass": "true"},
        {"move": "G1-G2"},
    ],
)
def test_malformed_action_dicts(data: object) -> None:
    with pytest.raises(InvalidAction):
        action_from_dict(data)


def test_action_to_dict_rejects_non_actions() -> None:
    with pytest.raises(InvalidAction, match="not an action"):
        action_to_dict(("G1", "G2"))  # type: ignore[arg-type]
