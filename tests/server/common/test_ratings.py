"""The rating updates against values worked by hand from Weng and Lin's Plackett–Luce
update (Algorithm 4 of "A Bayesian Approximation Method for Online Ranking", 2011), with
OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, and its additive tau = 25/300 on
sigma before each game."""

from __future__ import annotations

import math

import pytest

from ghostparty.server.common.ratings import NEW, SCALE, Rating, places, provisional, rate, shown

TAU = 25 / 300
BETA = 25 / 6


def by_hand(before: list[Rating], ranks: list[int]) -> list[Rating]:
    """Algorithm 4, written out: one player per team, ties by equal ranks."""
    sigmas = [math.sqrt(r.sigma**2 + TAU**2) for r in before]
    c = math.sqrt(sum(s**2 + BETA**2 for s in sigmas))
    weights = [math.exp(r.mu / c) for r in before]
    # C_q: the players ranked no better than q, i.e. rank_i >= rank_q
    sums = [sum(w for w, rank in zip(weights, ranks, strict=True) if rank >= ranks[q]) for q in range(len(before))]
    after = []
    for i, (r, s) in enumerate(zip(before, sigmas, strict=True)):
        omega = delta = 0.0
        for q in range(len(before)):
            if ranks[q] > ranks[i]:
                continue
            share = weights[i] / sums[q]
            a_q = sum(1 for rank in ranks if rank == ranks[q])
            omega += ((1 if q == i else 0) - share) / a_q
            gamma = s / c
            delta += gamma * share * (1 - share) / a_q
        omega *= s**2 / c
        delta *= s**2 / c**2
        after.append(Rating(r.mu + omega, s * math.sqrt(max(1 - delta, 0.0001))))
    return after


def flat(ratings: list[Rating]) -> list[float]:
    return [value for rating in ratings for value in rating]


def test_two_new_players() -> None:
    # c = sqrt(2 * (sigma'^2 + beta^2)) with sigma'^2 = (25/3)^2 + (1/12)^2 = 69.4514
    # = sqrt(2 * (69.4514 + 17.3611)) = 13.1767; both weights e^(25/c): each share 1/2.
    # winner: omega = sigma'^2 / c * (1 - 1/2) = 69.4514 / 13.1767 / 2 = 2.6354
    # loser:  omega = sigma'^2 / c * (0 - 1/2) + (none of the winner's set) = -2.6354
    # delta (winner) = sigma'^2/c^2 * (sigma'/c) * 1/4 = 0.4 * 0.63246 * 0.25 = 0.063246,
    # the loser's the same twice over its two sets: sigma' * sqrt(1 - delta)
    winner, loser = rate([NEW, NEW], [1, 2])
    assert winner.mu == pytest.approx(27.6354, abs=1e-4)
    assert loser.mu == pytest.approx(22.3646, abs=1e-4)
    assert winner.sigma == pytest.approx(8.3337 * math.sqrt(1 - 0.063246), abs=1e-3)
    assert flat([winner, loser]) == pytest.approx(flat(by_hand([NEW, NEW], [1, 2])), abs=1e-9)


def test_four_players_with_a_tie_for_second() -> None:
    before = [Rating(25, 25 / 3), Rating(30, 6), Rating(20, 7), Rating(25, 4)]
    ranks = [1, 2, 2, 4]
    after = rate(before, ranks)
    assert flat(after) == pytest.approx(flat(by_hand(before, ranks)), abs=1e-9)
    # the tied pair: equal places, so neither gains on the other by the tie itself
    assert after[0].mu > before[0].mu and after[3].mu < before[3].mu
    # the stronger of the tied pair (30) loses rating for finishing level with a weaker
    assert after[1].mu < before[1].mu and after[2].mu > before[2].mu
    # the numbers themselves, as the by-hand function gives them
    assert [round(r.mu, 4) for r in after] == [28.3916, 29.3464, 20.286, 24.4154]


def test_places_follow_the_points_fewest_first_with_ties_shared() -> None:
    assert places([10, 3, 10, 25]) == [2, 1, 2, 4]
    assert places([0, 0]) == [1, 1]


def test_the_shown_number_and_provisional() -> None:
    assert shown(25) == 1500
    assert shown(25 + 25 / 6) == 1700  # a beta above: 200 points
    assert pytest.approx(48) == SCALE
    assert provisional(NEW.sigma) and not provisional(4.0)


def test_a_game_needs_two_to_eight_seats_with_a_place_each() -> None:
    with pytest.raises(ValueError):
        rate([NEW], [1])
    with pytest.raises(ValueError):
        rate([NEW, NEW], [1])
