"""The fixed action space: documented ids, round trips for every legal action, masks."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")

from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty.rl.actions import (
    N_ACTIONS,
    ActionIdError,
    action_from_id,
    action_id,
    action_mask,
    describe_id,
    legal_ids,
    slot_locations,
    slots,
)
from ghostparty.rules import HUGO, HUGO_BOARD, MIDNIGHT_PARTY_BOARD, PASS, Board, Move, Place, Roll, legal_actions

from .games import positions

BOARDS = [HUGO_BOARD, MIDNIGHT_PARTY_BOARD]


def test_the_documented_ids() -> None:
    """The table of ghostparty.rl.actions and docs/RL.md, entry by entry."""
    assert N_ACTIONS == 3106
    for board in BOARDS:
        assert [action_id(board, Roll(face)) for face in (1, 2, 4, 5, HUGO)] == [0, 1, 2, 3, 4]
        assert action_id(board, PASS) == 5
        assert action_id(board, Place("G0")) == 6
        assert action_id(board, Place("G39")) == 45
        assert action_id(board, Move("G0", "G0")) == 46
        assert action_id(board, Move("G0", "G1")) == 47
        assert action_id(board, Move("G1", "G0")) == 46 + 51
        assert action_id(board, Move("C10", "G4")) == 46 + 51 * 51 + 4  # the bottom step is slot 51
        assert action_id(board, Move("R:library", "R:fireplace")) == 46 + 51 * 40 + 41
        assert action_id(board, Move("C3", "G0")) == 46 + 51 * 58
    assert action_id(HUGO_BOARD, Move("G8", "R:tower")) == 46 + 51 * 8 + 43
    assert action_id(MIDNIGHT_PARTY_BOARD, Move("G8", "R:tower")) == 46 + 51 * 8 + 44
    assert action_id(MIDNIGHT_PARTY_BOARD, Move("C2", "G1")) == 46 + 51 * 59 + 1
    assert slots(HUGO_BOARD)[HUGO_BOARD.location("START")] == 60


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.id)
def test_every_id_round_trips_or_names_nothing(board: Board) -> None:
    named = 0
    for i in range(N_ACTIONS):
        try:
            action = action_from_id(board, i)
        except ActionIdError as error:
            assert f"action id {i} (" in str(error)
            assert f"the {board.id} board" in str(error)
            continue
        assert action_id(board, action) == i
        named += 1
    # rolls, pass, places, then moves from every guest location to every square or room
    guest_locations = board.step_base + len(board.steps)
    assert named == 5 + 1 + 40 + guest_locations * board.step_base


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.id)
def test_slots_are_the_documented_ones_and_invert(board: Board) -> None:
    table = slots(board)
    assert [table[board.location(f"G{sq}")] for sq in range(40)] == list(range(40))
    assert [table[loc] for loc in board.room_locations] == list(range(40, 40 + len(board.rooms)))
    assert [table[board.location(f"C{v}")] for v in board.steps] == list(range(51, 51 + len(board.steps)))
    assert slot_locations(board) == {slot: loc for loc, slot in enumerate(table)}


def test_ids_that_name_nothing_say_why() -> None:
    with pytest.raises(ActionIdError, match=r"action id 3106 is out of range: expected 0 to 3105"):
        action_from_id(HUGO_BOARD, N_ACTIONS)
    with pytest.raises(ActionIdError, match=r"action id -1 is out of range"):
        action_from_id(HUGO_BOARD, -1)
    room_50 = 46 + 51 * 3 + 50  # G3 into the eleventh room: midnight-party's music room
    assert action_from_id(MIDNIGHT_PARTY_BOARD, room_50) == Move("G3", "R:music-room")
    with pytest.raises(ActionIdError, match=r"move slot 3 -> slot 50\) names no action on the hugo board"):
        action_from_id(HUGO_BOARD, room_50)
    with pytest.raises(ActionIdError, match=r"has no action id on the hugo board"):
        action_id(HUGO_BOARD, Move("G3", "C10"))  # onto a step: never a move
    with pytest.raises(ActionIdError, match=r"R:music-room"):
        action_id(HUGO_BOARD, Move("G35", "R:music-room"))
    assert describe_id(4) == "roll hugo"
    assert describe_id(5) == "pass"
    assert describe_id(18) == "place G12"


@settings(max_examples=40)
@given(
    rules=st.sampled_from(["hugo", "midnight-party"]),
    players=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_every_legal_action_of_random_games_round_trips(rules: str, players: int, seed: int) -> None:
    """Encode and decode every legal action of every position of a whole random game."""
    seen = 0
    for position in positions(rules, players, seed):
        board = position.ruleset.board
        legal = legal_actions(position)
        ids = legal_ids(position)
        assert list(ids.values()) == legal  # the engine's order, one id per action
        for action in legal:
            assert action_from_id(board, action_id(board, action)) == action
        mask = action_mask(board, legal)
        assert mask.dtype.name == "int8"
        assert sorted(int(i) for i in mask.nonzero()[0]) == sorted(ids)
        seen += len(legal)
    assert seen > 0
