"""RULES.md §7: the end of a ``hugo`` game, and what an ended game allows."""

from __future__ import annotations

import pytest

from ghostparty import IllegalAction, Roll
from ghostparty.rules import chance_outcomes
from ghostparty.rules import events as ev

from .builders import after, game, hugo_pos

HUGO = {"roll": "hugo"}
G30 = ["G30"] * 5


def test_46_by_hugo_capture_stops_his_move() -> None:
    """§7: also in the middle of Hugo's move, whose remaining points are then not used."""
    pos = hugo_pos([["G21", *G30], ["G23", *G30]], clock="1:00", hugo="G20", scores=[36, 20], to_move=1)
    now = after(pos, HUGO)  # speed 4 would reach G24; G21 -> C10: 46, the game ends on G21
    assert now["phase"] == "over"
    assert now["hugo"] == "G21"
    assert now["scores"] == [46, 20]
    assert "G23" in now["guests"][1]
    assert now["winners"] == [1]
    assert now["to_move"] == 1  # FORMAT.md: the seat whose action ended the game
    assert now["roll"] is None and now["place_queue"] == []


def test_45_does_not_end() -> None:
    pos = hugo_pos([["G21", *G30], ["G30", *G30]], clock="24:00", hugo="G20", scores=[35, 20])
    now = after(pos, HUGO)  # onto C10: 45
    assert (now["phase"], now["scores"], now["hugo"]) == ("roll", [45, 20], "G23")


def test_46_by_own_move_onto_hugo() -> None:
    """§4.4, §7: a guest ending on Hugo's square is captured; 46 ends the game after that move."""
    pos = hugo_pos([["G18", *G30], ["C10", *G30]], roll=2, hugo="G20", scores=[37, 10])
    now = after(pos, {"from": "G18", "to": "G20"})  # onto C9: 46
    assert (now["phase"], now["scores"], now["winners"], now["to_move"]) == ("over", [46, 10], [1], 0)


def test_score_past_46_by_red_room() -> None:
    """§7: "46 or more"; a red room scores at entry (§4.5)."""
    pos = hugo_pos([["G17", *G30], ["G30", *G30]], roll=1, scores=[45, 45])
    now = after(pos, {"from": "G17", "to": "R:armory"})
    assert (now["phase"], now["scores"], now["winners"]) == ("over", [46, 45], [1])


@pytest.mark.parametrize(
    ("scores", "winners"),
    [([46, 12, 12, 30], [1, 2]), ([47, 0, 3, 0], [1, 3]), ([50, 20, 20, 20], [1, 2, 3])],
)
def test_lowest_score_wins_ties_share(scores: list[int], winners: list[int]) -> None:
    """§7: the lowest score wins; players tied on it share the win."""
    before = [scores[0] - 10, *scores[1:]]
    pos = hugo_pos([["G21", "G30", "G30", "G30"], ["G30"] * 4, ["G31"] * 4, ["G32"] * 4], scores=before)
    now = after(pos, HUGO)
    assert now["scores"] == scores
    assert now["winners"] == winners


def over_position() -> dict:
    pos = hugo_pos([["G21", *G30], ["C10", *G30]], clock="24:00", hugo="G20", scores=[40, 10])
    return after(pos, HUGO)


@pytest.mark.parametrize(
    "action",
    [HUGO, {"roll": 1}, {"roll": 5}, {"from": "G30", "to": "G31"}, {"place": "G1"}, {"pass": True}, {"resign": True}],
)
def test_an_ended_game_accepts_nothing(action: dict) -> None:
    pos = over_position()
    assert pos["phase"] == "over"
    g = game(pos)
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction):
        g.apply(action)
    assert g.position() == pos


def test_an_ended_game_is_no_chance_node_and_cannot_roll() -> None:
    g = game(over_position())
    assert chance_outcomes(g.state) == ()
    assert g.is_over and g.winners == (1,)
    with pytest.raises(IllegalAction):
        g.roll()


def test_game_over_event() -> None:
    pos = hugo_pos([["G21", *G30], ["C10", *G30]], clock="24:00", hugo="G20", scores=[40, 10])
    g = game(pos)
    events = g.push(Roll("hugo"))
    assert events[-1] == ev.GameOver((1,), (49, 10), "score")
    assert not [e for e in events if isinstance(e, ev.TurnStarted)]
    clock_end = hugo_pos([[*G30, "G31"], ["G31", *G30]], clock="4:00", hugo="G38", scores=[10, 10])
    events = game(clock_end).push(Roll("hugo"))
    assert events[-1] == ev.GameOver((0, 1), (10, 10), "clock")
