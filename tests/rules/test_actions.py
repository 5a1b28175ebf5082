"""Actions are values of four types of their own (issue 16, item 7): no equality across
types or with tuples, immutable, interned, and safe to pickle, copy and share."""

from __future__ import annotations

import copy
import gc
import pickle
import subprocess
import sys
import threading
import weakref

import pytest

from ghostparty.rules import HUGO, PASS, Action, Move, Pass, Place, Roll
from ghostparty.rules.actions import DIE_FACES, known_move, known_place, known_roll

EXAMPLES: list[Action] = [
    Roll(1),
    Roll(HUGO),
    Place("G12"),
    Move("G8", "R:fireplace"),
    Move("C9", "G3"),
    Pass(),
    Move("G1", "R:nowhere"),  # no such room: a valid value, refused only when applied
    Place("G40"),
    Roll(3),
]


def test_no_equality_across_types_or_with_tuples() -> None:
    assert Place("hugo") != Roll("hugo")
    assert Place("G12") != Roll("G12")
    assert Pass() != ()
    assert Roll(1) != (1,)
    assert Move("G1", "G5") != ("G1", "G5")
    assert Place("G1") != ("G1",)
    assert Move("G1", "G5") != Move("G5", "G1")
    assert len({Place("hugo"), Roll("hugo"), Pass()}) == 3
    assert not isinstance(Move("G1", "G5"), tuple)


def test_field_types_count() -> None:
    """Roll(True) is not Roll(1), as Roll(1.0) is not: the die shows ints and 'hugo'."""
    assert Roll(True) != Roll(1)  # type: ignore[arg-type]
    assert Roll(1.0) != Roll(1)  # type: ignore[arg-type]
    assert Roll(True) == Roll(True)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
def test_equal_fields_make_the_same_value(action: Action) -> None:
    again = type(action)(*(getattr(action, name) for name in type(action).__match_args__))
    assert again == action
    assert again is action  # interned
    assert hash(again) == hash(action)
    assert {action: 1}[again] == 1


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
def test_immutable(action: Action) -> None:
    for name in (*type(action).__match_args__, "other"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(action, name, "G1")
    for name in type(action).__match_args__:
        with pytest.raises(AttributeError, match="immutable"):
            delattr(action, name)
    assert not hasattr(action, "__dict__")


def test_no_order_and_no_length() -> None:
    with pytest.raises(TypeError):
        _ = Move("G1", "G2") < Move("G1", "G3")  # type: ignore[operator]
    with pytest.raises(TypeError):
        len(Move("G1", "G2"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _ = Move("G1", "G2")[0]  # type: ignore[index]


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
def test_repr_round_trip(action: Action) -> None:
    namespace = {"Roll": Roll, "Place": Place, "Move": Move, "Pass": Pass}
    assert eval(repr(action), namespace) is action


def test_reprs() -> None:
    assert repr(Move("G8", "R:fireplace")) == "Move(source='G8', target='R:fireplace')"
    assert repr(Roll(HUGO)) == "Roll(face='hugo')"
    assert repr(Place("G12")) == "Place(square='G12')"
    assert repr(Pass()) == "Pass()"


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(action: Action, protocol: int) -> None:
    assert pickle.loads(pickle.dumps(action, protocol)) is action


def test_pickle_round_trip_through_another_process() -> None:
    """What a worker pool does: the other process reads equal (interned) actions and sends them back."""
    code = (
        "import pickle, sys\n"
        "from ghostparty.rules import Move, Pass, Place, Roll\n"
        "got = pickle.loads(sys.stdin.buffer.read())\n"
        "assert got == [Move('G8', 'R:fireplace'), Pass(), Place('G40'), Roll('hugo')], got\n"
        "assert got[0] != ('G8', 'R:fireplace') and got[1] != ()\n"
        "sys.stdout.buffer.write(pickle.dumps(got))\n"
    )
    sent = [Move("G8", "R:fireplace"), Pass(), Place("G40"), Roll(HUGO)]
    done = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(sent), capture_output=True, check=True, env=None
    )
    back = pickle.loads(done.stdout)
    assert back == sent
    assert all(a is b for a, b in zip(back, sent, strict=True))


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
def test_copies_are_the_value_itself(action: Action) -> None:
    assert copy.copy(action) is action
    assert copy.deepcopy(action) is action
    assert copy.deepcopy([action, {"a": action}]) == [action, {"a": action}]


def describe(action: Action) -> str:
    match action:
        case Roll(face):
            return f"roll {face}"
        case Place(square):
            return f"place {square}"
        case Move(source, target):
            return f"{source}->{target}"
        case Pass():
            return "pass"
    return "not an action"


def test_match_dispatch() -> None:
    assert [describe(a) for a in (Roll(4), Place("G3"), Move("G1", "R:library"), Pass())] == [
        "roll 4",
        "place G3",
        "G1->R:library",
        "pass",
    ]
    assert describe(("G1", "R:library")) == "not an action"  # type: ignore[arg-type]
    assert describe(()) == "not an action"  # type: ignore[arg-type]


def test_the_die_and_pass_are_the_interned_values() -> None:
    assert Pass() is PASS
    assert (Roll(1), Roll(2), Roll(HUGO), Roll(4), Roll(5), Roll(HUGO)) == DIE_FACES
    assert known_roll(4) is Roll(4) and known_roll(True) is None and known_roll(3) is None
    place, move = Place("G7"), Move("G1", "G2")
    assert known_place("G7") is place and known_place(7) is None
    assert known_move("G1", "G2") is move and known_move("G1", 2) is None


def test_untrusted_names_are_not_kept() -> None:
    """An action naming no built-in location lives only while it is referred to."""
    made = [Place(f"X{i}") for i in range(100)] + [Move("G1", f"Y{i}") for i in range(100)]
    refs = [weakref.ref(action) for action in made]
    assert Place("X7") is made[7]
    del made
    gc.collect()
    assert all(ref() is None for ref in refs)
    kept = weakref.ref(Move("G1", "G2"))  # the built-in boards' moves stay
    gc.collect()
    assert kept() is Move("G1", "G2")


def test_unhashable_fields_make_a_value_equal_only_to_itself() -> None:
    odd = Place(["G1"])  # type: ignore[arg-type]
    assert odd == odd
    assert odd != Place(["G1"])  # type: ignore[arg-type]
    assert odd.square == ["G1"]


def test_threads_make_one_value() -> None:
    """Threads constructing the same new action at once all get the same object."""
    names = [f"T{i}" for i in range(200)]
    results: list[list[Move]] = []
    start = threading.Barrier(8)

    def make() -> None:
        start.wait()
        results.append([Move(name, "G0") for name in names])

    threads = [threading.Thread(target=make) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8
    for column in zip(*results, strict=True):
        assert all(move is column[0] for move in column)
