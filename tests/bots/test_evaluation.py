"""The static evaluation of :mod:`ghostparty.bots.evaluation`, against values worked out
by hand from RULES.md (§1.3 Hugo's climb, §1.4 the die, §5.3 the clock, §8.5 scoring)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghostparty.bots.evaluation import (
    escape_chance,
    estimates,
    hugo_distance,
    hugo_tail,
    points_left,
    utilities,
    utility,
)
from ghostparty.rules import HUGO_BOARD, MIDNIGHT_PARTY_BOARD, OVER, position_from_dict
from tests.rules.builders import hugo_pos, mp_pos, playout

HUGO_ROOMS_BUT_CHAPEL = ["R:library", "R:fireplace", "R:tower", "R:portrait-hall", "R:bedchamber"]


@pytest.mark.parametrize(
    ("rolls", "needed", "expected"),
    [
        (1, 1, 1 / 3),  # one roll shows HUGO
        (3, 2, 7 / 27),  # 3·(1/3)²·(2/3) + (1/3)³ = 6/27 + 1/27
        (2, 1, 5 / 9),  # 1 − (2/3)²
        (4, 4, 1 / 81),
        (4, 3, 1 / 9),  # 4·(1/27)·(2/3) + 1/81 = 9/81
        (5, 0, 1.0),  # nothing needed: certain
        (2, 3, 0.0),  # more HUGO faces than rolls: impossible
        (0, 1, 0.0),
    ],
)
def test_hugo_tail_is_the_binomial_tail(rolls: int, needed: int, expected: float) -> None:
    assert hugo_tail(rolls, needed) == pytest.approx(expected, abs=1e-12)


def test_hugo_distance() -> None:
    hugo, party = HUGO_BOARD, MIDNIGHT_PARTY_BOARD
    # §1.3: 9 move points from the start to the arrow square on both boards
    assert hugo_distance(hugo, hugo.location("START"), 0) == 9
    assert hugo_distance(party, party.location("C10"), 0) == 9
    assert hugo_distance(hugo, hugo.location("START"), 5) == 14
    assert hugo_distance(hugo, hugo.location("C3"), 0) == 1  # the top step
    assert hugo_distance(party, party.location("C2"), 7) == 8
    # on the gallery: clockwise, wrapping past G39, a full lap to his own square
    assert hugo_distance(hugo, 35, 2) == 7
    assert hugo_distance(hugo, 2, 35) == 33
    assert hugo_distance(hugo, 39, 0) == 1
    assert hugo_distance(hugo, 20, 20) == 40


def test_points_left() -> None:
    """§5.3: at 4:00 Hugo's next step onto G0 ends the game; each earlier time adds a lap."""
    guests = [["G10", *HUGO_ROOMS_BUT_CHAPEL], ["R:chapel", "R:armory", "R:ballroom", "R:banquet-hall", "C10", "C9"]]
    assert points_left(position_from_dict(hugo_pos(guests, clock="4:00", hugo="G36"))) == 4
    assert points_left(position_from_dict(hugo_pos(guests, clock="3:00", hugo="G36"))) == 44
    assert points_left(position_from_dict(hugo_pos(guests, clock="4:00", hugo="G0"))) == 40
    # before the first arrival: 9 points of climb, then five more laps until 5:00
    start = hugo_pos(guests, clock="23:45", hugo="START")
    assert points_left(position_from_dict(start)) == 9 + 5 * 40
    assert points_left(position_from_dict(mp_pos([["G1"] * 6, ["G2"] * 6]))) >= 10_000  # no clock


@pytest.mark.parametrize(("square", "counts"), [("G1", False), ("G5", False), ("G0", True), ("G38", True)])
def test_guest_beyond_the_clock_horizon_costs_nothing(square: str, counts: bool) -> None:
    """Clock 4:00, Hugo on G36: he has 4 points until the game ends on G0 (§5.3), so a
    guest on G1 or beyond cannot be caught; one on G37…G0 can (G0 before the clock moves)."""
    pos = hugo_pos(
        [[square, *HUGO_ROOMS_BUT_CHAPEL], ["R:chapel", "R:armory", "R:ballroom", "R:banquet-hall", "C10", "C9"]],
        clock="4:00",
        hugo="G36",
        scores=[12, 29],
    )
    values = estimates(position_from_dict(pos))
    assert values[1] == 29.0  # rooms and steps add nothing in ``hugo``: already scored
    if counts:
        assert values[0] > 12.0
    else:
        assert values[0] == 12.0


def test_midnight_party_pending_costs() -> None:
    """§8.5: a red room costs 1, a green room −3, a step its value — all still pending."""
    pos = mp_pos(
        [
            ["R:armory", "R:ballroom", "R:library", "R:tower", "C10", "C9"],
            ["R:abandoned-room", "R:banquet-hall", "R:chapel", "R:fireplace", "R:music-room", "C8"],
        ],
        scores=[4, -2],
        round=2,
        round_scores=[[4, -2]],
    )
    assert estimates(position_from_dict(pos)) == [4 + 1 - 3 + 10 + 9, -2 + 1 - 3 + 8]


def test_escape_chance_counts_room_entries() -> None:
    """§4.2 on the ``hugo`` board: standing on a free neutral door, every number enters it;
    an occupied room takes an exact roll, and never one's own."""
    free = position_from_dict(
        hugo_pos([["G22", *HUGO_ROOMS_BUT_CHAPEL[:3], "R:bedchamber", "R:chapel"], ["G5"] * 6], hugo="G10")
    )
    assert escape_chance(free, 0, 22) == pytest.approx(4 / 6)
    # G24: the ballroom's door (green) is reached with step 2, so the entry is step 3, never exact
    assert escape_chance(free, 0, 24) == 0.0
    held = position_from_dict(
        hugo_pos([["G22", *HUGO_ROOMS_BUT_CHAPEL[:3], "R:bedchamber", "R:chapel"], ["G5"] * 5 + ["R:portrait-hall"]])
    )
    # seat 0 from G22: a 1 expels from the portrait hall, a 5 enters the ballroom (door G26)
    assert escape_chance(held, 0, 22) == pytest.approx(2 / 6)
    # seat 1 cannot enter its own room: only the 5
    assert escape_chance(held, 1, 22) == pytest.approx(1 / 6)


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 2, 1), ("hugo", 5, 2), ("midnight-party", 3, 3)])
def test_estimates_of_a_finished_game_are_the_scores(rules: str, players: int, seed: int) -> None:
    final = playout(rules, players, seed).state
    assert final.phase == OVER
    assert estimates(final) == [float(score) for score in final.scores]


def test_utility_is_own_minus_best_other() -> None:
    values = [5.0, 3.0, 8.0]
    assert utility(values, 0) == 2.0
    assert utility(values, 1) == -2.0
    assert utility(values, 2) == 5.0
    assert utility([7.0, 7.0], 1) == 0.0


@given(st.lists(st.floats(min_value=0, max_value=100, allow_nan=False), min_size=2, max_size=8))
def test_utilities_are_every_seats_utility(values: list[float]) -> None:
    # One pass over the seats must give exactly what utility() gives seat by seat,
    # ties for the lowest estimate included (the bots' values must not change).
    assert utilities(values) == [utility(values, seat) for seat in range(len(values))]
    tied = [values[0], *values]
    assert utilities(tied) == [utility(tied, seat) for seat in range(len(tied))]
