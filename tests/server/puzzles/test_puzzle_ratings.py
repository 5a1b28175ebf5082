"""Puzzle ratings: Glicko-2 as Glickman wrote it (the package's step 5 corrected), both
sides rated at once, and a puzzle's start from its margin."""

from __future__ import annotations

import pytest

from ghostparty.server.puzzles.ratings import START, Glicko, _Player, puzzle_start, rate


def test_glickmans_worked_example_is_reproduced() -> None:
    player = _Player(1500, 200, 0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.rating == pytest.approx(1464.06, abs=0.01)
    assert player.rd == pytest.approx(151.52, abs=0.01)
    assert player.vol == pytest.approx(0.05999, abs=1e-5)


def test_an_upset_win_moves_the_volatility_as_other_implementations_do() -> None:
    after, _ = rate(START, Glicko(2000, 70, 0.06), True)
    assert after.rating == pytest.approx(2038.2177, abs=1e-3)
    assert after.rd == pytest.approx(318.6618, abs=1e-3)
    assert after.vol == pytest.approx(0.0600072819, abs=1e-9)  # the package alone: 0.0600107566


def test_solving_raises_the_player_and_lowers_the_puzzle_and_missing_the_reverse() -> None:
    puzzle = Glicko(1500, 350, 0.06)
    won, easier = rate(START, puzzle, True)
    lost, harder = rate(START, puzzle, False)
    assert won.rating > 1500 > lost.rating
    assert easier.rating < 1500 < harder.rating
    assert won.rating - 1500 == pytest.approx(1500 - easier.rating)  # equal sides move alike


def test_a_deviation_falls_with_attempts_and_settles_where_ratings_still_move() -> None:
    player, puzzle = START, Glicko(1500, 350, 0.06)
    for n in range(200):
        player, puzzle = rate(player, puzzle, n % 2 == 0)
    assert 55 < player.rd < 65 and 55 < puzzle.rd < 65


def test_a_bigger_margin_is_an_easier_puzzle_within_the_range() -> None:
    starts = [puzzle_start(m).rating for m in (0.05, 0.1, 0.2, 0.4, 0.9)]
    assert starts == [2200.0, 1900.0, 1500.0, 1100.0, 800.0]
    assert puzzle_start(0.15).rd == 350.0
