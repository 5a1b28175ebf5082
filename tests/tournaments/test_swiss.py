"""Swiss for tables of many: rounds, score groups, byes, tie-breaks, withdrawals."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest

from ghostparty.tournaments import Swiss, SwissConfig, TournamentError
from ghostparty.tournaments.points import table_points


def swiss(size: int, players: int, rounds: int = 3, bye: Fraction | None = None) -> Swiss:
    state = Swiss(SwissConfig(size, rounds, bye))
    for i in range(players):
        state.join(f"p{i}", 1500 + 10 * i)
    return state


def by_seat(state: Swiss, rng: Random) -> None:
    """Pair a round and record every table: first seat first, second seat second, …"""
    played = state.pair_round(rng)
    for number, table in enumerate(played.tables, 1):
        state.record(played.number, number, list(range(1, len(table.seats) + 1)))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ((5, 3), "table_size: expected one of [2, 3, 4] players per table, got 5"),
        ((4, 0), "rounds: expected 1 to 100 rounds, got 0"),
        ((4, 3, Fraction(-1)), "bye_points: expected a whole or Fraction number >= 0 or None, got Fraction(-1, 1)"),
    ],
)
def test_impossible_settings_are_refused(settings: tuple[int, int], message: str) -> None:
    with pytest.raises(TournamentError) as caught:
        SwissConfig(*settings)
    assert str(caught.value) == message


def test_nine_players_at_four_player_tables_three_rounds() -> None:
    state = swiss(4, 9)
    rng = Random(7)
    for _ in range(3):
        by_seat(state, rng)
    assert state.finished()
    byes = [r.byes for r in state.rounds]
    assert all(len(b) == 1 for b in byes) and len({b[0] for b in byes}) == 3
    assert byes[0] == ("p0",)  # the lowest placed (all on 0: the lowest rated)
    # every player's points, recomputed from the rounds by hand
    expected = dict.fromkeys(state.players, Fraction(0))
    for played in state.rounds:
        for player in played.byes:
            expected[player] += Fraction(11, 4)
        for table in played.tables:
            for player, points in zip(table.seats, table_points([1, 2, 3, 4], ()), strict=True):
                expected[player] += points
    lines = state.standings()
    assert {s.player: s.points for s in lines} == expected
    assert [s.points for s in lines] == sorted(expected.values(), reverse=True)
    assert sum(expected.values()) == 3 * (2 * 11 + Fraction(11, 4))


def test_the_leaders_sit_at_table_one() -> None:
    state = swiss(2, 8)
    rng = Random(1)
    by_seat(state, rng)
    leaders = {s.player for s in state.standings()[:2]}
    assert set(state.pair_round(rng).tables[0].seats) == leaders


def test_no_repeat_table_mates_while_avoidable() -> None:
    state = swiss(2, 8, rounds=7)
    rng = Random(3)
    met: set[frozenset[str]] = set()
    for _ in range(7):
        by_seat(state, rng)
        pairs = {frozenset(t.seats) for t in state.rounds[-1].tables}
        assert not pairs & met
        met |= pairs
    assert len(met) == 28  # a full round robin


def test_byes_go_to_the_fewest_byes_then_the_lowest_placed() -> None:
    state = swiss(3, 5, rounds=4)
    rng = Random(0)
    for _ in range(4):
        by_seat(state, rng)
        counts = [p.byes for p in state.players.values()]
        assert max(counts) - min(counts) <= 1
    assert sorted(p.byes for p in state.players.values()) == [1, 1, 2, 2, 2]


def test_a_bye_scores_the_mean_of_a_seat_or_the_configured_points() -> None:
    state = swiss(4, 5)
    state.pair_round(Random(0))
    assert state.players["p0"].points == Fraction(11, 4)
    state = swiss(4, 5, bye=Fraction(1, 2))
    state.pair_round(Random(0))
    assert state.players["p0"].points == Fraction(1, 2)
    assert SwissConfig(4, 3, 1).bye_points == Fraction(1)  # type: ignore[arg-type]


def test_the_seat_order_comes_from_the_rng() -> None:
    seatings = {tuple(t.seats for t in swiss(4, 16).pair_round(Random(seed)).tables) for seed in range(5)}
    assert len(seatings) > 1
    assert swiss(4, 16).pair_round(Random(9)).tables == swiss(4, 16).pair_round(Random(9)).tables


def _result(state: Swiss, number: int, table: int, winner: str | None) -> None:
    """Record a two-player table: ``winner`` first, or a tie."""
    seats = state.rounds[number - 1].tables[table - 1].seats
    state.record(number, table, [1, 1] if winner is None else [1 if p == winner else 2 for p in seats])


def test_the_first_tie_break_is_the_sum_of_table_mates_points() -> None:
    state = swiss(2, 4, rounds=2)
    state.pair_round(Random(0))  # by rating: p3 p2 | p1 p0
    assert [set(t.seats) for t in state.rounds[0].tables] == [{"p3", "p2"}, {"p1", "p0"}]
    _result(state, 1, 1, "p3")
    _result(state, 1, 2, "p1")
    state.pair_round(Random(0))  # the leaders together: p3 p1 | p2 p0
    assert [set(t.seats) for t in state.rounds[1].tables] == [{"p3", "p1"}, {"p2", "p0"}]
    _result(state, 2, 1, None)  # p3 5, p1 5
    _result(state, 2, 2, "p0")  # p0 4, p2 2
    lines = state.standings()
    assert [(s.player, s.points, s.opponents) for s in lines] == [
        ("p1", 5, 9),  # met p0 (4) and p3 (5): ahead of the higher rated p3
        ("p3", 5, 7),  # met p2 (2) and p1 (5)
        ("p0", 4, 7),
        ("p2", 2, 9),
    ]


def test_then_first_places_then_rating_then_id() -> None:
    state = swiss(2, 4)
    for player, firsts, rating in (("p0", 1, 1500), ("p1", 2, 1400), ("p2", 1, 1600), ("p3", 1, 1600)):
        entry = state.players[player]
        entry.points, entry.firsts, entry.rating = Fraction(6), firsts, rating
    assert [s.player for s in state.standings()] == ["p1", "p2", "p3", "p0"]


def test_a_leaver_scores_nothing_but_stays_and_a_withdrawn_player_is_paired_no_more() -> None:
    state = swiss(2, 4)
    played = state.pair_round(Random(0))
    seats = played.tables[0].seats
    state.record(1, 1, [1, 2], {seats[0]: 12})
    state.record(1, 2, [1, 2])
    assert state.players[seats[0]].points == 0 and state.players[seats[0]].firsts == 0
    assert state.rounds[0].tables[0].left == {seats[0]: 12}
    state.withdraw(seats[1])
    second = state.pair_round(Random(0))
    assert seats[1] not in {p for t in second.tables for p in t.seats} | set(second.byes)
    assert len(second.byes) == 1


def test_a_late_entrant_joins_on_zero_until_the_last_round_is_paired() -> None:
    state = swiss(2, 4, rounds=2)
    by_seat(state, Random(0))
    state.join("late", 2000)
    assert (state.players["late"].points, state.players["late"].games) == (0, 0)
    second = state.pair_round(Random(0))
    assert second.byes == ("late",)  # the lowest placed of those without a bye
    with pytest.raises(TournamentError, match=r"^player: all 2 rounds are paired; cannot join any more$"):
        state.join("later", 2000)


def test_events_out_of_order_are_refused_and_change_nothing() -> None:
    state = swiss(2, 3, rounds=2)
    with pytest.raises(TournamentError, match=r"^round: expected a paired round from 1 to 0, got 1$"):
        state.record(1, 1, [1, 2])
    state.pair_round(Random(0))
    with pytest.raises(TournamentError, match=r"^round: round 1 has tables without a result$"):
        state.pair_round(Random(0))
    with pytest.raises(TournamentError, match=r"^table: expected a table from 1 to 1, got 2$"):
        state.record(1, 2, [1, 2])
    with pytest.raises(TournamentError, match=r"^places\[1\]: expected a place from 1 to 2, got 3$"):
        state.record(1, 1, [1, 3])
    with pytest.raises(TournamentError, match=r"^left: 'nobody' does not sit at table 1"):
        state.record(1, 1, [1, 2], {"nobody": 1})
    assert state.rounds[0].tables[0].places is None
    state.record(1, 1, [1, 2])
    with pytest.raises(TournamentError, match=r"^table: table 1 of round 1 already has its result$"):
        state.record(1, 1, [1, 2])
    with pytest.raises(TournamentError, match=r"^player: 'p0' is already in the tournament$"):
        state.join("p0", 1500)
    state.withdraw("p0")
    state.withdraw("p1")
    with pytest.raises(TournamentError, match=r"^players: a table needs 2 active players, there are 1$"):
        state.pair_round(Random(0))
    state.join("p0", 1500)
    by_seat(state, Random(0))
    with pytest.raises(TournamentError, match=r"^round: all 2 rounds are paired$"):
        state.pair_round(Random(0))


def test_withdrawing_someone_who_never_joined_is_refused() -> None:
    with pytest.raises(TournamentError, match=r"^player: 'ghost' is not in the tournament$"):
        swiss(2, 2).withdraw("ghost")
