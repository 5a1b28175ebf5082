"""Every malformed input raises the documented error type, naming what is wrong."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from ghostparty import (
    Game,
    GameRecord,
    GhostPartyError,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidRecord,
    Move,
    Place,
    Roll,
)
from ghostparty.rules import apply, position_from_dict

from .builders import hugo_pos, mp_pos

VALID_HUGO = hugo_pos(
    [["G1", "G5", "R:chapel", "C10"], ["G2", "G6", "R:armory", "C9"], ["G3", "G7", "G30", "R:ballroom"], ["G4"] * 4],
    clock="1:00",
    hugo="G20",
    to_move=2,
    scores=[20, 20, 10, 10],
)
VALID_MP = mp_pos(
    [
        ["G1", "G5", "R:chapel", "C10"],
        ["G2", "G6", "R:abandoned-room", "C9"],
        ["G3", "G7", "G30", "R:ballroom"],
        ["G4"] * 4,
    ],
    round=2,
    hugo="G20",
    to_move=2,
    round_scores=[[4, 12, 7, 0]],
    scores=[4, 12, 7, 0],
)


def test_error_hierarchy() -> None:
    """FORMAT.md: InvalidPosition and IllegalAction are ValueErrors; InvalidAction is an IllegalAction."""
    for error in (InvalidPosition, IllegalAction, InvalidAction, InvalidRecord):
        assert issubclass(error, GhostPartyError)
        assert issubclass(error, ValueError)
    assert issubclass(InvalidAction, IllegalAction)
    assert not issubclass(InvalidPosition, IllegalAction)


def test_the_valid_bases_are_valid() -> None:
    Game.from_position(VALID_HUGO)
    Game.from_position(VALID_MP)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict], None]:
    def mutate(pos: dict) -> None:
        target = pos
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _del(key: str) -> Callable[[dict], None]:
    return lambda pos: pos.pop(key)


HUGO_CASES: list[tuple[str, Callable[[dict], None], str, str]] = [
    # (name, mutation, expected field, a text the message must contain)
    ("missing format", _del("format"), "format", "missing"),
    ("missing guests", _del("guests"), "guests", "missing"),
    ("unknown field", _set(("colour",), "red"), "colour", "unknown"),
    ("wrong format", _set(("format",), "hugo-position/0"), "format", "hugo-position/0"),
    ("unknown rules", _set(("rules",), "chess"), "rules", "chess"),
    ("rules not a string", _set(("rules",), ["hugo"]), "rules", "['hugo']"),
    ("players 1", _set(("players",), 1), "players", "1"),
    ("players 9", _set(("players",), 9), "players", "9"),
    ("players a string", _set(("players",), "4"), "players", "'4'"),
    ("players a float", _set(("players",), 4.0), "players", "4.0"),
    ("players a bool", _set(("players",), True), "players", "True"),
    ("first_player out of range", _set(("first_player",), 4), "first_player", "4"),
    ("to_move negative", _set(("to_move",), -1), "to_move", "-1"),
    ("to_move null", _set(("to_move",), None), "to_move", "None"),
    ("round 2 in hugo", _set(("round",), 2), "round", "2"),
    ("round a string", _set(("round",), "1"), "round", "'1'"),
    ("unknown phase", _set(("phase",), "play"), "phase", "play"),
    ("phase a list", _set(("phase",), ["roll"]), "phase", "['roll']"),
    ("roll outside move", _set(("roll",), 2), "roll", "2"),
    ("roll hugo in roll phase", _set(("roll",), "hugo"), "roll", "hugo"),
    ("clock missing value", _set(("clock",), None), "clock", "None"),
    ("clock unknown", _set(("clock",), "12:00"), "clock", "12:00"),
    ("clock 23:45 on the gallery", _set(("clock",), "23:45"), "clock", "23:45"),
    ("clock 5:00 not over", _set(("clock",), "5:00"), "clock", "5:00"),
    ("hugo in a room", _set(("hugo",), "R:chapel"), "hugo", "R:chapel"),
    ("hugo unknown", _set(("hugo",), "G40"), "hugo", "G40"),
    ("hugo on C2", _set(("hugo",), "C2"), "hugo", "C2"),
    ("hugo not a string", _set(("hugo",), 20), "hugo", "20"),
    ("scores too short", _set(("scores",), [20, 20, 10]), "scores", "[20, 20, 10]"),
    ("scores not a list", _set(("scores",), 20), "scores", "20"),
    ("score a float", _set(("scores", 1), 20.5), "scores[1]", "20.5"),
    ("negative score", _set(("scores", 3), -1), "scores[3]", "-1"),
    ("score 46 not over", _set(("scores", 2), 46), "scores[2]", "46"),
    ("round_scores in hugo", _set(("round_scores",), [[20, 20, 10, 10]]), "round_scores", "[[20, 20, 10, 10]]"),
    ("round_scores not a list", _set(("round_scores",), None), "round_scores", "None"),
    ("guests too few seats", _set(("guests",), [["G1"] * 4] * 3), "guests", "'G1'"),
    ("guests not a list", _set(("guests",), "G1"), "guests", "G1"),
    ("guest list not a list", _set(("guests", 1), "G2"), "guests[1]", "G2"),
    ("guest unknown square", _set(("guests", 0, 1), "G99"), "guests[0][1]", "G99"),
    ("guest on C2", _set(("guests", 0, 3), "C2"), "guests[0][3]", "C2"),
    ("guest on START", _set(("guests", 0, 3), "START"), "guests[0][3]", "START"),
    ("guest music-room", _set(("guests", 1, 2), "R:music-room"), "guests[1][2]", "R:music-room"),
    ("guest a number", _set(("guests", 3, 0), 4), "guests[3][0]", "4"),
    ("guest on hugo", _set(("guests", 3, 0), "G20"), "guests[3][0]", "G20"),
    ("two guests in a room", _set(("guests", 1, 2), "R:chapel"), "guests[1][2]", "R:chapel"),
    ("too many guests", _set(("guests", 3), ["G4"] * 5), "guests[3]", "5"),
    ("too few guests", _set(("guests", 3), ["G4"] * 3), "guests[3]", "3"),
    ("queue outside place", _set(("place_queue",), [0]), "place_queue", "[0]"),
    ("queue not a list", _set(("place_queue",), 0), "place_queue", "0"),
    ("queue bad seat", _set(("place_queue",), [7]), "place_queue[0]", "7"),
    ("winners outside over", _set(("winners",), [2]), "winners", "[2]"),
    ("winners not a list", _set(("winners",), 2), "winners", "2"),
    ("winner bad seat", _set(("winners",), [4]), "winners[0]", "4"),
]


@pytest.mark.parametrize(("name", "mutate", "field", "text"), HUGO_CASES, ids=[c[0] for c in HUGO_CASES])
def test_invalid_hugo_positions(name: str, mutate: Callable[[dict], None], field: str, text: str) -> None:
    pos = copy.deepcopy(VALID_HUGO)
    mutate(pos)
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position(pos)
    assert caught.value.field == field, str(caught.value)
    assert str(caught.value).startswith(f"{field}: ")
    assert text in str(caught.value)


MP_CASES: list[tuple[str, Callable[[dict], None], str]] = [
    ("clock set", _set(("clock",), "24:00"), "clock"),
    ("round 0", _set(("round",), 0), "round"),
    ("round 4", _set(("round",), 4), "round"),
    ("round_scores missing a round", _set(("round_scores",), []), "round_scores"),
    ("round_scores one too many", _set(("round_scores",), [[4, 12, 7, 0], [0, 0, 0, 0]]), "round_scores"),
    ("round_scores wrong length", _set(("round_scores",), [[4, 12, 7]]), "round_scores[0]"),
    ("round_scores a float", _set(("round_scores",), [[4, 12, 7, 0.0]]), "round_scores[0]"),
    ("totals disagree", _set(("scores",), [4, 12, 7, 1]), "scores"),
    ("hugo on START", _set(("hugo",), "START"), "hugo"),
    ("guest on START", _set(("guests", 0, 0), "START"), "guests[0][0]"),
    ("control: another empty room", _set(("guests", 0, 2), "R:portrait-hall"), None),  # valid
]


@pytest.mark.parametrize(("name", "mutate", "field"), MP_CASES, ids=[c[0] for c in MP_CASES])
def test_invalid_midnight_party_positions(name: str, mutate: Callable[[dict], None], field: str | None) -> None:
    pos = copy.deepcopy(VALID_MP)
    mutate(pos)
    if field is None:
        Game.from_position(pos)  # the control: a legal change is accepted
        return
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position(pos)
    assert caught.value.field == field, str(caught.value)


def test_over_needs_the_lowest_seats_as_winners() -> None:
    pos = copy.deepcopy(VALID_HUGO)
    pos.update(phase="over", scores=[46, 20, 10, 10])
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position(pos)
    assert caught.value.field == "winners"
    pos["winners"] = [2, 3]
    assert Game.from_position(pos).position()["winners"] == [2, 3]
    pos["winners"] = [3, 2]
    with pytest.raises(InvalidPosition):
        Game.from_position(pos)


def test_placement_phase_checks() -> None:
    pos = hugo_pos([["G1"], ["G2", "G3"]], clock="23:45", hugo="START", phase="place", to_move=0)
    pos["place_queue"] = [0, 1, 0, 1, 0, 1, 0, 1, 0]  # seat 0: 1 + 5 = 6, seat 1: 2 + 4 = 6
    Game.from_position(pos)
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position({**pos, "to_move": 1})
    assert caught.value.field == "to_move"
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position({**pos, "place_queue": []})
    assert caught.value.field == "place_queue"
    with pytest.raises(InvalidPosition) as caught:
        Game.from_position({**pos, "place_queue": [0, 1, 0, 1, 0, 1, 0, 1]})
    assert caught.value.field == "guests[0]"


@pytest.mark.parametrize("data", [None, [], "position", 3])
def test_not_an_object(data: object) -> None:
    with pytest.raises(InvalidPosition) as caught:
        position_from_dict(data)
    assert caught.value.field == "position"


# -- actions ------------------------------------------------------------------------------------------

MOVE_POS = hugo_pos([["G1", "G5", "R:chapel", "C10", "G30", "G30"], ["G2"] * 6], roll=4)


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ({"roll": 4}, IllegalAction),  # wrong phase
        ({"place": "G10"}, IllegalAction),
        ({"pass": True}, IllegalAction),  # hugo never passes
        ({"from": "G2", "to": "G6"}, IllegalAction),  # seat 1's guest: out of turn
        ({"from": "G1", "to": "G6"}, IllegalAction),  # wrong distance
        ({"from": "G5", "to": "R:chapel"}, IllegalAction),  # G6 G7 G8, chapel at step 4: the own room (§4.2.3)
        ({"from": "G9", "to": "G13"}, IllegalAction),  # no guest there
        ({"from": "G1", "to": "G99"}, InvalidAction),  # no such location
        ({"from": "X", "to": "G5"}, InvalidAction),
        ({"from": "G1"}, InvalidAction),  # malformed
        ({"roll": 3}, InvalidAction),
        ("G1-G5", InvalidAction),
        (None, InvalidAction),
        (Move("G1", 5), InvalidAction),  # type: ignore[arg-type]
        (Move("G1", "G99"), InvalidAction),
    ],
)
def test_illegal_actions_leave_the_game_unchanged(action: Any, error: type[Exception]) -> None:
    game = Game.from_position(MOVE_POS)
    before = game.position()
    with pytest.raises(error) as caught:
        game.apply(action)
    assert game.position() == before
    assert game.history == ()
    assert type(caught.value) is error


def test_illegal_action_messages_quote_the_action() -> None:
    game = Game.from_position(MOVE_POS)
    with pytest.raises(IllegalAction) as caught:
        game.apply({"from": "G1", "to": "G6"})
    assert "Move(source='G1', target='G6')" in str(caught.value)
    assert "is not legal" in str(caught.value)
    with pytest.raises(InvalidAction) as caught:
        game.apply({"roll": 3})
    assert "3" in str(caught.value)
    with pytest.raises(InvalidAction) as caught:
        game.apply({"from": "G1", "to": "G99"})
    assert "G99" in str(caught.value)


@pytest.mark.parametrize(
    "action",
    [Roll(3), Roll("HUGO"), Roll(True), Roll(4.0), Place(12), Place("R:chapel"), Place("C10"), Place("G99")],  # type: ignore[arg-type]
)
def test_typed_actions_are_checked_too(action: Any) -> None:
    """The typed API checks what the dict reader would have rejected."""
    roll_pos = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    place_pos = Game("hugo", players=2)
    game = place_pos if isinstance(action, Place) else roll_pos
    before = game.position()
    with pytest.raises(IllegalAction):
        game.push(action)
    with pytest.raises(IllegalAction):
        apply(game.state, action)
    assert game.position() == before


def test_push_rejects_non_actions() -> None:
    game = Game("hugo", players=2)
    with pytest.raises(IllegalAction, match="not an action"):
        game.push({"place": "G1"})  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        game.push(("G1",))  # type: ignore[arg-type]


# -- records -----------------------------------------------------------------------------------------


def _record_with_bad_action_5() -> dict[str, Any]:
    game = Game("hugo", players=2, seed=3)
    for square in range(5):
        game.apply({"place": f"G{square}"})
    data = game.record().to_dict()
    data["actions"].append({"place": "G0"})  # action 5: G0 is taken
    data["actions"].append({"place": "G9"})
    data["final"] = None
    return data


def test_invalid_record_names_the_first_bad_action() -> None:
    data = _record_with_bad_action_5()
    with pytest.raises(InvalidRecord) as caught:
        GameRecord.from_dict(data)
    assert caught.value.index == 5
    assert str(caught.value).startswith("action 5: ")
    assert "G0" in str(caught.value)


def test_invalid_record_malformed_action_index() -> None:
    data = _record_with_bad_action_5()
    data["actions"][2] = {"jump": "G7"}
    with pytest.raises(InvalidRecord) as caught:
        GameRecord.from_dict(data)
    assert caught.value.index == 2


def test_invalid_record_replay_index() -> None:
    game = Game("hugo", players=2, seed=3)
    record = GameRecord(start=game.state, actions=(Place("G1"), Place("G2"), Roll(4)))
    with pytest.raises(InvalidRecord) as caught:
        record.replay()
    assert caught.value.index == 2
