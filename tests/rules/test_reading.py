"""Reading actions and records (FORMAT.md, Actions and Game records), every way in.

``action_from_dict`` has a fast path for plain ``dict``s naming the built-in boards'
locations and a general reading for every other mapping and name; both must give the same
action, and every malformed action must say what it got. RULES.md §1.4 (the die's faces).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from types import MappingProxyType
from typing import Any

import pytest

from ghostparty import Game, GameRecord, InvalidAction, InvalidPosition, InvalidRecord, Move, Pass, Place, Roll
from ghostparty.rules import action_from_dict, position_from_dict
from ghostparty.rules.notation import actions_to_dicts

from .builders import hugo_pos

VALID = [
    ({"roll": 1}, Roll(1)),
    ({"roll": 2}, Roll(2)),
    ({"roll": 4}, Roll(4)),
    ({"roll": 5}, Roll(5)),
    ({"roll": "hugo"}, Roll("hugo")),
    ({"place": "G12"}, Place("G12")),
    ({"place": "G99"}, Place("G99")),  # no such square: decided when applied
    ({"from": "G8", "to": "R:chapel"}, Move("G8", "R:chapel")),
    ({"from": "C10", "to": "G70"}, Move("C10", "G70")),
    ({"pass": True}, Pass()),
]


@pytest.mark.parametrize(("data", "action"), VALID)
@pytest.mark.parametrize("kind", [dict, OrderedDict, MappingProxyType])
def test_every_mapping_reads_as_the_same_action(data: dict, action: Any, kind: Any) -> None:
    found = action_from_dict(kind(data))
    assert found == action
    assert found is action  # actions are interned


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"roll": 3}, "roll must be 1, 2, 4, 5 or 'hugo', got 3"),
        ({"roll": 6}, "roll must be 1, 2, 4, 5 or 'hugo', got 6"),
        ({"roll": 0}, "roll must be 1, 2, 4, 5 or 'hugo', got 0"),
        ({"roll": True}, "roll must be 1, 2, 4, 5 or 'hugo', got True"),
        ({"roll": 4.0}, "roll must be 1, 2, 4, 5 or 'hugo', got 4.0"),
        ({"roll": "HUGO"}, "roll must be 1, 2, 4, 5 or 'hugo', got 'HUGO'"),
        ({"place": 12}, "place must be a square name like 'G12', got 12"),
        ({"place": ["G1"]}, "place must be a square name like 'G12', got ['G1']"),
        ({"from": "G1", "to": 2}, "from and to must be location names like 'G8', got 'G1' and 2"),
        ({"from": None, "to": "G2"}, "from and to must be location names like 'G8', got None and 'G2'"),
        ({"from": ["G1"], "to": "G2"}, "from and to must be location names like 'G8', got ['G1'] and 'G2'"),
        ({"pass": False}, "pass must be true, got False"),
        ({"pass": 1}, "pass must be true, got 1"),
        (
            {"roll": 4, "place": "G1"},
            "unknown action {'roll': 4, 'place': 'G1'}: expected {'roll': …}, {'place': …}, "
            "{'from': …, 'to': …} or {'pass': true}",
        ),
        ({"from": "G1"}, "unknown action {'from': 'G1'}"),
        ({"to": "G1", "place": "G2"}, "unknown action {'to': 'G1', 'place': 'G2'}"),
    ],
)
@pytest.mark.parametrize("kind", [dict, MappingProxyType])
def test_a_malformed_action_says_what_it_got(data: dict, message: str, kind: Any) -> None:
    with pytest.raises(InvalidAction) as caught:
        action_from_dict(kind(data))
    assert str(caught.value).startswith(message)


def test_a_non_mapping_is_no_action() -> None:
    with pytest.raises(InvalidAction, match=re.escape("an action must be a JSON object, got ['roll', 4]")):
        action_from_dict(["roll", 4])


def test_actions_to_dicts_writes_every_kind() -> None:
    actions = [Move("G1", "R:library"), Place("G3"), Roll(4), Roll("hugo"), Pass()]
    assert actions_to_dicts(actions) == [
        {"from": "G1", "to": "R:library"},
        {"place": "G3"},
        {"roll": 4},
        {"roll": "hugo"},
        {"pass": True},
    ]


def test_a_guest_on_start_or_two_in_one_room_is_refused_with_the_reason() -> None:
    """§1.2: a room holds one guest; §1.3: START is Hugo's alone."""
    with pytest.raises(InvalidPosition) as caught:
        position_from_dict(hugo_pos([["START", "G1", "G2", "G3"], ["G4"] * 4, ["G5"] * 4, ["G6"] * 4]))
    assert str(caught.value) == "guests[0][0]: START is Hugo's place, never a guest's"
    with pytest.raises(InvalidPosition) as caught:
        position_from_dict(
            hugo_pos([["R:chapel", "G1", "G2", "G3"], ["G4"] * 4, ["R:chapel"] + ["G5"] * 3, ["G6"] * 4])
        )
    assert str(caught.value) == "guests[2][0]: R:chapel already holds seat 0's guest: a room holds one guest (§1.2)"


# -- records ------------------------------------------------------------------------------


def _record() -> dict[str, Any]:
    game = Game("hugo", players=2, seed=4)
    for _ in range(6):
        game.roll() if game.state.phase == "roll" else game.push(game.actions()[0])
    return game.record().to_dict()


def test_a_record_keeps_its_seed_and_replays_with_its_events() -> None:
    data = _record()
    record = GameRecord.from_dict(data)
    assert record.seed == 4
    events: list[list] = []
    positions = record.replay(events)
    assert len(events) == len(record.actions) == len(positions) - 1
    assert all(events)  # every action told something
    assert record.replay() == positions
    assert GameRecord.from_dict({**data, "seed": None}).seed is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: [d], "a game record must be a JSON object, got list"),
        (
            lambda d: {**d, "colour": 1},
            "unknown field 'colour' (expected actions, final, first_player, format, players, rules, seed, start)",
        ),
        (lambda d: {**d, "actions": "roll"}, "actions: expected a list of action objects, got str"),
        (lambda d: {**d, "actions": [{"roll": 3}]}, "action 0: roll must be 1, 2, 4, 5 or 'hugo', got 3"),
        (
            lambda d: {**d, "actions": [*d["actions"][:2], {"roll": 3}]},
            "action 2: roll must be 1, 2, 4, 5 or 'hugo', got 3",
        ),
    ],
)
def test_a_bad_record_says_what_is_wrong(change: Any, message: str) -> None:
    data = change(_record())
    with pytest.raises(InvalidRecord) as caught:
        GameRecord.from_dict(data)
    assert str(caught.value) == message


def test_invalid_record_names_the_action_when_there_is_one() -> None:
    assert str(InvalidRecord("bad")) == "bad" and InvalidRecord("bad").index is None
    assert str(InvalidRecord("bad", 0)) == "action 0: bad" and InvalidRecord("bad", 0).index == 0


def test_undo_and_immutable_actions_say_what_is_wrong() -> None:
    game = Game("hugo", players=2)
    with pytest.raises(IndexError) as undo:
        game.undo()
    assert str(undo.value) == "no action to undo"
    with pytest.raises(AttributeError) as delete:
        del Place("G1").square
    assert str(delete.value) == "Place is immutable: cannot delete 'square'"
    with pytest.raises(AttributeError) as assign:
        Roll(4).face = 5  # type: ignore[misc]
    assert str(assign.value) == "Roll is immutable: cannot set 'face'"


def test_last_events_after_apply_are_those_of_that_action() -> None:
    game, other = Game("hugo", players=2, seed=1), Game("hugo", players=2, seed=1)
    action = game.actions()[0]
    game.apply(action)
    assert game.last_events == other.push(action)
    assert game.last_events
