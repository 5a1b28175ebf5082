"""The round's pending points (RULES.md §8.5) come from the server, in ``state``,
``update`` and the replay (docs/PROTOCOL.md ``pending``): the client shows them and no
longer scores a round itself."""

from __future__ import annotations

import json
import random
from typing import Any

from ghostparty.rules import Game, position_to_dict
from ghostparty.server.common.model import PLAYING, Seat, Table
from ghostparty.server.tables.replay import replay_steps
from ghostparty.server.wire.codec import board_view, pending_points
from ghostparty.server.wire.protocol import state_message, update_frame


def _by_hand(position: dict[str, Any], board: dict[str, Any]) -> list[int]:
    """§8.5 from GET /api/boards' data, as a client would: a step's value, a red
    room's points, a green room's, nothing on the gallery."""
    shields = {room["location"]: room["shield"] for room in board["rooms"]}
    values = {step["location"]: step["value"] for step in board["steps"]}
    points = board["shield_points"]
    return [sum(values.get(loc, points.get(shields.get(loc, ""), 0)) for loc in locs) for locs in position["guests"]]


def _game(rules: str, players: int, seed: int) -> Game:
    """A whole game with random decisions and the game's own die."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    while not game.is_over:
        if game.state.phase == "roll":
            game.roll()
        else:
            game.push(rng.choice(game.actions()))
    return game


def test_pending_points_are_what_each_seat_would_score_if_the_round_ended_now() -> None:
    board = board_view("midnight-party")
    game = _game("midnight-party", 3, seed=5)
    nonzero = 0
    for position in game.positions:
        pending = pending_points(position)
        if position.is_over:
            assert pending is None, "nothing is pending once the game is over"
            continue
        assert pending == _by_hand(position_to_dict(position), board)
        nonzero += any(pending)
    assert nonzero > 10, "the game should have had guests on steps and in shielded rooms"


def test_hugo_scores_during_play_so_nothing_is_pending() -> None:
    game = _game("hugo", 2, seed=3)
    assert {str(pending_points(p)) for p in game.positions} == {"None"}
    assert pending_points(None) is None


def _table(game: Game) -> Table:
    return Table(
        id="t1",
        rules="midnight-party",
        players=3,
        seats=tuple(Seat(i, "human", name=name) for i, name in enumerate(("Ann", "Bob", "Cy"))),
        seed=1,
        status=PLAYING,
        version=len(game.history) + 1,
        first_player=0,
        to_move=game.state.to_move,
    )


def test_state_and_update_carry_the_pending_points_to_everyone() -> None:
    game = _game("midnight-party", 3, seed=5)
    middle = next(i for i, p in enumerate(game.positions) if not p.is_over and sum(pending_points(p) or []) >= 5)
    position = game.positions[middle]
    table = _table(game)
    frame = update_frame(table, {0}, position, None)
    expected = pending_points(position)
    for text in (frame.everyone, frame.plain, frame.mover):
        assert json.loads(text)["pending"] == expected
    state = state_message(table, {0}, position, [1], [], [])
    assert state["pending"] == expected


def test_the_replay_has_the_pending_points_at_the_start_and_where_they_change() -> None:
    game = _game("midnight-party", 3, seed=8)
    replay = replay_steps(game.record())
    assert replay["pending"] == [0, 0, 0]
    position, pending = replay["record"]["start"], replay["pending"]
    board = board_view("midnight-party")
    carried = 0
    for step, after in zip(replay["steps"], game.positions[1:], strict=True):
        position = {**position, **step["changes"]}
        expected = None if after.is_over else _by_hand(position, board)
        if "pending" in step:
            assert step["pending"] != pending, "a step repeats the pending points it left unchanged"
            pending = step["pending"]
        else:
            carried += 1
        assert pending == expected
    assert pending is None, "the game is over: nothing is pending"
    assert carried > len(replay["steps"]) / 4, "most steps change nothing pending and carry no field"


def test_a_hugo_replay_has_no_pending_points_at_all() -> None:
    replay = replay_steps(_game("hugo", 2, seed=4).record())
    assert replay["pending"] is None
    assert all("pending" not in step for step in replay["steps"])
