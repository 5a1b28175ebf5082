"""Events in words (``rules.narrate``): the exact sentence for every kind of event.

The terminal, the replays and the logs print these sentences; a word lost or changed would
go unnoticed by the tests that only check that some text comes out. Colours by seat are
RULES.md §1.5; the shields' points §4.3; the clock §6; the game's end §7 and §8.5.
"""

from __future__ import annotations

import pytest

from ghostparty.rules import events as ev
from ghostparty.rules.actions import Move, Pass, Place, Roll
from ghostparty.rules.narrate import describe, describe_action, hugo_path, narrate, seat_name


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (ev.Placed(1, "G12"), "blue places a guest on G12"),
        (ev.Rolled(2, 4), "turquoise rolls 4"),
        (ev.Rolled(0, "hugo"), "red rolls HUGO"),
        (ev.GuestMoved(3, "G5", "G9", ("G6", "G7", "G8", "G9")), "yellow moves a guest from G5 to G9"),
        (ev.GuestMoved(0, "G1", "R:portrait-hall", ("G2",)), "red moves a guest from G1 to the portrait hall"),
        (
            ev.GuestMoved(1, "R:banquet-hall", "G33", ("G31", "G32", "G33")),
            "blue moves a guest from the banquet hall to G33",
        ),
        (ev.GuestMoved(4, "C9", "G1", ("G0", "G1")), "black moves a guest from cellar step C9 to G1"),
        (ev.RoomEntered(5, "R:armory", "red"), "green hides in the armory (red shield: +1)"),
        (ev.RoomEntered(6, "R:banquet-hall", "green"), "white hides in the banquet hall (green shield: -3)"),
        (ev.RoomEntered(7, "R:library", "neutral"), "purple hides in the library"),
        (
            ev.GuestExpelled(2, "R:portrait-hall", "G23"),
            "turquoise's guest is expelled from the portrait hall onto G23",
        ),
        (ev.Captured("G7", (3,), "C10", 10), "Hugo catches yellow on G7: onto step C10 (10 points)"),
        (
            ev.Captured("G12", (0, 2, 2, 5), "C9", 9),
            "Hugo catches red, turquoise and green on G12: onto step C9 (9 points each)",
        ),
        (ev.ScoreChanged(1, 12, 9, "green shield"), "blue: 12 → 9 spooky points (green shield)"),
        (ev.ClockAdvanced("2:00", 5), "the clock strikes 2:00: Hugo now moves 5"),
        (ev.ClockAdvanced("5:00", None), "the clock strikes 5:00: the party is over"),
        (ev.Passed(0, True), "red passes"),
        (ev.Passed(3, False), "yellow has no guest on the gallery and cannot move"),
        (ev.TurnStarted(4), "black to roll"),
        (ev.SentToCellar(2, "G30", "C2"), "turquoise's guest on G30 goes to the wine cellar (C2)"),
        (ev.RoundEnded(2, (3, -1, 0), (10, 4, 7)), "round 2 ends: red +3, blue -1, turquoise +0"),
        (ev.RoundStarted(3, 2, (2, 0, 1)), "round 3 begins; turquoise moves first"),
        (ev.GameOver((1,), (12, 5), "clock"), "game over (the clock struck five): blue wins — red 12, blue 5"),
        (
            ev.GameOver((0, 2), (3, 9, 3), "score"),
            "game over (a score reached 46): red and turquoise wins — red 3, blue 9, turquoise 3",
        ),
        (
            ev.GameOver((2,), (8, 6, 1), "rounds"),
            "game over (three rounds played): turquoise wins — red 8, blue 6, turquoise 1",
        ),
        (ev.GameOver((0,), (1,), "resigned"), "game over (resigned): red wins — red 1"),
        (ev.HugoMoved("G3", "G4"), None),
    ],
)
def test_every_event_has_its_sentence(event: ev.Event, text: str | None) -> None:
    assert describe(event) == text


def test_something_that_is_no_event_has_no_sentence() -> None:
    assert describe("G1") is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Move("G8", "R:portrait-hall"), "G8 → portrait hall"),
        (Move("R:banquet-hall", "G33"), "banquet hall → G33"),
        (Move("C10", "G2"), "C10 → G2"),
        (Roll(5), "roll 5"),
        (Roll("hugo"), "roll HUGO"),
        (Place("G17"), "place on G17"),
        (Pass(), "pass"),
    ],
)
def test_every_action_in_words(action: Move | Roll | Place | Pass, text: str) -> None:
    assert describe_action(action) == text


def test_something_that_is_no_action_is_told_as_it_is() -> None:
    assert describe_action("G1") == "'G1'"  # type: ignore[arg-type]


def test_seat_names_are_the_colours_in_seat_order() -> None:
    """§1.5: red, blue, turquoise, yellow, black, green, white, purple; no colour past eight."""
    names = [seat_name(seat) for seat in range(8)]
    assert names == ["red", "blue", "turquoise", "yellow", "black", "green", "white", "purple"]
    assert seat_name(-1) == "seat -1"
    assert seat_name(8) == "seat 8"


def test_narrate_folds_each_hugo_move_into_one_line_and_skips_turn_starts() -> None:
    events = [
        ev.Rolled(0, "hugo"),
        ev.HugoMoved("G38", "G39"),
        ev.HugoMoved("G39", "G0"),
        ev.HugoMoved("G0", "G1"),
        ev.Captured("G1", (1,), "C10", 10),
        ev.TurnStarted(1),
        ev.Passed(1, False),
    ]
    assert hugo_path(events) == ["G39", "G0", "G1"]
    assert narrate(events) == [
        "red rolls HUGO",
        "Hugo moves 3: G39 G0 G1",
        "Hugo catches blue on G1: onto step C10 (10 points)",
        "blue has no guest on the gallery and cannot move",
    ]
    assert narrate([ev.TurnStarted(0)]) == []
    assert narrate([]) == []
