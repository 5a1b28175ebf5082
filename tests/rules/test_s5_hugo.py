"""RULES.md §5: Hugo's movement, the sweep and the clock."""

from __future__ import annotations

import pytest

from ghostparty import Roll
from ghostparty.rules import events as ev

from .builders import after, game, hugo_pos, mp_pos

HUGO = {"roll": "hugo"}


def far(players: int = 2, square: int = 30) -> list[list[str]]:
    """Guests of every seat bunched on G<square> (clear of Hugo unless he gets there)."""
    per = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}[players]
    return [[f"G{square}"] * per for _ in range(players)]


@pytest.mark.parametrize(("clock", "speed"), [("24:00", 3), ("1:00", 4), ("2:00", 5), ("3:00", 6), ("4:00", 7)])
def test_speed_follows_the_clock(clock: str, speed: int) -> None:
    """§5.1, §5.3: every point is used, one square at a time."""
    pos = hugo_pos(far(), clock=clock, hugo="G1")
    now = after(pos, HUGO)
    assert now["hugo"] == f"G{1 + speed}"
    assert now["clock"] == clock
    assert (now["phase"], now["to_move"], now["roll"]) == ("roll", 1, None)


@pytest.mark.parametrize("players", range(2, 9))
def test_midnight_party_speed(players: int) -> None:
    """§5.1: 3, or 2 with 7 or 8 players."""
    pos = mp_pos(far(players), hugo="G1")
    assert after(pos, HUGO)["hugo"] == f"G{1 + (2 if players >= 7 else 3)}"


def test_hugo_climbs_from_start_in_three_moves() -> None:
    """§1.3: 9 points from START; §5.3: his first arrival moves the clock to 24:00."""
    g = game(hugo_pos(far(), clock="23:45", hugo="START"))
    seen = []
    for _ in range(4):
        g.apply(HUGO)
        seen.append((g.position()["hugo"], g.position()["clock"]))
    assert seen == [("C8", "23:45"), ("C5", "23:45"), ("G0", "24:00"), ("G3", "24:00")]


def test_hugo_climb_path_events() -> None:
    g = game(hugo_pos(far(), clock="23:45", hugo="C4"))
    events = g.push(Roll("hugo"))
    steps = [(e.source, e.target) for e in events if isinstance(e, ev.HugoMoved)]
    assert steps == [("C4", "C3"), ("C3", "G0"), ("G0", "G1")]
    clocks = [e for e in events if isinstance(e, ev.ClockAdvanced)]
    assert clocks == [ev.ClockAdvanced("24:00", 3)]


def test_midnight_party_climb_from_step_ten() -> None:
    g = game(mp_pos(far(), hugo="C10"))
    path = []
    for _ in range(3):
        g.apply(HUGO)
        path.append(g.position()["hugo"])
    assert path == ["C7", "C4", "G0"]  # C10 -> C9 C8 C7 -> C6 C5 C4 -> C3 C2 G0
    assert g.position()["clock"] is None


def test_sweep_captures_passed_and_final_squares_only_on_the_gallery() -> None:
    """§5.2: passing or stopping captures; rooms and cellar steps are never captured."""
    pos = hugo_pos(
        [["G21", "G23", "G24", "R:portrait-hall", "C10", "G2"], ["G22", "G30", "G30", "G30", "G30", "C9"]],
        clock="1:00",
        hugo="G20",
        scores=[10, 10],
    )
    now = after(pos, HUGO)  # speed 4: G21 G22 G23 G24
    assert now["hugo"] == "G24"
    # G21 (seat 0) -> C8, G22 (seat 1) -> C7, G23 (seat 0) -> C6, G24 (seat 0) -> C5
    assert sorted(now["guests"][0]) == sorted(["R:portrait-hall", "C10", "G2", "C8", "C6", "C5"])
    assert sorted(now["guests"][1]) == sorted(["G30", "G30", "G30", "G30", "C9", "C7"])
    assert now["scores"] == [10 + 8 + 6 + 5, 10 + 7]


def test_hugo_passes_the_arrow_and_the_clock_advances_mid_move() -> None:
    """§5.3: the clock advances on passing square 0; the move under way keeps its points."""
    pos = hugo_pos(far(), clock="1:00", hugo="G38")
    g = game(pos)
    g.apply(HUGO)  # speed 4: G39 G0 G1 G2 - the clock goes to 2:00 but he still moves 4
    assert (g.position()["hugo"], g.position()["clock"]) == ("G2", "2:00")
    g.apply(HUGO)  # speed 5 now
    assert g.position()["hugo"] == "G7"


def test_clock_advances_after_the_capture_on_square_zero() -> None:
    """§5.3: *after* the guests on square 0 are captured: the capture scores normally."""
    pos = hugo_pos([["G0", "G30", "G30", "G30", "G30", "G30"], far()[1]], clock="2:00", hugo="G38")
    g = game(pos)
    events = g.push(Roll("hugo"))
    kinds = [type(e).__name__ for e in events if not isinstance(e, ev.HugoMoved | ev.ScoreChanged)]
    assert kinds == ["Rolled", "Captured", "ClockAdvanced", "TurnStarted"]
    assert g.position()["clock"] == "3:00"
    assert g.position()["scores"] == [20, 10]


def test_clock_five_ends_before_the_remaining_points() -> None:
    """§5.3: reaching 5:00 ends the game at once; Hugo's remaining points are not used."""
    pos = hugo_pos(
        [["G1", "G30", "G30", "G30", "G30", "G30"], ["G2", "G30", "G30", "G30", "G30", "G30"]],
        clock="4:00",
        hugo="G38",
        scores=[12, 11],
    )
    now = after(pos, HUGO)  # G39, G0 (5:00): 5 points left; G1, G2 are never reached
    assert (now["phase"], now["clock"], now["hugo"]) == ("over", "5:00", "G0")
    assert now["scores"] == [12, 11]
    assert now["winners"] == [1]
    assert "G1" in now["guests"][0] and "G2" in now["guests"][1]


def test_midnight_party_has_no_clock_on_the_arrow() -> None:
    now = after(mp_pos(far(), hugo="G38"), HUGO)
    assert (now["hugo"], now["clock"], now["phase"]) == ("G1", None, "roll")


def test_hugo_roll_moves_no_guest_and_passes_the_turn() -> None:
    """§3.1: HUGO: Hugo moves; the player moves no guest."""
    pos = hugo_pos(far(3), to_move=2, clock="24:00", hugo="G1")
    now = after(pos, HUGO)
    assert now["guests"] == pos["guests"]
    assert (now["to_move"], now["phase"], now["roll"]) == (0, "roll", None)
