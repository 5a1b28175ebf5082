"""Marks and ratings of decisions: thresholds, lichess's accuracy, a PR like XG's.

A decision's *loss* is the mover's win chance after the best action minus after the
chosen one (0 for the best). Marks use lichess's thresholds on that drop, in points of
win chance: an **inaccuracy** from 5, a **mistake** from 10, a **blunder** from 15.

Accuracy, as lichess computes it (lila's ``AccuracyPercent``): each decision's
``103.1668 * exp(-0.04354 * loss_in_points) - 3.1669`` plus lichess's 1-point
"uncertainty bonus", kept within 0 … 100 (100 for no loss); a player's
game accuracy is the mean of two averages of those over its non-forced decisions — one
weighted by the volatility of its win chance (the standard deviation, in points, of its
win chance over a window of ``clamp(n / 10, 2, 8)`` of its decisions, kept within 0.5 …
12), and the harmonic mean (each accuracy at least 1), so one blunder among twenty easy
decisions still shows. PR, as eXtreme Gammon's: 500 × the mean loss per non-forced
decision (win chance as a fraction: a PR of 5 gives up 1 point of win chance a decision).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Losses of win chance (fractions) from which a decision is marked, mildest first.
MARKS = (("inaccuracy", 0.05), ("mistake", 0.10), ("blunder", 0.15))
#: PR's scale: 500 × mean loss.
PR_SCALE = 500.0


def mark(loss: float) -> str | None:
    """The mark a loss of win chance earns, or ``None`` below an inaccuracy."""
    found = None
    for name, threshold in MARKS:
        if loss >= threshold - 1e-12:
            found = name
    return found


def decision_accuracy(loss: float) -> float:
    """lichess's accuracy of one decision from its loss of win chance (a fraction)."""
    if loss <= 0.0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * 100.0 * loss) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1.0))


def game_accuracy(losses: Sequence[float], wins_before: Sequence[float]) -> float | None:
    """A player's accuracy over its non-forced decisions (``None`` without any).

    ``wins_before`` is its win chance (a fraction) before each of them.
    """
    n = len(losses)
    if n == 0:
        return None
    accuracies = [decision_accuracy(loss) for loss in losses]
    window = min(8, max(2, n // 10))
    points = [100.0 * w for w in wins_before]
    weights = []
    for i in range(n):
        start = max(0, min(i - window // 2, n - window))
        part = points[start : start + window] or points
        mean = sum(part) / len(part)
        sd = math.sqrt(sum((x - mean) ** 2 for x in part) / len(part))
        weights.append(min(12.0, max(0.5, sd)))
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = n / sum(1.0 / max(1.0, a) for a in accuracies)
    return (weighted + harmonic) / 2


def performance_rating(losses: Sequence[float]) -> float | None:
    """500 × the mean loss per non-forced decision (``None`` without any)."""
    return PR_SCALE * sum(losses) / len(losses) if losses else None
