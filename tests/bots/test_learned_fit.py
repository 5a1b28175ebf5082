"""``scripts/fit_learned.py``: the sign-constrained least squares, and the whole fit on a
few compiled games (its file readable by the bot, the same file from the same seed)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numba", reason="the fit plays the compiled simulator: pip install 'ghostparty[fast]'")
pytest.importorskip("rich", reason="the fit shows a progress bar: pip install 'ghostparty[cli]'")

import numpy as np

from ghostparty.bots.features import FEATURES, WIDTH
from ghostparty.bots.learned import parse_weights
from ghostparty.rules import GUESTS_PER_PLAYER, ruleset
from tests.fixtures.scripts import load_script


@pytest.fixture(scope="module")
def fit_learned() -> ModuleType:
    return load_script("fit_learned")


def check_constraints(module: ModuleType, weights: list[float]) -> None:
    for name, value in zip(FEATURES, weights, strict=True):
        if name in module.FIXED:
            assert value == module.FIXED[name], name
        elif module.SIGNS.get(name, 0) * value < 0:
            raise AssertionError(f"{name}: {value} on the wrong side of 0")


def test_signed_least_squares_recovers_weights_that_keep_the_signs(fit_learned: ModuleType) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, WIDTH))
    x[:, 0] = 1.0
    true = rng.uniform(0.2, 2.0, size=WIDTH) * np.array([fit_learned.SIGNS.get(n, 1) for n in FEATURES])
    for name, value in fit_learned.FIXED.items():
        true[FEATURES.index(name)] = value
    y = x @ true + rng.normal(scale=0.01, size=len(x))
    w = fit_learned.solve_signed(x.T @ x, x.T @ y, len(y))
    assert np.allclose(w, true, atol=0.01)
    # A weight the data want on the wrong side stops at 0; the others still fit.
    wrong = FEATURES.index("closeness")
    assert fit_learned.SIGNS["closeness"] == 1 and "closeness" not in fit_learned.FIXED
    true[wrong] = -1.5
    y = x @ true
    w = fit_learned.solve_signed(x.T @ x, x.T @ y, len(y))
    assert w[wrong] == 0.0
    check_constraints(fit_learned, list(w))


def test_sampled_rows_are_labelled_with_each_seats_final_margin(fit_learned: ModuleType) -> None:
    rules, players = ruleset("hugo"), 3
    record, actions = fit_learned.record_chunk(rules, players, ("safe", "random"), 5, 0, 4)
    samples = fit_learned.Samples()
    fit_learned.sample_chunk(rules, players, record, actions, 3, np.random.default_rng(1), samples)
    assert samples.groups == 4 * 3
    assert len(samples.x) == len(samples.y) == len(samples.hand) == 4 * 3 * players
    assert all(len(row) == WIDTH for row in samples.x)
    per = GUESTS_PER_PLAYER[players]
    for row in samples.x:
        counts = dict(zip(FEATURES, row, strict=True))
        assert counts["gallery"] + counts["rooms"] + counts["steps"] + counts["unplaced"] == per
    # The three positions of a game share its final margins; the winner's is at most 0.
    finals = [tuple(samples.y[i : i + players]) for i in range(0, len(samples.y), players)]
    for game in range(4):
        assert len(set(finals[3 * game : 3 * game + 3])) == 1
        assert min(finals[3 * game]) <= 0 < max(finals[3 * game])


def test_the_script_writes_a_file_the_bot_reads_and_repeats_it(fit_learned: ModuleType, tmp_path: Path) -> None:
    arguments = ["--games", "60", "--seed", "3", "--samples", "2", "--chunk", "10", "--rules", "midnight-party"]
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert fit_learned.main([*arguments, "--out", str(first)]) == 0
    assert fit_learned.main([*arguments, "--out", str(second)]) == 0
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["command"] == "python scripts/fit_learned.py " + " ".join(arguments)
    del a["cpu_seconds"], b["cpu_seconds"]
    assert a == b
    weights = parse_weights(a)
    # Six chunks of 10 games, 2 to 7 players: one round of chunks, none held out.
    assert sorted(weights.models) == [("midnight-party", p) for p in range(2, 8)]
    assert a["held_out"] == {"midnight-party": {}}
    for model in weights.models.values():
        check_constraints(fit_learned, list(model))


def test_the_script_rejects_empty_runs(fit_learned: ModuleType) -> None:
    with pytest.raises(SystemExit):
        fit_learned.main(["--games", "0"])
