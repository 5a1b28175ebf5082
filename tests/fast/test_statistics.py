"""Random play on the compiled simulator looks like random play on the typed engine: mean
points per seat, game length and guests captured per game agree within their confidence
intervals (fixed seeds: the outcome is the same on every run).

A wrong rule moves these means by far more than the intervals allow: a capture step off
by one shifts every seat's mean points by about a point in ``hugo`` (the test resolves a
quarter of that), a wrong speed or end check changes the game's length.
"""

from __future__ import annotations

from random import Random

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("numba", reason="the compiled simulator needs numba: pip install 'ghostparty[fast]'")

from ghostparty.fast.runs import simulate
from ghostparty.rules import (
    HUGO_RULES,
    MIDNIGHT_PARTY,
    OVER,
    ROLL,
    Event,
    Ruleset,
    apply,
    legal_actions,
    sample_roll,
    start_position,
)
from ghostparty.rules.events import Captured

#: |difference of the means| / its standard error must stay below this (p ≈ 6e-5 by chance).
LIMIT = 4.0


def typed_games(rules: Ruleset, players: int, games: int, seed: int) -> npt.NDArray[np.int64]:
    """Random games on the typed engine: per game its length, guests captured, final scores."""
    rng = Random(seed)
    rows = []
    events: list[Event] = []
    for _ in range(games):
        position = start_position(rules, players)
        length = captured = 0
        while position.phase != OVER:
            if position.phase == ROLL:
                action = sample_roll(rng)
            else:
                actions = legal_actions(position)
                action = actions[int(rng.random() * len(actions))]
            events.clear()
            position = apply(position, action, events)
            captured += sum(len(e.seats) for e in events if isinstance(e, Captured))
            length += 1
        rows.append([length, captured, *position.scores])
    return np.array(rows, dtype=np.int64)


def z_scores(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Per column, the difference of the means over its standard error (Welch)."""
    error = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
    z: npt.NDArray[np.float64] = (a.mean(axis=0) - b.mean(axis=0)) / error
    return z


@pytest.mark.parametrize(("rules", "players", "games"), [(HUGO_RULES, 4, 1500), (MIDNIGHT_PARTY, 4, 200)])
def test_random_play_has_the_typed_engines_statistics(rules: Ruleset, players: int, games: int) -> None:
    typed = typed_games(rules, players, games, seed=11)
    run = simulate(rules.id, players, 100_000, seed=11)
    compiled = np.column_stack([run.actions, run.captured, run.scores])
    z = z_scores(compiled, typed)
    names = ["actions per game", "guests captured per game"] + [f"seat {s} points" for s in range(players)]
    report = ", ".join(
        f"{name}: {c:.2f} vs {t:.2f} (z {x:+.1f})"
        for name, c, t, x in zip(names, compiled.mean(axis=0), typed.mean(axis=0), z, strict=True)
    )
    assert np.all(np.abs(z) < LIMIT), report
    # The test has power: each mean is known to a small fraction of its value.
    error = np.sqrt(typed.var(axis=0, ddof=1) / games)
    assert np.all(error < 0.05 * np.abs(typed.mean(axis=0)) + 0.5), report
