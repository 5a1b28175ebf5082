"""The grouping search: plain chunks without constraints, no avoided pair when possible."""

from __future__ import annotations

import pytest

from ghostparty.tournaments.grouping import group, repeats


def _pairs(*pairs: tuple[int, int], n: int) -> list[set[int]]:
    avoid: list[set[int]] = [set() for _ in range(n)]
    for a, b in pairs:
        avoid[a].add(b)
        avoid[b].add(a)
    return avoid


@pytest.mark.parametrize("size", [2, 3, 4])
def test_without_constraints_the_tables_are_chunks_of_the_order(size: int) -> None:
    n = size * 5
    assert group(n, size, [set()] * n) == [list(range(k, k + size)) for k in range(0, n, size)]


def test_the_next_player_in_order_who_has_met_nobody_at_the_table_takes_the_seat() -> None:
    avoid = _pairs((0, 1), (0, 2), n=8)
    assert group(8, 4, avoid) == [[0, 3, 4, 5], [1, 2, 6, 7]]


def test_it_backtracks_when_the_greedy_choice_leaves_no_way_out() -> None:
    # 0-2 taken greedily would leave 1 and 3 who met: the search must find 0-3, 1-2.
    avoid = _pairs((0, 1), (1, 3), n=4)
    assert group(4, 2, avoid) == [[0, 3], [1, 2]]


def test_when_no_grouping_avoids_every_pair_the_greedy_pass_keeps_repeats_few() -> None:
    avoid = _pairs((0, 1), (0, 2), (1, 2), n=6)  # three who met, two tables of three
    tables = group(6, 3, avoid)
    assert sorted(p for t in tables for p in t) == list(range(6))
    assert repeats(tables, avoid) == 1


def test_past_its_work_bound_the_greedy_pass_still_seats_everyone_once() -> None:
    avoid = _pairs((0, 1), (2, 3), n=8)
    tables = group(8, 2, avoid, work=0)
    assert sorted(p for t in tables for p in t) == list(range(8))
    assert repeats(tables, avoid) == 0
    assert tables[0] == [0, 2]


def test_the_players_must_fill_whole_tables() -> None:
    with pytest.raises(ValueError, match="cannot split 7 players into tables of 2"):
        group(7, 2, [set()] * 7)


def test_past_the_bound_the_repair_pass_floats_players_to_other_tables_instead_of_repeats() -> None:
    n = 400
    avoid: list[set[int]] = [set() for _ in range(n)]
    for a in range(n - 12, n):  # the last twelve all met each other: they need twelve tables
        avoid[a] = set(range(n - 12, n)) - {a}
    tables = group(n, 4, avoid, work=1000)
    assert repeats(tables, avoid) == 0
    assert sorted(p for t in tables for p in t) == list(range(n))
    assert [t[0] for t in tables] == sorted(t[0] for t in tables) and tables[0][0] == 0


def test_the_repair_pass_reaches_the_fewest_repeats_when_some_are_unavoidable() -> None:
    avoid = [set(range(40)) - {a} for a in range(40)] + [set() for _ in range(40)]
    # 40 who all met, 20 tables of 4: every table holds two of them, one repeat each at best
    assert repeats(group(80, 4, avoid), avoid) == 20
