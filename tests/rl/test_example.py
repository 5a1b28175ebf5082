"""examples/reinforce.py runs as docs/RL.md says (here with a tiny budget)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "reinforce.py"


def test_the_training_example_trains_and_reports_win_rates() -> None:
    command = [sys.executable, str(EXAMPLE), "--rules", "midnight-party", "--players", "3", "--episodes", "10"]
    result = subprocess.run([*command, "--eval", "2"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "midnight-party, 3 players; fair share 33.3%" in out
    assert "trained on 10 games" in out
    rows = re.findall(r"^  (untrained \(uniform\)|trained) +vs (random|greedy) +[\d.]+% \[", out, re.MULTILINE)
    assert rows == [(label, bot) for label in ("untrained (uniform)", "trained") for bot in ("random", "greedy")]
    assert re.search(r"^ +[+-]\d+\.\d\d  \w", out.split("weights:")[1], re.MULTILINE)  # some weight moved off 0
