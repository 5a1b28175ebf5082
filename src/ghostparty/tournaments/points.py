"""Points by final place at a table, with ties sharing, and exact fractions in JSON.

The tables (docs/tournaments.md, "Scoring and tie-breaks"): 4 players 5/3/2/1, 3 players
4/2/1, 2 players 3/1. Players whose places are equal share the points of the places they
span: two tied first at a 4-player table get (5 + 3) / 2 = 4 each. A player who left
their seat to a bot keeps their place (the bot finished the game for them) but scores 0.

>>> table_points([2, 1, 2, 4], left=())
[Fraction(5, 2), Fraction(5, 1), Fraction(5, 2), Fraction(1, 1)]
>>> table_points([1, 2], left=(0,))
[Fraction(0, 1), Fraction(1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ghostparty.tournaments.errors import TournamentError

#: Points for 1st, 2nd, … place, by players at the table.
PLACE_POINTS: dict[int, tuple[int, ...]] = {2: (3, 1), 3: (4, 2, 1), 4: (5, 3, 2, 1)}
#: The table sizes a tournament may use.
TABLE_SIZES = tuple(sorted(PLACE_POINTS))


def check_table_size(size: object, field: str = "table_size") -> int:
    """``size`` if it is a supported table size, else :class:`TournamentError`."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in PLACE_POINTS:
        raise TournamentError(field, f"expected one of {list(TABLE_SIZES)} players per table, got {size!r}")
    return size


def table_total(size: int) -> int:
    """All the points one table of ``size`` players hands out (11 for four)."""
    return sum(PLACE_POINTS[check_table_size(size)])


def mean_points(size: int) -> Fraction:
    """The mean points of a seat at a table of ``size`` (the default bye: 11/4 for four)."""
    return Fraction(table_total(size), size)


def check_places(places: Sequence[object], size: int) -> list[int]:
    """Validated final places, one per seat: integers 1..size, lower is better, equal is tied."""
    if isinstance(places, (str, bytes)) or not isinstance(places, Sequence) or len(places) != size:
        raise TournamentError("places", f"expected a list of {size} places, one per seat, got {places!r}")
    checked: list[int] = []
    for seat, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= size:
            raise TournamentError(f"places[{seat}]", f"expected a place from 1 to {size}, got {place!r}")
        checked.append(place)
    return checked


def table_points(places: Sequence[int], left: Sequence[int]) -> list[Fraction]:
    """Points per seat for final ``places`` (one per seat); seats in ``left`` score 0."""
    size = len(places)
    scale = PLACE_POINTS[check_table_size(size, "places")]
    check_places(places, size)
    order = sorted(range(size), key=lambda seat: places[seat])
    points = [Fraction(0)] * size
    start = 0
    while start < size:
        end = start
        while end < size and places[order[end]] == places[order[start]]:
            end += 1
        share = Fraction(sum(scale[start:end]), end - start)
        for seat in order[start:end]:
            points[seat] = share
        start = end
    for seat in left:
        if not 0 <= seat < size:
            raise TournamentError("left", f"expected seats from 0 to {size - 1}, got {seat!r}")
        points[seat] = Fraction(0)
    return points


def encode(value: Fraction) -> int | str:
    """A fraction for JSON: an integer when whole, else ``"11/4"`` (exact, unlike a float)."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def decode(value: object, field: str) -> Fraction:
    """The inverse of :func:`encode`."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TournamentError(field, f"expected an integer or a fraction like '11/4', got {value!r}")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise TournamentError(field, f"expected an integer or a fraction like '11/4', got {value!r}") from None
