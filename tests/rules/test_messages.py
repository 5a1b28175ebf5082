"""The words the rules core says: a position in one line, and why an action is not legal.

Logs, the terminal and the server's error answers show these texts; each must say what was
wrong and what was expected. RULES.md §3.1 (roll first), §2.2 (placing), §4 (moving a
guest the rolled number), §8.3 (passing), §7 (the game's end).
"""

from __future__ import annotations

import re

import pytest

from ghostparty import Game, IllegalAction, InvalidPosition, Move, Pass, Place, Roll
from ghostparty.rules import apply, position_from_dict

from .builders import hugo_pos, mp_pos, playout

FOUR = [["G1", "G5", "R:chapel", "C10"], ["G2", "G6", "R:armory", "C9"], ["G3", "G7", "G30", "R:ballroom"], ["G4"] * 4]


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (hugo_pos(FOUR, to_move=2, clock="1:00"), "hugo 4p, roll: seat 2 to roll, clock 1:00, Hugo on G20"),
        (hugo_pos(FOUR, to_move=3, roll=4), "hugo 4p, move: seat 3 rolled 4, clock 24:00, Hugo on G20"),
        (
            mp_pos([["G1"] * 6, ["G2"] * 6], hugo="C10", roll=5),
            "midnight-party 2p, move: seat 0 rolled 5, round 1, Hugo on C10",
        ),
        (
            hugo_pos([["G1"] * 5, ["G2"] * 6], phase="place", clock="23:45", hugo="START", place_queue=[0]),
            "hugo 2p, place: seat 0 to place, clock 23:45, Hugo on START",
        ),
    ],
)
def test_a_position_in_one_line(data: dict, text: str) -> None:
    assert position_from_dict(data).describe() == text


def test_a_finished_game_in_one_line() -> None:
    game = Game("hugo", players=2, seed=3)
    while not game.is_over:
        game.roll() if game.state.phase == "roll" else game.push(game.actions()[0])
    data = game.position()
    assert game.state.describe() == f"hugo 2p, over: winners {data['winners']}, scores {data['scores']}"


@pytest.mark.parametrize(
    ("data", "action", "why"),
    [
        (hugo_pos(FOUR, to_move=2), Move("G3", "G4"), "seat 2 must roll the die first"),
        (hugo_pos(FOUR, to_move=1, roll=2), Place("G10"), "seat 1 must move a guest 2 steps"),
        (
            hugo_pos(FOUR, to_move=1, roll=2),
            Pass(),
            "passing needs at most one own guest on the gallery (midnight-party, §8.3)",
        ),
        (
            mp_pos([["G1", "G2", "C10", "C9", "C8", "C7"], ["G3"] * 6], roll=4),
            Pass(),
            "passing needs at most one own guest on the gallery (midnight-party, §8.3)",
        ),
        (
            hugo_pos([["G1"] * 5, ["G2"] * 6], phase="place", clock="23:45", hugo="START", place_queue=[0]),
            Roll(4),
            "seat 0 must place a guest",
        ),
    ],
)
def test_an_illegal_action_says_what_the_seat_must_do(data: dict, action: object, why: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        apply(position_from_dict(data), action)  # type: ignore[arg-type]
    assert str(caught.value) == f"{action!r} is not legal: {why}"


def test_no_action_after_the_end() -> None:
    game = Game("midnight-party", players=3, seed=8)
    while not game.is_over:
        game.roll() if game.state.phase == "roll" else game.push(game.actions()[0])
    with pytest.raises(IllegalAction, match=re.escape(f"{Roll(4)!r} is not legal: the game is over")):
        apply(game.state, Roll(4))


# -- positions that FORMAT.md refuses, each with its exact reason --------------------------

REFUSED = [
    ([1], "position: expected a JSON object, got list"),
    ({k: v for k, v in hugo_pos(FOUR).items() if k != "roll"}, "roll: missing field"),
    (
        {**hugo_pos(FOUR), "colour": 1},
        "colour: unknown field (expected only format, rules, players, first_player, round, phase, to_move, roll, "
        "clock, hugo, scores, round_scores, guests, place_queue, winners)",
    ),
    (hugo_pos(FOUR, roll=3), "roll: expected 1, 2, 4 or 5 in phase 'move', got 3"),
    (hugo_pos(FOUR, clock="1:00", hugo="START"), "clock: 1:00 means Hugo is on the gallery, but he is on START"),
    (hugo_pos(FOUR, clock="24:00", hugo="C5"), "clock: 24:00 means Hugo is on the gallery, but he is on C5"),
    (hugo_pos(FOUR, clock="23:45", hugo="G0"), "clock: 23:45 means Hugo is still in the cellar, but he is on G0"),
    (mp_pos(FOUR, clock="24:00"), "clock: expected null for midnight-party, got '24:00'"),
    (
        hugo_pos(FOUR, phase="place", clock="23:45", hugo="START", place_queue=[]),
        "place_queue: expected the seats still to place in phase 'place', got []",
    ),
    (
        hugo_pos(
            [["G1"] * 3, ["G2"] * 4, ["G3"] * 3, ["G4"] * 4],
            phase="place",
            clock="23:45",
            hugo="START",
            place_queue=[2, 0],
            to_move=0,
        ),
        "to_move: expected 2, the first entry of place_queue, got 0",
    ),
    (hugo_pos(FOUR, to_move=7), "to_move: expected a seat 0 to 3, got 7"),
    (
        hugo_pos(FOUR, hugo="G45"),
        "hugo: 'G45' is not a location on the hugo board (expected G0…G39, R:<room id>, C10…C3, START)",
    ),
    (
        mp_pos(FOUR, hugo="G45"),
        "hugo: 'G45' is not a location on the midnight-party board (expected G0…G39, R:<room id>, C10…C2)",
    ),
    (
        hugo_pos(FOUR, hugo=["G1"]),
        "hugo: ['G1'] is not a location on the hugo board (expected G0…G39, R:<room id>, C10…C3, START)",
    ),
    (mp_pos(FOUR, round_scores=5), "round_scores: expected a list, got 5"),
    (mp_pos(FOUR, round=2), "round_scores: expected one list per scored round (1 in round 2, phase 'roll'), got 0"),
    (mp_pos(FOUR, round=2, round_scores=[[1, 2]]), "round_scores[0]: expected 4 integers, one per seat, got [1, 2]"),
    (
        mp_pos(FOUR, round=2, round_scores=[[1, 2, 3, 4]], scores=[1, 2, 3, 5]),
        "scores: expected the totals of round_scores [1, 2, 3, 4], got [1, 2, 3, 5]",
    ),
]


@pytest.mark.parametrize(("data", "message"), REFUSED)
def test_a_refused_position_says_which_field_and_why(data: object, message: str) -> None:
    with pytest.raises(InvalidPosition) as caught:
        position_from_dict(data)
    assert str(caught.value) == message


def test_wrong_winners_are_refused_with_the_right_ones() -> None:
    """§7: the seats with the lowest score win."""
    data = playout("hugo", 2, 3).position()
    right = data["winners"]
    data["winners"] = [seat for seat in range(2) if seat not in right]
    with pytest.raises(InvalidPosition) as caught:
        position_from_dict(data)
    assert str(caught.value) == f"winners: expected {right}, the seats with the lowest score, got {data['winners']}"


PLACING = hugo_pos([["G1"] * 5, ["G2"] * 6], phase="place", clock="23:45", hugo="START", place_queue=[0])


@pytest.mark.parametrize(
    ("data", "square", "why"),
    [
        (PLACING, "G1", "G1 already holds a guest"),
        (PLACING, "G2", "G2 already holds a guest"),
        (PLACING, "G40", "'G40' is not a gallery square"),
        (PLACING, "R:chapel", "'R:chapel' is not a gallery square"),
        (mp_pos([["G1"] * 5, ["G2"] * 6], phase="place", hugo="G9", place_queue=[0]), "G9", "Hugo stands on G9"),
    ],
)
def test_an_illegal_placement_says_why(data: dict, square: str, why: str) -> None:
    """§2.2: a waiting guest goes on an empty gallery square, never Hugo's (§5.2)."""
    with pytest.raises(IllegalAction) as caught:
        apply(position_from_dict(data), Place(square))
    assert str(caught.value) == f"{Place(square)!r} is not legal: {why}"


@pytest.mark.parametrize(
    ("players", "first", "message"),
    [
        (1, 0, "players must be 2 to 8, got 1"),
        (9, 0, "players must be 2 to 8, got 9"),
        (4, 4, "first_player must be a seat 0 to 3, got 4"),
        (3, -1, "first_player must be a seat 0 to 2, got -1"),
    ],
)
def test_a_new_game_needs_two_to_eight_players_and_a_seat_to_start(players: int, first: int, message: str) -> None:
    """§1.5: 2 to 8 players."""
    with pytest.raises(ValueError) as caught:
        Game("hugo", players=players, first_player=first)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "move", "why"),
    [
        (hugo_pos(FOUR, to_move=2, roll=4), Move("G7", "G12"), "a guest on G7 cannot reach G12 with a 4"),
        (hugo_pos(FOUR, to_move=2, roll=4), Move("G8", "G12"), "seat 2 has no guest that may move from G8"),
        # §8.2: where rooms hold, a guest in a room stays, even onto its path's end
        (
            mp_pos([["R:library", "G9", "G10", "G11", "G12", "G13"], ["G3"] * 6], roll=2),
            Move("R:library", "G3"),
            "seat 0 has no guest that may move from R:library",
        ),
    ],
)
def test_an_illegal_move_says_why(data: dict, move: Move, why: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        apply(position_from_dict(data), move)
    assert str(caught.value) == f"{move!r} is not legal: {why}"


def test_a_roll_the_die_cannot_show_is_illegal() -> None:
    """§1.4: the die shows 1, 2, 4, 5 or HUGO (twice); ``Roll(True)`` is none of them."""
    odd = Roll(True)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as caught:
        apply(position_from_dict(hugo_pos(FOUR)), odd)
    assert str(caught.value) == f"{odd!r} is not legal: a roll is 1, 2, 4, 5 or 'hugo'"
