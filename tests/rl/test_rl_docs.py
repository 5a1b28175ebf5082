"""The examples in ghostparty.rl's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")


@pytest.mark.parametrize(
    "module", ["ghostparty.rl.actions", "ghostparty.rl.aec", "ghostparty.rl.gym_env", "ghostparty.rl.openspiel"]
)
def test_docstring_examples(module: str) -> None:
    if module.endswith("openspiel"):
        pytest.importorskip("pyspiel", reason="open-spiel is not installed: pip install open-spiel")
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
