"""Questions a position answers for bots and analyses: who stands where, is an action legal.

RULES.md §1.2 (a room holds one guest), §4 (guest moves), §3.1 (the die first).
"""

from __future__ import annotations

import pytest

from ghostparty import Game, IllegalAction
from ghostparty.rules import Move, Pass, Place, Roll, apply, is_legal, legal_actions, position_from_dict
from ghostparty.rules import events as ev

from .builders import hugo_pos, mp_pos

FOUR = [["G1", "G5", "R:chapel", "C10"], ["G1", "G6", "R:armory", "C9"], ["G1", "G7", "G30", "R:ballroom"], ["G4"] * 4]


def test_guests_at_lists_every_guest_by_seat() -> None:
    position = position_from_dict(hugo_pos(FOUR))
    board = position.board
    assert position.guests_at(board.location("G1")) == [0, 1, 2]
    assert position.guests_at(board.location("G4")) == [3, 3, 3, 3]
    assert position.guests_at(board.location("R:armory")) == [1]
    assert position.guests_at(board.location("G2")) == []


def test_occupant_of_each_room() -> None:
    position = position_from_dict(hugo_pos(FOUR))
    board = position.board
    assert position.occupant(board.location("R:chapel")) == 0
    assert position.occupant(board.location("R:armory")) == 1
    assert position.occupant(board.location("R:ballroom")) == 2
    assert position.occupant(board.location("R:library")) == -1


def test_is_legal_agrees_with_the_legal_actions() -> None:
    rolling = position_from_dict(hugo_pos(FOUR, to_move=2))
    assert is_legal(rolling, Roll(4)) and is_legal(rolling, Roll("hugo"))
    assert not is_legal(rolling, Move("G1", "G5"))
    moving = position_from_dict(hugo_pos(FOUR, to_move=2, roll=4))
    assert all(is_legal(moving, action) for action in legal_actions(moving))
    assert is_legal(moving, Move("G7", "G11"))
    assert not is_legal(moving, Move("G7", "G12"))
    assert not is_legal(moving, Roll(4)) and not is_legal(moving, Pass()) and not is_legal(moving, Place("G2"))


def test_a_game_by_default_and_before_its_first_action() -> None:
    """``Game()`` is a four-player ``hugo`` game (§1.5: 4 guests each); nothing happened yet."""
    game = Game()
    data = game.position()
    assert (data["rules"], data["players"], data["first_player"]) == ("hugo", 4, 0)
    assert game.last_events == []


def test_passing_with_two_guests_each_in_a_big_midnight_party() -> None:
    """§8.3: passing needs at most one own guest on the gallery; with 7 players each has
    two guests (§1.5), so two on the gallery may not pass, one in a room may."""
    others = [["G30", "G31"]] * 6
    both_out = position_from_dict(mp_pos([["G1", "G2"], *others], roll=4))
    assert not is_legal(both_out, Pass())
    with pytest.raises(IllegalAction):
        apply(both_out, Pass())
    one_in = position_from_dict(mp_pos([["G1", "R:library"], *others], roll=4))
    assert is_legal(one_in, Pass())
    assert apply(one_in, Pass()).to_move == 1


def test_a_guest_on_the_top_step_is_in_no_room() -> None:
    """§8.4: the round ends when no guest is on the gallery or every room is occupied; ten
    of the eleven rooms taken and a guest on step C10 is not every room."""
    guests = [
        ["G1", "R:library", "R:fireplace", "R:chapel", "R:abandoned-room"],
        ["G5", "R:tower", "R:armory", "R:portrait-hall", "R:ballroom"],
        ["G9", "R:banquet-hall", "R:bedchamber", "C10", "C9"],
    ]
    after = apply(position_from_dict(mp_pos(guests, roll=1)), Move("G1", "G2"))
    assert (after.round, after.phase, after.to_move) == (1, "roll", 1)


ALL_BUT_ARMORY = [
    ["G16", "R:library", "R:fireplace", "R:chapel", "R:tower", "G1"],
    ["R:portrait-hall", "R:ballroom", "R:banquet-hall", "R:bedchamber", "G5", "G6"],
]


def test_hugo_has_no_rounds_to_end_when_every_room_is_taken() -> None:
    """§8.4 is midnight-party's: in hugo the game goes on with all nine rooms taken."""
    after = apply(position_from_dict(hugo_pos(ALL_BUT_ARMORY, roll=2)), Move("G16", "R:armory"))
    assert (after.phase, after.to_move, after.round) == ("roll", 1, 1)
    assert after.scores == (11, 10)  # §4.5: the red shield's point


def test_a_red_shield_to_46_ends_the_game_by_score() -> None:
    """§4.5 and §7: the armory's point takes seat 0 to 46, which ends the game at once."""
    game = Game.from_position(hugo_pos(ALL_BUT_ARMORY, roll=2, scores=[45, 10]))
    events = game.push(Move("G16", "R:armory"))
    assert game.is_over
    assert events[-1] == ev.GameOver((1,), (46, 10), "score")
