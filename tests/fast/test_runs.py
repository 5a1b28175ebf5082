"""Runs of the compiled simulator: the same numbers however they are split, what the
recorder sees is what the bulk path plays, the rules-aware policy beats random play, and
the heat-map's tallies add up."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled simulator needs numba: pip install 'ghostparty[fast]'")

from ghostparty.analysis.simulate import Settings
from ghostparty.fast.analysis import simulate_compiled
from ghostparty.fast.runs import chunks, simulate, warm_up
from ghostparty.fast.trace import recorded_games
from ghostparty.rules import GUESTS_PER_PLAYER, MIDNIGHT_PARTY, ruleset
from ghostparty.sim.stats import wilson_interval


def test_the_kernel_is_ready_and_says_how() -> None:
    ready = warm_up()
    assert ready.from_cache or ready.cpu_seconds > 0
    assert warm_up().seconds < 1  # once loaded, it stays loaded


def test_chunks_cover_the_run_once() -> None:
    pieces = chunks(5, 1003, jobs=2, most=100)
    assert pieces[0][0] == 5
    assert sum(n for _, n in pieces) == 1003
    assert all(a + n == b for (a, n), (b, _) in itertools.pairwise(pieces))
    assert max(n for _, n in pieces) <= 100


def test_the_numbers_do_not_depend_on_the_processes() -> None:
    one = simulate("midnight-party", 5, 3000, seed=7, policies=("safe", "random"), jobs=1)
    two = simulate("midnight-party", 5, 3000, seed=7, policies=("safe", "random"), jobs=2)
    assert np.array_equal(one.rows, two.rows)
    assert not np.array_equal(one.rows, simulate("midnight-party", 5, 3000, seed=8, jobs=1).rows)


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_a_recorded_game_is_the_game_the_bulk_path_plays(rules: str) -> None:
    run = simulate(rules, 4, 30, seed=3, policies=("random", "safe"))
    games = recorded_games(ruleset(rules), 4, 30, seed=3, policies=("random", "safe"))
    for row, game in zip(run.rows, games, strict=True):
        final = game.positions[-1]
        assert row[0] == len(game.actions)
        assert list(row[4:]) == list(final.scores)
        assert row[3] == sum(1 << seat for seat in final.winners)


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_the_safe_policy_beats_random_play(rules: str) -> None:
    run = simulate(rules, 4, 20_000, seed=1, policies=("safe", "random", "random", "random"))
    wins = run.wins().sum(axis=0)
    low, _ = wilson_interval(wins[0], run.games)
    assert low > 0.25, f"safe seat wins {wins[0] / run.games:.1%}"
    assert run.scores[:, 0].mean() < run.scores[:, 1:].mean() - 3


def test_unknown_policies_are_named() -> None:
    with pytest.raises(ValueError, match="unknown policy 'clever': expected one of random, safe"):
        simulate("hugo", 4, 10, policies=("clever",))


def test_the_compiled_tally_adds_up() -> None:
    settings = Settings(rules="midnight-party", players=3, games=4000, seed=2)
    round1 = simulate_compiled(settings)
    whole = simulate_compiled(Settings(rules="midnight-party", players=3, games=4000, seed=2, horizon="game"))
    guests = 3 * GUESTS_PER_PLAYER[3]
    for simulation in (round1, whole):
        t = simulation.tally.squares
        assert sum(t.samples) == 4000 * guests
        assert all(c <= n for c, n in zip(t.captured, t.samples, strict=True))
        assert simulation.tally.wins.games == 4000
        assert simulation.tally.ends == {"rounds": 4000}
    # Whole games follow the same guests (same seed, same games) three rounds long.
    assert round1.tally.squares.samples == whole.tally.squares.samples
    assert sum(whole.tally.squares.captures) > 2 * sum(round1.tally.squares.captures)
    board = MIDNIGHT_PARTY.board
    stats = round1.squares()
    assert [s.name for s in stats] == list(board.names[: board.squares])
    with pytest.raises(ValueError, match="random bot only"):
        simulate_compiled(Settings(bot="greedy"))
