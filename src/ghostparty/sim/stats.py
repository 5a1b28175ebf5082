"""Confidence intervals of win rates, shared by tournaments and analysis.

A win shared by ``k`` players counts ``1/k``, so an outcome lies in [0, 1]. With whole
outcomes only, the Wilson score interval; otherwise the normal approximation with the
sample variance. Outcomes that come in correlated groups (the games of one duplicate
deal) are summarized per group first: :func:`deal_interval`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
Z95 = 1.959963984540054
WILSON = "wilson"
NORMAL = "normal"
#: The normal approximation over groups' mean outcomes (:func:`deal_interval`).
DEALS = "deals"


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` of ``n`` trials.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_interval(outcomes: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal-approximation interval of the mean of ``outcomes`` (each in [0, 1]):
    mean ± z·s/√n with the sample standard deviation ``s``, clipped to [0, 1];
    ``(0, 1)`` for fewer than two outcomes.

    >>> [round(x, 4) for x in normal_interval([0.0, 1.0] * 50)]
    [0.4015, 0.5985]
    """
    n = len(outcomes)
    if n < 2:
        return 0.0, 1.0
    mean = math.fsum(outcomes) / n
    variance = math.fsum((x - mean) ** 2 for x in outcomes) / (n - 1)
    half = z * math.sqrt(variance / n)
    return max(0.0, mean - half), min(1.0, mean + half)


def interval(outcomes: Sequence[float], z: float = Z95) -> tuple[float, float, str]:
    """The confidence interval of the mean outcome and the method used: Wilson when
    every outcome is 0 or 1, else the normal approximation (see the module's docs)."""
    if all(x in (0.0, 1.0) for x in outcomes):
        low, high = wilson_interval(sum(outcomes), len(outcomes), z)
        return low, high, WILSON
    low, high = normal_interval(outcomes, z)
    return low, high, NORMAL


def deal_interval(deals: Sequence[Sequence[float]], z: float = Z95) -> tuple[float, float, str]:
    """The confidence interval of the mean outcome when outcomes come in groups that are
    independent of each other but not within (every seat-game of one deal): the normal
    approximation over the groups' mean outcomes. Empty groups are left out.

    >>> [round(x, 4) for x in deal_interval([[1.0, 0.0], [0.5, 0.5], [1.0, 1.0], [0.0, 0.5]])[:2]]
    [0.2542, 0.8708]
    """
    means = [math.fsum(deal) / len(deal) for deal in deals if deal]
    low, high = normal_interval(means, z)
    return low, high, DEALS
