"""The examples in the README and in docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 5
    assert result.failed == 0


@pytest.mark.parametrize(
    "module",
    [
        "ghostparty.rules.actions",
        "ghostparty.rules.game",
        "ghostparty.rules.narrate",
        "ghostparty.sim.stats",
        "ghostparty.sim.tournament",
        "ghostparty.tournaments.grouping",
        "ghostparty.tournaments.points",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0
