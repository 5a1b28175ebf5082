"""The mutable :class:`Game`: FORMAT.md's JSON interface and the typed one beside it."""

from __future__ import annotations

import pytest

from ghostparty import Game, IllegalAction, Move, Position, Roll
from ghostparty.rules import events as ev
from ghostparty.rules import legal_actions

from .builders import hugo_pos, playout


def test_json_interface_round() -> None:
    game = Game("hugo", players=2, seed=1)
    assert game.legal_actions()[:3] == [{"place": "G0"}, {"place": "G1"}, {"place": "G2"}]
    assert game.apply({"place": "G7"}) is None
    pos = game.position()
    assert pos["guests"] == [["G7"], []]
    assert pos["to_move"] == 1
    assert {"place": "G7"} not in game.legal_actions()
    assert len(game.legal_actions()) == 39


def test_apply_accepts_dicts_and_action_values_alike() -> None:
    a = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    b = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    a.apply({"roll": 4})
    b.apply(Roll(4))
    a.apply({"from": "G1", "to": "G5"})
    b.apply(Move("G1", "G5"))
    assert a.position() == b.position()
    assert a.history == b.history == (Roll(4), Move("G1", "G5"))


def test_from_position_accepts_a_position_value() -> None:
    game = Game("midnight-party", players=3, seed=2)
    copy = Game.from_position(game.state)
    assert copy.position() == game.position()
    assert isinstance(game.state, Position)


def test_typed_actions_and_push_events() -> None:
    game = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    assert game.actions() == legal_actions(game.state)
    events = game.push(Roll(2))
    assert events == [ev.Rolled(0, 2)]
    assert game.last_events == events
    events = game.push(Move("G1", "G3"))
    assert events == [ev.GuestMoved(0, "G1", "G3", ("G2", "G3")), ev.TurnStarted(1)]


def test_seeded_die_is_reproducible_and_seed_dependent() -> None:
    def faces(seed: int) -> list[object]:
        game = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]), seed=seed)
        out = []
        for _ in range(60):
            roll = game.roll()
            out.append(roll.face)
            if game.state.phase == "move":
                game.push(game.actions()[0])
            if game.is_over:
                break
        return out

    assert faces(5) == faces(5)
    assert faces(5) != faces(6)


def test_roll_outside_the_roll_phase() -> None:
    game = Game("hugo", players=2, seed=1)
    with pytest.raises(IllegalAction, match="cannot roll"):
        game.roll()
    assert game.history == ()


def test_undo_restores_every_state() -> None:
    game = playout("hugo", 3, seed=11)
    positions = [p for p in game.positions]
    dicts = []
    replay = Game.from_position(game.start)
    for action in game.history:
        dicts.append(replay.position())
        replay.push(action)
    n = len(game.history)
    for i in range(n):
        undone = game.undo()
        assert undone == replay.history[n - 1 - i]
        assert game.state == positions[n - 1 - i]
        assert game.position() == dicts[n - 1 - i]
        assert game.last_events == []
    assert game.history == ()
    with pytest.raises(IndexError):
        game.undo()


def test_history_and_positions_line_up() -> None:
    game = playout("midnight-party", 4, seed=3)
    assert len(game.positions) == len(game.history) + 1
    assert game.positions[0] == game.start
    assert game.positions[-1] == game.state
    assert game.is_over and game.winners == game.state.winners
    assert game.winners


def test_repr_describes_the_game() -> None:
    game = Game("hugo", players=2)
    text = repr(game)
    assert text.startswith("<Game hugo 2p, place") and "0 actions" in text
