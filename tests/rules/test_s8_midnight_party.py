"""RULES.md §8: the Midnight Party rules: rooms hold, the duty to move, rounds."""

from __future__ import annotations

import pytest

from ghostparty import IllegalAction, Move, Roll
from ghostparty.rules import events as ev

from .builders import after, game, move_set, moves, mp_pos, multiset

HUGO = {"roll": "hugo"}


# -- §8.2 rooms and the cellar hold on ----------------------------------------------------------


def test_only_gallery_guests_move() -> None:
    pos = mp_pos(
        [["G5", "G9", "R:library", "R:armory", "C10", "C9"], ["G30"] * 6],
        roll=4,
    )
    assert move_set(pos) == {("G5", "G9"), ("G5", "R:chapel"), ("G9", "G13"), ("G9", "R:abandoned-room")}
    # G5: G6, G7 (chapel door, step 2) -> chapel at 3 (at-least); G9: G10, G11 -> abandoned-room at 3
    for frozen in ("R:library", "R:armory", "C10", "C9"):
        assert not [s for s, _ in move_set(pos) if s == frozen]
        with pytest.raises(IllegalAction):
            game(pos).apply({"from": frozen, "to": "G1"})


@pytest.mark.parametrize("room", ["R:chapel", "R:ballroom", "R:abandoned-room"])
def test_no_expelling(room: str) -> None:
    """§8.2: an occupied room cannot be entered at all, not even with an exact roll."""
    door = {"R:chapel": 7, "R:ballroom": 25, "R:abandoned-room": 11}[room]
    pos = mp_pos([[f"G{door - 2}", "G30", "G30", "G30", "G30", "G30"], [room, *["G31"] * 5]], roll=2)
    assert (f"G{door - 2}", room) not in move_set(pos)
    assert (f"G{door - 2}", f"G{door}") in move_set(pos)


def test_green_exact_others_at_least() -> None:
    """§8.2: green rooms still need an exact roll; other empty rooms any step k <= n."""
    pos = mp_pos([["G23", "G27", "G30", "G30", "G30", "G30"], ["G31"] * 6], roll=4)
    found = move_set(pos)
    assert ("G23", "R:ballroom") not in found  # G24, G25 (step 2): ballroom at 3 of 4
    assert ("G27", "R:banquet-hall") not in found  # G28, G29 (step 2): banquet-hall at 3 of 4
    pos = mp_pos([["G22", "G26", "G30", "G30", "G30", "G30"], ["G31"] * 6], roll=4)
    found = move_set(pos)
    assert ("G22", "R:ballroom") in found  # G23 G24 G25, ballroom at 4
    assert ("G22", "R:portrait-hall") in found  # standing on its door: step 1 of 4
    assert ("G26", "R:banquet-hall") in found  # G27 G28 G29, banquet-hall at 4


def test_no_room_while_hugo_is_on_the_steps() -> None:
    """§8.2, §4.2.1: entering a room still needs Hugo on the gallery."""
    pos = mp_pos([["G5", "G30", "G30", "G30", "G30", "G30"], ["G31"] * 6], roll=4, hugo="C4")
    assert move_set(pos) == {("G5", "G9"), ("G30", "G34")}


def test_entering_a_shield_room_scores_nothing_during_play() -> None:
    pos = mp_pos([["G11", "G24", "G30", "G30", "G30", "G30"], ["G31"] * 6], roll=1)
    assert after(pos, {"from": "G11", "to": "R:abandoned-room"})["scores"] == [0, 0]
    pos = mp_pos([["G25", "G24", "G30", "G30", "G30", "G30"], ["G31"] * 6], roll=1)
    assert after(pos, {"from": "G25", "to": "R:ballroom"})["scores"] == [0, 0]


# -- §8.3 the duty to move --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "may_pass"),
    [
        (["G5", "G9", "R:library", "C10", "C9", "C8"], False),  # two on the gallery: must move
        (["G5", "G5", "R:library", "C10", "C9", "C8"], False),  # two on one square count as two
        (["G5", "R:chapel", "R:library", "C10", "C9", "C8"], True),  # exactly one: may pass
    ],
)
def test_pass_only_with_exactly_one_gallery_guest(mine: list[str], may_pass: bool) -> None:
    """§8.3: counting only the player's own guests on the gallery."""
    pos = mp_pos([mine, ["G31"] * 6], roll=2)
    assert ({"pass": True} in moves(pos)) is may_pass
    g = game(pos)
    if may_pass:
        events = g.push(g.actions()[-1])
        assert events[0] == ev.Passed(0, True)
        now = g.position()
        assert (now["phase"], now["to_move"]) == ("roll", 1)
        assert multiset(now["guests"]) == multiset(pos["guests"])
    else:
        with pytest.raises(IllegalAction):
            g.apply({"pass": True})


@pytest.mark.parametrize("roll", [1, 2, 4, 5])
def test_a_number_does_nothing_without_gallery_guests(roll: int) -> None:
    """§8.3: with none on the gallery a rolled number does nothing and the turn passes (FORMAT.md)."""
    pos = mp_pos([["R:library", "R:chapel", "C10", "C9", "C8", "C7"], ["G31"] * 6], to_move=0)
    g = game(pos)
    events = g.push(Roll(roll))
    now = g.position()
    assert (now["phase"], now["to_move"], now["roll"]) == ("roll", 1, None)
    assert now["guests"] == pos["guests"]
    assert events == [ev.Rolled(0, roll), ev.Passed(0, False), ev.TurnStarted(1)]


def test_a_given_move_phase_without_gallery_guests_can_go_on() -> None:
    """Unreachable in play (the roll passes by itself); the engine offers the pass (ARCHITECTURE.md)."""
    pos = mp_pos([["R:library", "R:chapel", "C10", "C9", "C8", "C7"], ["G31"] * 6], roll=4)
    assert moves(pos) == [{"pass": True}]
    assert after(pos, {"pass": True})["to_move"] == 1


# -- §8.4–§8.6 a round ends and the next begins --------------------------------------------------

ROOMS_ALMOST_FULL = mp_pos(
    [
        ["G22", "G5", "R:library", "R:fireplace", "R:chapel", "R:abandoned-room"],
        ["R:tower", "R:armory", "R:ballroom", "R:banquet-hall", "R:bedchamber", "R:music-room"],
    ],
    roll=1,
    hugo="G30",
)


def test_round_ends_when_every_room_is_occupied() -> None:
    """§8.4: the last room filled ends the round; the gallery guest G5 goes onto step 2 (C2).

    §8.5: seat 0: abandoned-room +1, C2 +2 = 3; seat 1: armory +1, ballroom -3, banquet-hall -3 = -5.
    §8.6: rooms empty onto their doors, seat 0 places its C2 guest, then moves first (3 > -5).
    """
    assert move_set(ROOMS_ALMOST_FULL) == {("G5", "G6"), ("G22", "G23"), ("G22", "R:portrait-hall")}
    g = game(ROOMS_ALMOST_FULL)
    events = g.push(g.actions()[2])
    assert g.history[-1] == Move("G22", "R:portrait-hall")
    now = g.position()
    assert now["round"] == 2
    assert now["round_scores"] == [[3, -5]]
    assert now["scores"] == [3, -5]
    assert (now["phase"], now["place_queue"], now["to_move"], now["first_player"]) == ("place", [0], 0, 0)
    assert now["hugo"] == "C10"
    assert multiset(now["guests"]) == [
        sorted(["G2", "G3", "G7", "G11", "G22"]),
        sorted(["G14", "G18", "G25", "G29", "G33", "G36"]),
    ]
    tail = [e for e in events if isinstance(e, ev.SentToCellar | ev.RoundEnded | ev.RoundStarted)]
    assert tail == [
        ev.SentToCellar(0, "G5", "C2"),
        ev.RoundEnded(1, (3, -5), (3, -5)),
        ev.RoundStarted(2, 0, (0,)),
    ]
    # §8.6.3: only empty gallery squares: 40 less the 11 doors now holding guests
    places = [a["place"] for a in g.legal_actions()]
    doors = {"G2", "G3", "G7", "G11", "G14", "G18", "G22", "G25", "G29", "G33", "G36"}
    assert places == [f"G{i}" for i in range(40) if f"G{i}" not in doors]
    g.apply({"place": "G5"})
    now = g.position()
    assert (now["phase"], now["to_move"], now["round"], now["hugo"]) == ("roll", 0, 2, "C10")


def test_round_ends_during_hugos_move_and_the_next_begins() -> None:
    """§8.4: the round ends at once when Hugo empties the gallery (G23 is never reached).

    §8.5: seat 0: C10 + C9 + C6 = 25; seat 1: armory +1, ballroom -3, C8 + C7 + C5 = 18.
    §8.6: queue C10 s0, C9 s0, C8 s1, C7 s1, C6 s0, C5 s1; the portrait-hall guest goes to its
    door G22 where Hugo stood, and is not captured: Hugo is back on C10 (§8.6.2).
    """
    pos = mp_pos(
        [
            ["G21", "R:portrait-hall", "R:library", "R:chapel", "C10", "C9"],
            ["G22", "R:armory", "R:ballroom", "R:tower", "C8", "C7"],
        ],
        hugo="G20",
        to_move=1,
    )
    g = game(pos)
    events = g.push(Roll("hugo"))
    now = g.position()
    hugo_steps = [e.target for e in events if isinstance(e, ev.HugoMoved)]
    assert hugo_steps == ["G21", "G22"]
    assert now["round_scores"] == [[25, 18]] and now["scores"] == [25, 18]
    assert now["place_queue"] == [0, 0, 1, 1, 0, 1]
    assert (now["to_move"], now["first_player"], now["hugo"], now["round"]) == (0, 0, "C10", 2)
    assert multiset(now["guests"]) == [sorted(["G22", "G2", "G7"]), sorted(["G18", "G25", "G14"])]


def test_round_three_end_is_the_game_end() -> None:
    """§8.7: after round 3 is scored the game ends; the lowest total wins, negative allowed (§8.5)."""
    pos = mp_pos(
        [
            ["G22", "G5", "R:library", "R:fireplace", "R:chapel", "R:abandoned-room"],
            ["R:tower", "R:armory", "R:ballroom", "R:banquet-hall", "R:bedchamber", "R:music-room"],
        ],
        roll=1,
        hugo="G30",
        round=3,
        round_scores=[[4, 10], [6, 3]],
        scores=[10, 13],
    )
    now = after(pos, {"from": "G22", "to": "R:portrait-hall"})
    assert now["phase"] == "over"
    assert now["round"] == 3
    assert now["round_scores"] == [[4, 10], [6, 3], [3, -5]]
    assert now["scores"] == [13, 8]
    assert now["winners"] == [1]
    assert now["hugo"] == "G30"
    assert "C2" in now["guests"][0]  # the gallery guest went to the wine cellar and stays there


def test_new_round_placement_order_ties_and_highest_total_first() -> None:
    """§8.6.3: step 10 first, down to step 2; on one step the higher total first (tie: lower seat).

    Hugo sweeps G21 (seat 0 onto C7, the highest free step) and G22 (seat 1 onto C6): the
    gallery is empty and round 1 ends. §8.5: seat 0: C5 + C7 = 12; seat 1: abandoned-room +1,
    C5 + C6 = 12; seat 2: C10 + C4 + C3 = 17; seat 3: armory +1, C9 + C8 + C5 = 23.
    Order by total: 3, 2, then 0 before 1 (tied on 12).
    """
    pos = mp_pos(
        [
            ["G21", "R:library", "R:portrait-hall", "C5"],
            ["G22", "R:chapel", "R:abandoned-room", "C5"],
            ["R:tower", "C10", "C4", "C3"],
            ["R:armory", "C9", "C8", "C5"],
        ],
        hugo="G20",
        to_move=0,
    )
    now = after(pos, HUGO)
    assert now["scores"] == [12, 12, 17, 23]
    # C10 s2, C9 s3, C8 s3, C7 s0, C6 s1, C5: s3 then s0 and s1 (tie, lower seat first), C4 s2, C3 s2
    assert now["place_queue"] == [2, 3, 3, 0, 1, 3, 0, 1, 2, 2]
    assert now["first_player"] == 3
    assert now["to_move"] == 2
    assert now["phase"] == "place"
