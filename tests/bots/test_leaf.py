"""The cached learned evaluation (:class:`~ghostparty.bots.leaf.LearnedLeaf`) gives exactly
the floats of the plain one, on random positions of both rule sets and 2-8 players, and
runs compiled only from a build of its current sources."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostparty.bots import _core as leaf_core
from ghostparty.bots.leaf import LearnedLeaf, shifted_chances, win_chances
from ghostparty.bots.learned import learned_estimates
from ghostparty.rules import OVER, RULESETS, Position, apply, legal_actions, start_position


def positions_of(rules: str, players: int, seed: int) -> list[Position]:
    """A random game's positions, and every position one action away from each of them:
    the siblings a search evaluates one after the other."""
    rng = random.Random(seed)
    position = start_position(RULESETS[rules], players, rng.randrange(players))
    found = [position]
    while position.phase != OVER:
        actions = legal_actions(position)
        found.extend(apply(position, action) for action in actions)
        position = apply(position, rng.choice(actions))
    return found


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RULESETS)), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_the_cached_leaf_equals_the_plain_evaluation(rules: str, players: int, seed: int) -> None:
    leaf = LearnedLeaf()
    for position in positions_of(rules, players, seed):
        assert leaf(position) == learned_estimates(position), position.describe()
    assert leaf.reused > 0  # the cache was used, not only filled


def test_a_full_cache_starts_afresh_and_stays_exact() -> None:
    leaf = LearnedLeaf(capacity=50)
    for position in positions_of("hugo", 4, 7):
        assert leaf(position) == learned_estimates(position)
        assert len(leaf._seats) <= 50


# -- the compiled leaf (python -m ghostparty.build_core) ------------------------------------


def test_the_leaf_ci_asked_for_runs() -> None:
    expected = os.environ.get("GHOSTPARTY_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("GHOSTPARTY_EXPECT_COMPILED not set: either leaf may run")
    assert leaf_core.compiled() is (expected == "1"), leaf_core.reason


def _reason(here: Path) -> str:
    """What :func:`leaf_core.why_pure` says for a package folder ``here``."""
    original = leaf_core.HERE
    leaf_core.HERE = here
    try:
        return leaf_core.why_pure()
    finally:
        leaf_core.HERE = original


def test_a_stale_or_missing_build_runs_the_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GHOSTPARTY_PURE", raising=False)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in leaf_core.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n", encoding="utf-8")
    assert _reason(tmp_path).startswith("not built")
    for name in (*leaf_core.COMPILED, leaf_core.LIBRARY):
        (tmp_path / f"{name}{suffix}").write_bytes(b"")
    assert _reason(tmp_path).startswith("no valid _compiled.json")
    digests = {name: hashlib.sha256((tmp_path / f"{name}.py").read_bytes()).hexdigest() for name in leaf_core.COMPILED}
    (tmp_path / "_compiled.json").write_text(json.dumps({"sources": digests}), encoding="utf-8")
    assert _reason(tmp_path) == ""
    (tmp_path / "evaluation.py").write_text("# edited\n", encoding="utf-8")
    assert _reason(tmp_path).startswith("sources changed since the build: evaluation")
    (tmp_path / "_compiled.json").write_text(json.dumps({"sources": {"evaluation": "x"}}), encoding="utf-8")
    assert "does not stamp leaf" in _reason(tmp_path)
    monkeypatch.setenv("GHOSTPARTY_PURE", "1")
    assert _reason(tmp_path) == "GHOSTPARTY_PURE=1"


def test_ghostparty_pure_loads_the_leaf_from_its_source() -> None:
    code = (
        "import ghostparty.bots._core as c, ghostparty.bots.leaf as l; print(c.compiled(), l.__file__.endswith('.py'))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(leaf_core.__file__).parents[2]), "GHOSTPARTY_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["False", "True"]


_VALUES = """
import json, sys
from ghostparty.bots import _core
from tests.bots.test_leaf import positions_of
from ghostparty.bots.evaluation import estimates
from ghostparty.bots.leaf import LearnedLeaf, shifted_chances, win_chances
from ghostparty.bots.learned import learned_estimates
leaf = LearnedLeaf()
out = []
for rules, players, seed in (("hugo", 4, 7), ("midnight-party", 3, 9), ("hugo", 2, 5)):
    for p in positions_of(rules, players, seed)[:400]:
        out.append([estimates(p), learned_estimates(p), leaf(p)])
print(json.dumps({"compiled": _core.compiled(), "values": out}))
"""


def test_the_compiled_bots_modules_give_the_pure_floats() -> None:
    """The hand-made and the learned evaluation and the leaf, as this process runs them
    (compiled where built), against a ``GHOSTPARTY_PURE=1`` process: the same floats."""
    root = str(Path(leaf_core.__file__).parents[3])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(leaf_core.__file__).parents[2]), root])}

    def run(pure: bool) -> dict[str, object]:
        here = {**env, "GHOSTPARTY_PURE": "1"} if pure else {k: v for k, v in env.items() if k != "GHOSTPARTY_PURE"}
        done = subprocess.run([sys.executable, "-c", _VALUES], capture_output=True, text=True, check=True, env=here)
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    as_built, pure = run(pure=False), run(pure=True)
    assert pure["compiled"] is False
    if os.environ.get("GHOSTPARTY_EXPECT_COMPILED") == "1":
        assert as_built["compiled"] is True
    assert as_built["values"] == pure["values"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-60, 60, allow_nan=False), min_size=2, max_size=8),
    st.floats(0, 3, allow_nan=False),
    st.booleans(),
)
def test_the_win_chances_are_the_softmax_of_the_shifted_margins(margins: list[float], beta: float, shift: bool) -> None:
    shifts = tuple(0.25 * (i - 1) for i in range(len(margins))) if shift else ()
    chances, shifted = shifted_chances(margins, shifts, beta)
    expected = [m + s for m, s in zip(margins, shifts, strict=True)] if shift else margins
    assert shifted == tuple(expected)
    assert sum(chances) == pytest.approx(1.0)
    weights = [math.exp(-beta * (m - min(expected))) for m in expected]
    assert chances == pytest.approx([w / sum(weights) for w in weights])
    best = min(range(len(expected)), key=expected.__getitem__)
    assert chances[best] == max(chances)  # the lowest margin wins most
    assert win_chances(expected, beta) == chances
