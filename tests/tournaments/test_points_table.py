"""Points by final place: the documented tables, shared ties, leavers, exact JSON values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.points import (
    PLACE_POINTS,
    check_places,
    check_table_size,
    decode,
    encode,
    mean_points,
    table_points,
    table_total,
)


def test_the_documented_tables() -> None:
    assert PLACE_POINTS == {2: (3, 1), 3: (4, 2, 1), 4: (5, 3, 2, 1)}
    assert [table_total(n) for n in (2, 3, 4)] == [4, 7, 11]
    assert [mean_points(n) for n in (2, 3, 4)] == [2, Fraction(7, 3), Fraction(11, 4)]


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2, 3, 4], [5, 3, 2, 1]),
        ([4, 3, 2, 1], [1, 2, 3, 5]),
        ([1, 1, 3, 4], [4, 4, 2, 1]),  # two first share 5 + 3
        ([1, 2, 2, 2], [5, 2, 2, 2]),  # three second share 3 + 2 + 1
        ([1, 1, 2, 3], [4, 4, 2, 1]),  # dense ranks read the same
        ([1, 1, 1, 1], [Fraction(11, 4)] * 4),
        ([2, 1, 2], [Fraction(3, 2), 4, Fraction(3, 2)]),
        ([1, 1], [2, 2]),
        ([2, 1], [1, 3]),
    ],
)
def test_places_give_points_and_ties_share(places: list[int], expected: list[Fraction]) -> None:
    points = table_points(places, left=())
    assert points == expected
    assert sum(points) == table_total(len(places))


def test_a_seat_left_to_a_bot_scores_nothing_and_the_others_keep_their_places_points() -> None:
    assert table_points([1, 2, 3, 4], left=[0]) == [0, 3, 2, 1]
    assert table_points([3, 1, 2], left=[1, 2]) == [1, 0, 0]


@pytest.mark.parametrize(
    ("places", "field", "quoted"),
    [
        ([1, 2, 3], "places", "[1, 2, 3]"),
        ([0, 1], "places[0]", "0"),
        ([1, 3], "places[1]", "3"),
        ([1, True], "places[1]", "True"),
        ("12", "places", "'12'"),
    ],
)
def test_bad_places_are_refused_naming_the_field(places: list[int], field: str, quoted: str) -> None:
    with pytest.raises(TournamentError) as caught:
        check_places(places, 2)
    assert caught.value.field == field
    assert str(caught.value).endswith(f"got {quoted}")


def test_a_left_seat_must_be_at_the_table() -> None:
    with pytest.raises(TournamentError, match="left: expected seats from 0 to 1, got 2"):
        table_points([1, 2], left=[2])


@pytest.mark.parametrize("size", [1, 5, True, "4", None])
def test_only_tables_of_two_to_four(size: object) -> None:
    with pytest.raises(TournamentError, match=r"table_size: expected one of \[2, 3, 4\] players per table"):
        check_table_size(size)


def test_points_round_trip_exactly_through_json_values() -> None:
    for value in (Fraction(0), Fraction(5), Fraction(11, 4), Fraction(10, 3)):
        assert decode(encode(value), "x") == value
    assert encode(Fraction(11, 4)) == "11/4"
    assert encode(Fraction(6, 2)) == 3
    for bad in ("x", "1/0", 1.5, True, None):
        with pytest.raises(TournamentError, match=r"^points: expected an integer or a fraction"):
            decode(bad, "points")
