"""The ``effects`` beside ``legal`` (docs/PROTOCOL.md): what each move would cause, as the
rules engine says when the move is applied, so that a client can show it beforehand."""

from __future__ import annotations

import random
from typing import Any

from ghostparty.rules import Game, Move, action_to_dict, apply, legal_actions
from ghostparty.rules.events import Event
from ghostparty.server.wire.codec import events_to_list
from ghostparty.server.wire.protocol import _effects

NOTABLE = {"captured", "guest_expelled", "round_ended", "game_over"}


def _expected(position: Any, action: Any) -> list[dict[str, Any]]:
    events: list[Event] = []
    if type(action) is Move:
        apply(position, action, events)
    listed = events_to_list(events)
    return [e for e in listed if e["type"] in NOTABLE or (e["type"] == "room_entered" and e["shield"] != "neutral")]


def test_effects_are_the_notable_events_of_each_legal_move() -> None:
    seen: set[str] = set()
    for rules, players, seed in (("hugo", 2, 1), ("hugo", 4, 2), ("midnight-party", 3, 3), ("midnight-party", 2, 4)):
        game = Game(rules, players, first_player=0)
        rng = random.Random(seed)
        while game.state.phase != "over":
            position = game.state
            actions = legal_actions(position)
            if position.phase in ("move", "place"):
                effects = _effects(position)
                assert len(effects) == len(actions)
                for action, effect in zip(actions, effects, strict=True):
                    assert effect == _expected(position, action), action_to_dict(action)
                    seen |= {e["type"] for e in effect}
            game.push(rng.choice(actions))
    # Random games come across every kind a client shows.
    assert {"captured", "room_entered", "game_over"} <= seen, seen


def test_a_capture_names_the_movers_points() -> None:
    """A guest moved onto Hugo's square is caught (§4.4): the effect says onto which step."""
    for seed in range(200):
        game = Game("hugo", 2, first_player=0)
        rng = random.Random(seed)
        while game.state.phase != "over":
            position = game.state
            if position.phase == "move":
                for action, effect in zip(legal_actions(position), _effects(position), strict=True):
                    caught = [e for e in effect if e["type"] == "captured"]
                    if caught:
                        assert caught[0]["square"] == action_to_dict(action)["to"] == position_hugo(position)
                        assert caught[0]["seats"] == [position.to_move] and caught[0]["points"] > 0
                        return
            game.push(rng.choice(legal_actions(position)))
    raise AssertionError("no move onto Hugo came up in 200 games")


def position_hugo(position: Any) -> str:
    from ghostparty.rules import position_to_dict

    return str(position_to_dict(position)["hugo"])
