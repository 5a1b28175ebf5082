"""The measurement scripts in ``scripts/`` still start: each one with a command line
prints its help (it imports every module it needs, its sibling scripts' names included)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
WITH_ARGUMENTS = sorted(path for path in SCRIPTS.glob("*.py") if "argparse" in path.read_text(encoding="utf-8"))


def test_the_scripts_are_found() -> None:
    assert len(WITH_ARGUMENTS) >= 15


@pytest.mark.parametrize("script", WITH_ARGUMENTS, ids=lambda path: path.name)
def test_a_script_prints_its_help(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=SCRIPTS.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
