"""Events: what happened while an action was applied, in order, and their narration."""

from __future__ import annotations

from ghostparty import Game, Move, Pass, Place, Roll
from ghostparty.rules import events as ev
from ghostparty.rules.narrate import describe, describe_action, hugo_path, narrate, seat_name

from .builders import game, hugo_pos, mp_pos, playout


def test_placement_events() -> None:
    g = game(hugo_pos([["G1"] * 5, ["G2"] * 6], phase="place", clock="23:45", hugo="START", place_queue=[0]))
    assert g.push(Place("G3")) == [ev.Placed(0, "G3"), ev.TurnStarted(0)]


def test_capture_and_clock_events_of_one_hugo_move() -> None:
    """§5.2, §5.3, §6: the whole move in order, with squares, seats, step and points."""
    pos = hugo_pos(
        [["G39", "G1", "G30", "G30", "G30", "C10"], ["G39", "G0", "G30", "G30", "G30", "G30"]],
        clock="24:00",
        hugo="G38",
        to_move=1,
        scores=[20, 15],
    )
    events = game(pos).push(Roll("hugo"))
    assert events == [
        ev.Rolled(1, "hugo"),
        ev.HugoMoved("G38", "G39"),
        ev.Captured("G39", (0, 1), "C9", 9),
        ev.ScoreChanged(0, 20, 29, "capture"),
        ev.ScoreChanged(1, 15, 24, "capture"),
        ev.HugoMoved("G39", "G0"),
        ev.Captured("G0", (1,), "C8", 8),
        ev.ScoreChanged(1, 24, 32, "capture"),
        ev.ClockAdvanced("1:00", 4),
        ev.HugoMoved("G0", "G1"),
        ev.Captured("G1", (0,), "C7", 7),
        ev.ScoreChanged(0, 29, 36, "capture"),
        ev.TurnStarted(0),
    ]
    assert hugo_path(events) == ["G39", "G0", "G1"]


def test_clock_striking_five_event() -> None:
    pos = hugo_pos([["G30"] * 6, ["G31"] * 6], clock="4:00", hugo="G39")
    events = game(pos).push(Roll("hugo"))
    assert events == [
        ev.Rolled(0, "hugo"),
        ev.HugoMoved("G39", "G0"),
        ev.ClockAdvanced("5:00", None),
        ev.GameOver((0, 1), (10, 10), "clock"),
    ]


def test_expulsion_events() -> None:
    """§4.3: enter, expel, capture on the door, then the shield."""
    pos = hugo_pos(
        [["G30", "G30", "G30", "G30", "G30", "G25"], ["R:ballroom", "G31", "G31", "G31", "G31", "G31"]],
        roll=2,
        hugo="G26",
        scores=[12, 30],
    )
    events = game(pos).push(Move("G25", "R:ballroom"))  # G26 (step 1, Hugo: passed), ballroom at 2 exactly
    assert events == [
        ev.GuestMoved(0, "G25", "R:ballroom", ("G26", "R:ballroom")),
        ev.RoomEntered(0, "R:ballroom", "green"),
        ev.GuestExpelled(1, "R:ballroom", "G26"),
        ev.Captured("G26", (1,), "C10", 10),
        ev.ScoreChanged(1, 30, 40, "capture"),
        ev.ScoreChanged(0, 12, 9, "green room"),
        ev.TurnStarted(1),
    ]


def test_guest_moved_paths() -> None:
    pos = hugo_pos([["R:library", "C9", "G38", "G30", "G30", "G30"], ["G31"] * 6], roll=4)
    g = game(pos)
    assert g.push(Move("R:library", "R:fireplace"))[0].path == ("G2", "G3", "R:fireplace")
    g = game(pos)
    assert g.push(Move("C9", "G3"))[0].path == ("G0", "G1", "G2", "G3")
    g = game(pos)
    assert g.push(Move("G38", "G2"))[0].path == ("G39", "G0", "G1", "G2")


def test_round_events() -> None:
    pos = mp_pos(
        [["G21", "R:library", "C10", "C9", "C8", "C7"], ["R:armory", "R:chapel", "C6", "C5", "C4", "C3"]],
        hugo="G20",
    )
    events = game(pos).push(Roll("hugo"))
    # G21 -> C2 (the last free step), the gallery is empty: round 1 ends
    assert [e for e in events if not isinstance(e, ev.HugoMoved)] == [
        ev.Rolled(0, "hugo"),
        ev.Captured("G21", (0,), "C2", 2),
        ev.RoundEnded(1, (36, 19), (36, 19)),
        ev.RoundStarted(2, 0, (0, 0, 0, 0, 1, 1, 1, 1, 0)),
    ]


def test_no_gallery_guest_pass_event() -> None:
    pos = mp_pos([["R:library", "C10", "C9", "C8", "C7", "C6"], ["G31"] * 6])
    assert game(pos).push(Roll(5)) == [ev.Rolled(0, 5), ev.Passed(0, False), ev.TurnStarted(1)]
    pos = mp_pos([["R:library", "G10", "C9", "C8", "C7", "C6"], ["G31"] * 6], roll=5)
    assert game(pos).push(Pass()) == [ev.Passed(0, True), ev.TurnStarted(1)]


def test_narration_is_told_for_every_event_of_whole_games() -> None:
    for rules, players, seed in (("hugo", 4, 5), ("midnight-party", 3, 6)):
        g = playout(rules, players, seed)
        replay = Game.from_position(g.start)
        for action in g.history:
            events = replay.push(action)
            lines = narrate(events)
            assert all(isinstance(line, str) and line for line in lines)
            assert describe_action(action)
            for event in events:
                text = describe(event)
                assert text is None or text


def test_narration_texts() -> None:
    assert describe(ev.Captured("G12", (0, 2), "C9", 9)) == (
        "Hugo catches red and turquoise on G12: onto step C9 (9 points each)"
    )
    assert describe(ev.HugoMoved("G1", "G2")) is None
    assert describe_action(Move("G8", "R:fireplace")) == "G8 → fireplace"
    assert describe_action(Roll("hugo")) == "roll HUGO"
    assert seat_name(7) == "purple" and seat_name(8) == "seat 8"
    assert narrate([ev.HugoMoved("C4", "C3"), ev.HugoMoved("C3", "G0"), ev.ClockAdvanced("24:00", 3)]) == [
        "Hugo moves 2: C3 G0",
        "the clock strikes 24:00: Hugo now moves 3",
    ]
