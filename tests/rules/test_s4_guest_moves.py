"""RULES.md §3 and §4: a turn, guest moves, entering rooms, expelling, shields.

Each expected move set is worked out by hand from the rules, named in the comments.
"""

from __future__ import annotations

import pytest

from ghostparty import IllegalAction

from .builders import after, game, hugo_pos, move_set, moves, multiset

# A 2-player hugo position with Hugo far away on G20 (clock 24:00): seat 0 to move.
OTHER = ["G24", "G25", "G27", "G28", "G29", "G30"]  # seat 1, out of the way unless stated


def hp(mine: list[str], roll: int, other: list[str] | None = None, **fields: object) -> dict:
    return hugo_pos([mine, other if other is not None else OTHER], roll=roll, **fields)


# -- §3.1: a number leads to phase move for the same seat ----------------------------------


@pytest.mark.parametrize("roll", [1, 2, 4, 5])
def test_number_roll_leads_to_move_phase(roll: int) -> None:
    pos = hugo_pos([["G1", "G4", "G6", "G9", "G11", "G15"], OTHER], to_move=0)
    g = game(pos)
    g.apply({"roll": roll})
    now = g.position()
    assert (now["phase"], now["to_move"], now["roll"]) == ("move", 0, roll)
    assert now["guests"] == pos["guests"] and now["hugo"] == "G20"


def test_move_phase_even_with_a_single_legal_move() -> None:
    """FORMAT.md: a number leads to phase move even when only one move is legal."""
    pos = hugo_pos([["C10"] * 6, OTHER])  # 2 players x 6; all on C10, one source, no door on the way
    g = game(pos)
    g.apply({"roll": 1})
    assert g.position()["phase"] == "move"
    assert g.legal_actions() == [{"from": "C10", "to": "G0"}]


def test_after_a_move_the_next_seat_rolls() -> None:
    """§3.2, clockwise from the last seat back to seat 0."""
    pos = hugo_pos([["G1"] * 2, ["G2"] * 2, ["G3"] * 2, ["G6"] * 2, ["G7"] * 2, ["G4", "G5"]], to_move=5, roll=1)
    now = after(pos, {"from": "G5", "to": "G6"})
    assert (now["phase"], now["to_move"], now["roll"]) == ("roll", 0, None)


# -- §4.1 where a path starts --------------------------------------------------------------


def test_gallery_moves_go_clockwise_and_wrap() -> None:
    """§4.1, §1.1: n squares ahead; from G39 the next square is G0."""
    pos = hp(["G36", "G37", "G38", "G39", "G10", "G11"], 4)
    assert move_set(pos) == {
        ("G10", "G14"),  # tower door G13 reached at step 3, entered at 4: also legal
        ("G10", "R:tower"),
        ("G11", "G15"),  # G13 at step 2 -> tower at step 3
        ("G11", "R:tower"),
        ("G36", "G0"),
        ("G37", "G1"),
        ("G38", "G2"),
        ("G39", "G3"),
        ("G39", "R:library"),  # G0, G1, G2 (step 3), library at step 4
    }


def test_room_path_starts_at_its_door() -> None:
    """§4.1: from a room, step 1 reaches the door square."""
    pos = hp(["R:armory", "G0", "G0", "G0", "G0", "G0"], 2)
    assert ("R:armory", "G18") in move_set(pos)  # door 17, then 18
    assert ("R:armory", "G17") not in move_set(pos)
    pos1 = hp(["R:armory", "G0", "G0", "G0", "G0", "G0"], 1)
    assert ("R:armory", "G17") in move_set(pos1)


@pytest.mark.parametrize("step", ["C10", "C6", "C3"])
def test_cellar_path_starts_at_square_zero_from_any_step(step: str) -> None:
    """§4.1: step 1 reaches square 0, whichever step the guest stood on."""
    pos = hp([step, "G5", "G5", "G5", "G5", "G5"], 2)
    assert (step, "G1") in move_set(pos)
    pos = hp([step, "G5", "G5", "G5", "G5", "G5"], 5)
    assert {(s, t) for s, t in move_set(pos) if s == step} == {
        (step, "G4"),
        (step, "R:library"),  # G0 G1 G2 then the library at step 4 (at-least: 5th lost)
        (step, "R:fireplace"),  # G0 G1 G2 G3 then the fireplace at step 5
    }


def test_only_the_highest_own_step_may_leave() -> None:
    """§4.1: only a guest on the highest-valued step holding one of the player's guests."""
    pos = hp(["C7", "C5", "C5", "C4", "G10", "G11"], 1, other=["C10", "C9", "G30", "G31", "G32", "G33"])
    sources = {s for s, _ in move_set(pos)}
    assert sources == {"C7", "G10", "G11"}  # C10/C9 belong to seat 1: seat 0's highest is C7
    with pytest.raises(IllegalAction):
        game(pos).apply({"from": "C5", "to": "G0"})


def test_two_guests_on_one_step_are_one_source() -> None:
    """§4.6: guests of one player on one location are interchangeable."""
    pos = hp(["C9", "C9", "C8", "G10", "G10", "G10"], 2)
    assert moves(pos) == [{"from": "G10", "to": "G12"}, {"from": "C9", "to": "G1"}]
    now = after(pos, {"from": "C9", "to": "G1"})
    assert sorted(now["guests"][0]) == sorted(["G1", "C9", "C8", "G10", "G10", "G10"])


# -- §4.2 entering a room ---------------------------------------------------------------------


@pytest.mark.parametrize("hugo", ["START", "C10", "C5", "C3"])
def test_no_room_while_hugo_is_in_the_cellar(hugo: str) -> None:
    """§4.2.1: Hugo must stand on the gallery."""
    pos = hp(["G1", "G6", "G7", "G12", "R:chapel", "C10"], 5, clock="23:45", hugo=hugo)
    assert move_set(pos) == {
        ("G1", "G6"),
        ("G6", "G11"),
        ("G7", "G12"),
        ("G12", "G17"),
        ("R:chapel", "G12"),
        ("C10", "G4"),
    }


def test_hugo_on_square_zero_allows_rooms() -> None:
    """§4.2.1: any gallery square counts, the arrow square too."""
    pos = hp(["G1", "G33", "G33", "G33", "G33", "G33"], 1, hugo="G0")
    assert move_set(pos) == {("G1", "G2"), ("G33", "G34")}  # nothing stands on a door with a 1
    pos = hp(["G1", "G33", "G33", "G33", "G33", "G33"], 2, hugo="G0")
    assert ("G1", "R:library") in move_set(pos)


def test_no_reentry_into_the_start_room() -> None:
    """§4.2.2: R is not the room the guest began this move in, even with an exact roll."""
    pos = hp(["R:chapel", "G30", "G30", "G30", "G30", "G30"], 1)
    assert move_set(pos) == {("R:chapel", "G8"), ("G30", "G31")}
    with pytest.raises(IllegalAction):
        game(pos).apply({"from": "R:chapel", "to": "R:chapel"})


def test_own_room_is_blocked_even_exactly() -> None:
    """§4.2.3: R holds no guest of the moving player."""
    # G7 reaches the chapel door at step 1, so the chapel would be step 2 (at-least): blocked
    pos = hp(["G7", "R:chapel", "G10", "G10", "G10", "G10"], 4)
    assert move_set(pos) == {("G7", "G11"), ("R:chapel", "G11"), ("G10", "G14"), ("G10", "R:tower")}
    pos = hp(["G7", "R:chapel", "G10", "G10", "G10", "G10"], 2)  # chapel at step 2 = exact: still blocked
    assert ("G7", "R:chapel") not in move_set(pos)


@pytest.mark.parametrize(
    ("start", "roll", "legal"),
    [
        ("G25", 2, True),  # G26 at step 1, ballroom at step 2 = n: exact
        ("G24", 2, False),  # G25, G26: the ballroom would be step 3
        ("G24", 4, False),  # G25, G26 (step 2), ballroom step 3 < 4: not exact
        ("G23", 4, True),  # G24 G25 G26, ballroom step 4 = n
        ("G26", 1, True),  # standing on the door: step 1 = n
        ("G26", 2, False),  # standing on the door: step 1 < 2
    ],
)
def test_green_room_needs_an_exact_roll(start: str, roll: int, legal: bool) -> None:
    """§4.2.4: a green room's entry must be the n-th step."""
    pos = hp([start, "G0", "G0", "G0", "G0", "G0"], roll)
    assert ((start, "R:ballroom") in move_set(pos)) is legal


@pytest.mark.parametrize(
    ("start", "roll", "legal"),
    [
        ("G15", 4, False),  # armory (door 17) at step 3 < 4, occupied: needs exact
        ("G14", 4, True),  # armory at step 4 = n
        ("G17", 1, True),
        ("G17", 2, False),
    ],
)
def test_occupied_room_needs_an_exact_roll(start: str, roll: int, legal: bool) -> None:
    """§4.2.4: entering a room with another player's guest must be the n-th step."""
    pos = hp([start, "G0", "G0", "G0", "G0", "G0"], roll, other=["R:armory", *OTHER[:5]])
    assert ((start, "R:armory") in move_set(pos)) is legal


@pytest.mark.parametrize("roll", [2, 4, 5])
def test_empty_room_any_step_remaining_lost(roll: int) -> None:
    """§4.2.5: an empty neutral or red room may be entered with any step k <= n."""
    pos = hp(["G7", "G0", "G0", "G0", "G0", "G0"], roll)  # chapel door G8 at step 1 -> chapel with step 2
    found = move_set(pos)
    assert ("G7", "R:chapel") in found
    now = after(pos, {"from": "G7", "to": "R:chapel"})
    assert "R:chapel" in now["guests"][0] and now["scores"] == [10, 10]


def test_pass_a_door_and_go_room_to_room() -> None:
    """§4.2: a guest may pass a door, and go from one room into another in one move."""
    pos = hp(["R:library", "G0", "G0", "G0", "G0", "G0"], 4)
    assert {t for s, t in move_set(pos) if s == "R:library"} == {"G5", "R:fireplace"}
    now = after(pos, {"from": "R:library", "to": "R:fireplace"})
    assert multiset(now["guests"])[0] == sorted(["R:fireplace", "G0", "G0", "G0", "G0", "G0"])


def test_several_rooms_on_one_path() -> None:
    """§4.2: every door the path reaches before its last step offers its room."""
    # hugo board: library 2, fireplace 3; from G0 with a 4: G1, G2 (library at 3), G3 (fireplace at 4), G4
    pos = hp(["G0", "G10", "G10", "G10", "G10", "G10"], 4)
    assert {t for s, t in move_set(pos) if s == "G0"} == {"G4", "R:library", "R:fireplace"}


# -- §4.3 expelling ------------------------------------------------------------------------


def test_expel_from_a_door_square() -> None:
    """§4.3: standing on the door, a 1 enters exactly and expels the occupant onto that door."""
    pos = hp(["G13", "G0", "G0", "G0", "G0", "G0"], 1, other=["R:tower", *OTHER[:5]], scores=[15, 22])
    now = after(pos, {"from": "G13", "to": "R:tower"})
    assert sorted(now["guests"][0]) == sorted(["R:tower", "G0", "G0", "G0", "G0", "G0"])
    assert sorted(now["guests"][1]) == sorted(["G13", *OTHER[:5]])
    assert now["scores"] == [15, 22]
    assert now["to_move"] == 1


def test_expelled_guest_onto_hugo_is_captured() -> None:
    """§4.3: if Hugo stands on the door square the expelled guest is captured at once (§6)."""
    pos = hp(["G12", "G0", "G0", "G0", "G0", "G0"], 2, other=["R:tower", "C10", *OTHER[:4]], hugo="G13")
    now = after(pos, {"from": "G12", "to": "R:tower"})  # passes Hugo on G13, enters exactly at step 2
    assert sorted(now["guests"][1]) == sorted(["C10", "C9", *OTHER[:4]])  # C10 held: onto C9
    assert now["scores"] == [10, 19]
    assert "G13" not in now["guests"][1]


def test_expel_then_red_shield_scores_the_mover() -> None:
    """§4.3 order: enter, expel, then the shield scores the mover (§4.5)."""
    pos = hp(["G16", "G0", "G0", "G0", "G0", "G0"], 1, other=["R:armory", *OTHER[:5]])
    assert ("G16", "R:armory") not in move_set(pos)  # door 17 at step 1: entry would be step 2
    pos = hp(["G17", "G0", "G0", "G0", "G0", "G0"], 1, other=["R:armory", *OTHER[:5]], scores=[12, 30])
    now = after(pos, {"from": "G17", "to": "R:armory"})
    assert now["scores"] == [13, 30]
    assert "G17" in now["guests"][1]


# -- §4.4 ending on the gallery ----------------------------------------------------------------


def test_passing_hugo_is_safe_ending_on_him_is_captured() -> None:
    """§4.4: a guest may pass Hugo; ending on his square it is captured at once."""
    pos = hp(["G18", "G0", "G0", "G0", "G0", "G0"], 4, hugo="G20")
    passed = after(pos, {"from": "G18", "to": "G22"})
    assert "G22" in passed["guests"][0] and passed["scores"] == [10, 10]
    pos = hp(["G18", "G0", "G0", "G0", "G0", "G0"], 2, hugo="G20")
    caught = after(pos, {"from": "G18", "to": "G20"})
    assert "G20" not in caught["guests"][0] and "C10" in caught["guests"][0]
    assert caught["scores"] == [20, 10]


def test_guests_share_squares() -> None:
    """§4.4: a guest may end on a square with other guests, its own or others'."""
    pos = hp(["G20", "G22", "G0", "G0", "G0", "G0"], 2, other=["G24", *OTHER[1:]], hugo="G10")
    now = after(pos, {"from": "G22", "to": "G24"})
    assert "G24" in now["guests"][0] and "G24" in now["guests"][1]
    pos = hp(["G20", "G22", "G0", "G0", "G0", "G0"], 2, hugo="G10")
    now = after(pos, {"from": "G20", "to": "G22"})
    assert now["guests"][0].count("G22") == 2


# -- §4.5 shields -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("room", "start", "roll", "before", "after_"),
    [
        ("R:armory", "G16", 2, 10, 11),  # red +1
        ("R:armory", "G16", 2, 45 - 1, 45),
        ("R:ballroom", "G25", 2, 10, 7),  # green -3 (door G26 at step 1, entry exactly at 2)
        ("R:ballroom", "G25", 2, 3, 0),
        ("R:ballroom", "G25", 2, 2, 0),  # never below 0
        ("R:ballroom", "G25", 2, 0, 0),
        ("R:banquet-hall", "G27", 5, 12, 9),
        ("R:chapel", "G8", 1, 17, 17),  # neutral: no change
    ],
)
def test_shields(room: str, start: str, roll: int, before: int, after_: int) -> None:
    """§4.5: red +1, green -3 floored at 0, at the moment of entry."""
    pos = hp([start, "G0", "G0", "G0", "G0", "G0"], roll, other=["G30"] * 6, scores=[before, 20])
    now = after(pos, {"from": start, "to": room})
    assert now["scores"] == [after_, 20]
    assert room in now["guests"][0]


def test_leaving_a_shield_room_scores_nothing() -> None:
    pos = hp(["R:armory", "R:ballroom", "G0", "G0", "G0", "G0"], 2, scores=[20, 20])
    assert after(pos, {"from": "R:armory", "to": "G18"})["scores"] == [20, 20]
    assert after(pos, {"from": "R:ballroom", "to": "G27"})["scores"] == [20, 20]


# -- compulsory moves (§3.1) ----------------------------------------------------------------------


def test_hugo_rules_never_offer_a_pass() -> None:
    pos = hp(["C10", "C10", "C10", "C10", "C10", "G5"], 4)
    assert {"pass": True} not in moves(pos)
    with pytest.raises(IllegalAction):
        game(pos).apply({"pass": True})
