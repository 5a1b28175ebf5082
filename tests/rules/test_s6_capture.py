"""RULES.md §6: where captured guests go, what they score, and groups."""

from __future__ import annotations

from collections import Counter

import pytest

from ghostparty import Roll
from ghostparty.rules import events as ev

from .builders import after, game, hugo_pos, mp_pos

HUGO = {"roll": "hugo"}


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        ([], "C10"),
        (["C10"], "C9"),
        (["C10", "C9", "C7"], "C8"),  # the highest free step, not the one below the lowest held
        (["C9", "C8"], "C10"),
        (["C10", "C9", "C8", "C7", "C6", "C5", "C4"], "C3"),
        (["C10", "C9", "C8", "C7", "C6", "C5", "C4", "C3"], "C10"),  # all held: overflow C10
    ],
)
def test_hugo_board_step_choice(held: list[str], expected: str) -> None:
    """§6.1: the highest-valued step that holds no guest, else the overflow step (§1.3)."""
    # seat 1 holds up to six of the steps, seat 0 the rest; seat 0's guest on G21 is in Hugo's way
    seat1 = [*held[:6], *["G30"] * (6 - len(held[:6]))]
    seat0 = ["G21", *held[6:], *["G30"] * (5 - len(held[6:]))]
    pos = hugo_pos([seat0, seat1], clock="24:00", hugo="G20")
    now = after(pos, HUGO)
    assert Counter(now["guests"][0]) - Counter(seat0) == Counter([expected])
    assert now["scores"] == [10 + int(expected[1:]), 10]


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        (["C10", "C9", "C8", "C7", "C6", "C5", "C4", "C3"], "C2"),  # C2 is a normal step when free
        (["C10", "C9", "C8", "C7", "C6", "C5", "C4", "C3", "C2"], "C2"),  # and the overflow when not
        (["C10", "C8", "C6", "C4", "C2"], "C9"),
    ],
)
def test_midnight_party_step_choice(held: list[str], expected: str) -> None:
    """§6.1, §1.3: the wine cellar C2 is the last step and the overflow; no score during play (§6.2)."""
    seat1 = [*held[:6], *["G30"] * (6 - len(held[:6]))]
    seat0 = ["G21", *held[6:], *["G30"] * (5 - len(held[6:]))]
    pos = mp_pos([seat0, seat1], hugo="G20")
    now = after(pos, HUGO)
    assert Counter(now["guests"][0]) - Counter(seat0) == Counter([expected])
    assert now["scores"] == [0, 0]


def test_group_on_one_square_shares_one_step_and_each_scores() -> None:
    """§6.1: guests captured together all go onto one step; §6.2: each adds its value."""
    pos = hugo_pos(
        [["G21", "G21", "G22", "G30"], ["G21", "C10", "G30", "G30"], ["G22", "G30", "G30", "G30"], ["G30"] * 4],
        clock="24:00",
        hugo="G20",
        scores=[10, 12, 14, 16],
    )
    g = game(pos)
    events = g.push(Roll("hugo"))  # G21: seats 0,0,1 -> C9 ; G22: seats 0,2 -> C8 ; G23
    now = g.position()
    captures = [e for e in events if isinstance(e, ev.Captured)]
    assert captures == [ev.Captured("G21", (0, 0, 1), "C9", 9), ev.Captured("G22", (0, 2), "C8", 8)]
    assert now["scores"] == [10 + 9 + 9 + 8, 12 + 9, 14 + 8, 16]
    assert sorted(now["guests"][0]) == ["C8", "C9", "C9", "G30"]
    assert sorted(now["guests"][1]) == ["C10", "C9", "G30", "G30"]
    changes = [(e.seat, e.old, e.new) for e in events if isinstance(e, ev.ScoreChanged)]
    assert changes == [(0, 10, 28), (1, 12, 21), (0, 28, 36), (2, 14, 22)]


def test_a_step_is_free_again_when_its_last_guest_leaves() -> None:
    """§6.1: the step freed by a guest leaving the cellar takes the next capture."""
    pos = hugo_pos([["C10", "C9", "G30", "G30", "G30", "G30"], ["G23", "G30", "G30", "G30", "G30", "C8"]], roll=1)
    g = game(pos)
    g.apply({"from": "C10", "to": "G0"})
    g.apply(HUGO)  # seat 1 rolls HUGO: G21 G22 G23 -> its own guest onto the free C10
    now = g.position()
    assert "C10" in now["guests"][1] and now["scores"] == [10, 20]


def test_two_guests_leave_one_step_one_at_a_time() -> None:
    """§6.1: a step with two guests stays held until the last one has left."""
    pos = hugo_pos([["C10", "C10", "G30", "G30", "G30", "G30"], ["G23", "G30", "G30", "G30", "G30", "G30"]], roll=1)
    g = game(pos)
    g.apply({"from": "C10", "to": "G0"})
    g.apply(HUGO)  # C10 still holds seat 0's other guest: seat 1's goes onto C9
    assert "C9" in g.position()["guests"][1]


def test_midnight_party_captures_score_nothing_during_play() -> None:
    """§6.2: nothing is scored until the round ends."""
    pos = mp_pos([["G21", "G22", "G30", "G30", "G30", "G30"], ["G23", "G30", "G30", "G30", "G30", "G30"]])
    g = game(pos)
    events = g.push(Roll("hugo"))
    assert g.position()["scores"] == [0, 0]
    assert not [e for e in events if isinstance(e, ev.ScoreChanged)]
    assert [(e.square, e.step, e.points) for e in events if isinstance(e, ev.Captured)] == [
        ("G21", "C10", 10),
        ("G22", "C9", 9),
        ("G23", "C8", 8),
    ]


def test_group_scores_whole_even_past_46() -> None:
    """§6.3: the whole group goes to its step and scores before the game ends."""
    pos = hugo_pos(
        [["G21", "G21", "G30", "G30", "G30", "G30"], ["G21", "G22", "G30", "G30", "G30", "G30"]],
        clock="24:00",
        hugo="G20",
        scores=[40, 5],
    )
    now = after(pos, HUGO)
    # G21: seats 0, 0, 1 onto C10: 40+20=60 and 5+10=15; the game ends before G22
    assert now["phase"] == "over"
    assert now["scores"] == [60, 15]
    assert now["hugo"] == "G21"
    assert "G22" in now["guests"][1]
    assert now["winners"] == [1]
