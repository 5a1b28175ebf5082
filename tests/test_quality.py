"""Lint and type checks as tests, so that CI's one test command runs them too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    found = str(path) if path.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed: pip install -e '.[lint]'")
    return found


def _run(*command: str) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"


def test_ruff_check() -> None:
    _run(_tool("ruff"), "check", "src", "tests")


def test_ruff_format() -> None:
    _run(_tool("ruff"), "format", "--check", "src", "tests")


def test_mypy_strict() -> None:
    _run(_tool("mypy"))
