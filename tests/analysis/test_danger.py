"""``ghostparty.analysis.danger``: exact capture odds before the owner's next turn.

The small positions are worked out by hand from RULES.md in each test's comment (P(HUGO)
= 1/3 per roll, §1.4); the properties compare every answer on random positions with an
independent count of HUGO faces (which Hugo move first takes each guest, times the
binomial chance of at least that many HUGO faces among the horizon's rolls) and with a
Monte-Carlo run of the die.
"""

from __future__ import annotations

import doctest
import random
import time
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty import Game
from ghostparty.analysis import GuestOdds, capture_odds
from ghostparty.analysis import danger as danger_module
from ghostparty.rules import HUGO, MOVE, OVER, PLACE, ROLL, Position, Roll, apply, position_from_dict, sample_roll
from ghostparty.rules.events import Captured, Event
from tests.rules.builders import Pos, hugo_pos, mp_pos

F = Fraction


def odds(pos: Pos, seat: int | None = None) -> dict[str, Fraction]:
    """Location -> probability (guests sharing a location must agree)."""
    result: dict[str, Fraction] = {}
    for entry in capture_odds(position_from_dict(pos), seat):
        assert result.setdefault(entry.location, entry.probability) == entry.probability
    return result


# -- hand-worked positions ---------------------------------------------------------------


def test_one_roll_to_come() -> None:
    # hugo, 2 players, clock 24:00: speed 3 (§5.3). Seat 0 rolled 4 (phase move): its
    # roll moves no Hugo, only seat 1's roll is to come. A HUGO (1/3) takes Hugo G10 →
    # G11, G12, G13 (§5.2: passing captures too): G12 and G13 are 1/3 each, G14 is one
    # square out of reach (0), rooms are never reached (§5.2).
    pos = hugo_pos(
        [
            ["G12", "G13", "G14", "R:chapel", "R:tower", "R:library"],
            ["G5", "G6", "G7", "R:fireplace", "R:armory", "R:ballroom"],
        ],
        hugo="G10",
        roll=4,
    )
    assert odds(pos) == {
        "G12": F(1, 3),
        "G13": F(1, 3),
        "G14": 0,
        "R:chapel": 0,
        "R:library": 0,
        "R:tower": 0,
    }
    # Seat 1 is next: no roll comes before its turn begins.
    assert set(odds(pos, seat=1).values()) == {0}


def test_own_roll_counts() -> None:
    # Same board, seat 0 to roll: its own roll and seat 1's (2 rolls). G12 falls to one
    # HUGO: 1 - (2/3)^2 = 5/9. Two HUGOs take Hugo to G16 (G14, G15, G16): 1/9. G17: 0.
    pos = hugo_pos(
        [
            ["G12", "G16", "G17", "R:chapel", "R:tower", "R:library"],
            ["G5", "G13", "G30", "R:fireplace", "R:armory", "R:ballroom"],
        ],
        hugo="G10",
    )
    assert odds(pos) == {"G12": F(5, 9), "G16": F(1, 9), "G17": 0, "R:chapel": 0, "R:library": 0, "R:tower": 0}
    # Seat 1 asks while seat 0 is to roll: only seat 0's roll comes first. G13: 1/3.
    assert odds(pos, seat=1) == {"G5": 0, "G13": F(1, 3), "G30": 0, "R:fireplace": 0, "R:armory": 0, "R:ballroom": 0}


def test_four_players_binomial() -> None:
    # hugo, 4 players, speed 3, seat 0 to roll: 4 rolls. With j HUGO faces Hugo reaches
    # G(10+3j). G12: 1 - (2/3)^4 = 65/81. G16 needs 2 of 4: 1 - 16/81 - 32/81 = 33/81.
    # G22 needs all 4: 1/81. G23: 0.
    pos = hugo_pos(
        [
            ["G12", "G16", "G22", "G23"],
            ["G5", "R:library", "R:fireplace", "R:tower"],
            ["G6", "R:armory", "R:portrait-hall", "R:ballroom"],
            ["G7", "G8", "R:banquet-hall", "R:bedchamber"],
        ],
        hugo="G10",
    )
    assert odds(pos) == {"G12": F(65, 81), "G16": F(11, 27), "G22": F(1, 81), "G23": 0}


def test_clock_speeds_up_past_the_arrow() -> None:
    # hugo, 3 players, Hugo on G38 at 24:00 (speed 3), seat 0 to roll: 3 rolls.
    # HUGO 1: G39, G0 (clock 1:00: speed 4 from his next move, §5.3), G1.
    # HUGO 2: G2, G3, G4, G5 — at the old speed 3 he would stop on G4.
    # HUGO 3: G6, G7, G8, G9.
    # G1: 1 - (2/3)^3 = 19/27; G5: at least 2 of 3 = 3·(1/9)(2/3) + 1/27 = 7/27;
    # G6: all three = 1/27; G10: 0.
    pos = hugo_pos(
        [
            ["G1", "G5", "G6", "G10", "R:chapel"],
            ["G30", "G31", "R:library", "R:fireplace", "R:tower"],
            ["G32", "G33", "R:armory", "R:portrait-hall", "R:ballroom"],
        ],
        hugo="G38",
    )
    assert odds(pos) == {"G1": F(19, 27), "G5": F(7, 27), "G6": F(1, 27), "G10": 0, "R:chapel": 0}


def test_clock_strikes_five() -> None:
    # hugo, 2 players, 4:00 (speed 7), Hugo on G38, seat 0 to roll (2 rolls). A HUGO:
    # G39, then G0 — its guests are captured first, then the clock strikes 5:00 and the
    # game ends at once (§5.3, §7). G39 and G0: 5/9; G1, 7 points away, never: 0.
    pos = hugo_pos(
        [
            ["G0", "G1", "G39", "R:chapel", "R:tower", "R:library"],
            ["G20", "G21", "R:fireplace", "R:armory", "R:ballroom", "R:bedchamber"],
        ],
        hugo="G38",
        clock="4:00",
    )
    assert odds(pos) == {"G0": F(5, 9), "G39": F(5, 9), "G1": 0, "R:chapel": 0, "R:library": 0, "R:tower": 0}


def test_score_46_ends_the_game_before_the_next_square() -> None:
    # hugo, 2 players, speed 3, Hugo on G10, seat 0 rolled 1; seat 1 stands at 40 with a
    # guest on G11. Seat 1's HUGO captures it first: C10, 40 + 10 = 50 ≥ 46, the game
    # ends at once (§6.3, §7) and Hugo never reaches seat 0's G12: 0. At score 10 he
    # would: 1/3.
    guests = [
        ["G12", "R:chapel", "R:tower", "R:library", "R:fireplace", "R:armory"],
        ["G11", "G30", "R:portrait-hall", "R:ballroom", "R:banquet-hall", "R:bedchamber"],
    ]
    assert odds(hugo_pos(guests, hugo="G10", roll=1, scores=[10, 40]))["G12"] == 0
    assert odds(hugo_pos(guests, hugo="G10", roll=1, scores=[10, 10]))["G12"] == F(1, 3)


def test_climb_from_start_during_placement() -> None:
    # hugo, 4 players, still placing (seat 2 to place), Hugo on START at 23:45. Read as
    # the position play would start from: seat 0 (first player) rolls first, 4 rolls
    # before its next turn. His climb is 9 points (§1.3), three moves of 3: the third
    # ends on G0 (capture, then 24:00). The fourth: G1, G2, G3.
    # Seat 0: G0 needs 3 of 4 HUGOs = 4·(1/27)(2/3) + 1/81 = 1/9; G1 all 4: 1/81.
    # Seat 1: only seat 0's roll comes first: G2 is 0. Seat 3: 3 rolls, G4: 0.
    pos = hugo_pos(
        [["G0", "G1"], ["G2", "G20"], ["G3"], ["G4"]],
        phase="place",
        to_move=2,
        place_queue=[2, 3, 0, 1, 2, 3, 0, 1, 2, 3],
        hugo="START",
        clock="23:45",
    )
    assert odds(pos, seat=0) == {"G0": F(1, 9), "G1": F(1, 81)}
    assert odds(pos, seat=1) == {"G2": 0, "G20": 0}
    assert odds(pos, seat=3) == {"G4": 0}
    # The seat to place is the default: seat 2's G3 needs 4 moves in its 2 rolls: 0.
    assert odds(pos) == {"G3": 0}


def test_midnight_party_has_no_clock() -> None:
    # midnight-party, 2 players, speed 3 always (§5.1), Hugo on G38, seat 0 to roll (2
    # rolls): G39, G0, G1 | G2, G3, G4. G1: 5/9, G4: 1/9, and G5, which the hugo clock's
    # speed-up would reach, is 0.
    pos = mp_pos(
        [
            ["G1", "G4", "G5", "R:library", "R:fireplace", "R:chapel"],
            ["G20", "G21", "R:tower", "R:armory", "R:portrait-hall", "R:ballroom"],
        ],
        hugo="G38",
    )
    assert odds(pos) == {"G1": F(5, 9), "G4": F(1, 9), "G5": 0, "R:library": 0, "R:fireplace": 0, "R:chapel": 0}


def test_midnight_party_seven_players_speed_two() -> None:
    # midnight-party, 7 players: speed 2 (§5.1). Seat 0 rolled 1: six rolls to come.
    # G22 needs one HUGO: 1 - (2/3)^6 = 665/729. G23 needs two:
    # 1 - 64/729 - 6·(1/3)(2/3)^5 = 1 - 64/729 - 192/729 = 473/729.
    # (One room is left empty: with all eleven taken the round would be over, §8.4.)
    pos = mp_pos(
        [
            ["G22", "G23"],
            ["R:library", "R:fireplace"],
            ["R:chapel", "R:abandoned-room"],
            ["R:tower", "R:armory"],
            ["R:portrait-hall", "R:ballroom"],
            ["R:banquet-hall", "R:bedchamber"],
            ["G9", "G10"],
        ],
        roll=1,
    )
    assert odds(pos) == {"G22": F(665, 729), "G23": F(473, 729)}


def test_midnight_party_round_ends_with_the_last_gallery_guest() -> None:
    # midnight-party, 2 players, seat 0 to roll; its guest on G21 is the only one on the
    # gallery. A HUGO in either roll takes it (5/9); that capture empties the gallery and
    # ends the round at once (§8.4), which ends the count without error.
    pos = mp_pos(
        [
            ["G21", "R:library", "R:fireplace", "R:chapel", "R:abandoned-room", "R:tower"],
            ["R:armory", "R:portrait-hall", "R:ballroom", "R:banquet-hall", "R:bedchamber", "C10"],
        ],
    )
    assert odds(pos) == {
        "G21": F(5, 9),
        "R:library": 0,
        "R:fireplace": 0,
        "R:chapel": 0,
        "R:abandoned-room": 0,
        "R:tower": 0,
    }


def test_shared_square_cellar_and_over() -> None:
    # Two guests of seat 0 on G12: one entry each, both 1/3 (seat 1's roll only); a
    # guest on the cellar steps is never captured again (§5.2): 0.
    pos = hugo_pos(
        [
            ["G12", "G12", "C10", "R:chapel", "R:tower", "R:library"],
            ["G5", "G6", "G7", "R:fireplace", "R:armory", "R:ballroom"],
        ],
        hugo="G10",
        roll=2,
    )
    result = capture_odds(position_from_dict(pos))
    assert [(e.location, e.probability) for e in result if e.location in ("G12", "C10")] == [
        ("G12", F(1, 3)),
        ("G12", F(1, 3)),
        ("C10", 0),
    ]
    assert result[0] == GuestOdds("G12", F(1, 3))
    assert result[0].chance == pytest.approx(1 / 3)
    assert result[0].as_dict() == {"location": "G12", "probability": "1/3", "chance": 0.33333}
    # A game that is over moves nobody any more.
    over = position_from_dict(pos)._replace(phase=OVER, roll=None, winners=(0, 1))
    assert {e.probability for e in capture_odds(over)} == {0}
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        capture_odds(over, seat=2)


def test_docstring_example() -> None:
    result = doctest.testmod(danger_module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


# -- properties on random positions ------------------------------------------------------


def random_position(rules: str, players: int, seed: int, actions: int) -> Position:
    """A seeded game with uniformly random decisions: ``actions`` actions and rolls after
    the placement, or, if ``actions`` is negative, that many actions before its end."""
    g = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    placing = len(g.state.place_queue)
    for _ in range(placing + actions):
        if g.is_over:
            break
        if g.state.phase == ROLL:
            g.roll()
        else:
            g.push(rng.choice(g.actions()))
    return g.state


def horizon_rolls(position: Position, seat: int) -> int:
    """How many die rolls come before ``seat``'s next turn begins (the documented horizon)."""
    n = position.players
    phase = position.phase
    if phase == OVER:
        return 0
    mover = position.first_player if phase == PLACE else position.to_move
    ahead = (seat - mover) % n or n  # the seat to roll counts its own roll
    return ahead - 1 if phase == MOVE else ahead


def by_hugo_count(position: Position, seat: int, rolls: int) -> dict[int, int]:
    """Gallery square -> the number of Hugo moves after which it is first captured, moving
    Hugo ``rolls`` times in a row (the numbers in between change nothing)."""
    if position.phase == PLACE:
        position = position._replace(phase=ROLL, to_move=position.first_player, place_queue=())
    elif position.phase == MOVE:
        position = position._replace(phase=ROLL, roll=None)
    first: dict[int, int] = {}
    for j in range(1, rolls + 1):
        if position.phase != ROLL:
            break
        events: list[Event] = []
        after = apply(position, Roll(HUGO), events)
        for event in events:
            if isinstance(event, Captured) and seat in event.seats:
                first.setdefault(position.board.index[event.square], j)
        if after.round != position.round:
            break
        position = after
    return first


positions = st.builds(
    random_position,
    st.sampled_from(["hugo", "midnight-party"]),
    st.integers(min_value=2, max_value=8),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=-8, max_value=150),
)


@settings(max_examples=100)
@given(positions, st.integers(min_value=0, max_value=7))
def test_exact_against_counting_hugo_faces(position: Position, seat_pick: int) -> None:
    seat = seat_pick % position.players
    result = capture_odds(position, seat)
    board = position.board
    assert [board.index[e.location] for e in result] == list(position.guests[seat])
    k = horizon_rolls(position, seat)
    first = by_hugo_count(position, seat, k)
    for entry in result:
        assert 0 <= entry.probability <= 1
        assert 0.0 <= entry.chance <= 1.0
        j = first.get(board.index[entry.location])
        expected = (
            F(0) if j is None else sum((comb(k, i) * F(1, 3) ** i * F(2, 3) ** (k - i) for i in range(j, k + 1)), F(0))
        )
        assert entry.probability == expected, (position.describe(), seat, entry)


@settings(max_examples=8)
@given(positions.filter(lambda p: p.phase == ROLL and any(loc < p.board.squares for loc in p.guests[p.to_move])))
def test_exact_against_monte_carlo(position: Position) -> None:
    seat = position.to_move
    rng = random.Random(1)
    trials = 2000
    hits: dict[str, int] = {}
    for _ in range(trials):
        current = position
        caught: set[str] = set()
        for _ in range(position.players):  # seat's own roll, then every other seat's
            if current.phase != ROLL:
                break
            roll = sample_roll(rng)
            if roll.face != HUGO:
                current = current._replace(to_move=(current.to_move + 1) % current.players)
                continue
            events: list[Event] = []
            after = apply(current, roll, events)
            caught |= {e.square for e in events if isinstance(e, Captured) and seat in e.seats}
            if after.round != current.round:
                break
            current = after
        for square in caught:
            hits[square] = hits.get(square, 0) + 1
    for entry in capture_odds(position):
        p = entry.chance
        sigma = (p * (1 - p) / trials) ** 0.5
        assert abs(hits.get(entry.location, 0) / trials - p) <= 5 * sigma + 1e-9, entry


def test_fast_on_a_four_player_position() -> None:
    position = position_from_dict(
        hugo_pos(
            [
                ["G12", "G16", "G22", "G23"],
                ["G5", "G25", "R:fireplace", "R:tower"],
                ["G6", "G26", "R:portrait-hall", "R:ballroom"],
                ["G7", "G8", "R:banquet-hall", "R:bedchamber"],
            ],
            hugo="G10",
        )
    )
    start = time.perf_counter()
    for _ in range(20):
        capture_odds(position)
    assert (time.perf_counter() - start) / 20 < 0.02  # about 0.2 ms unloaded
