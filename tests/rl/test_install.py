"""Without the rl extra, ghostparty.rl says what to install; the rules core never needs it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


@pytest.mark.parametrize(
    ("missing", "module", "expected"),
    [
        (
            "pettingzoo",
            "ghostparty.rl",
            "ghostparty.rl needs: pip install 'ghostparty[rl]' (pettingzoo is not installed)",
        ),
        (
            "gymnasium",
            "ghostparty.rl",
            "ghostparty.rl needs: pip install 'ghostparty[rl]' (gymnasium is not installed)",
        ),
        ("pyspiel", "ghostparty.rl.openspiel", "ghostparty.rl.openspiel needs OpenSpiel: pip install open-spiel"),
    ],
)
def test_a_missing_package_is_named(missing: str, module: str, expected: str) -> None:
    code = f"""
        import sys
        from importlib.abc import MetaPathFinder

        class Refuse(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.partition(".")[0] == {missing!r}:
                    raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

        sys.meta_path.insert(0, Refuse())
        import ghostparty.rules
        try:
            import {module}
        except ModuleNotFoundError as error:
            print(error)
        """
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(expected), result.stdout
