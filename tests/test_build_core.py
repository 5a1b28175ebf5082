"""``python -m ghostparty.build_core``: what it removes and what it says without mypy.

Building for real takes 10 s of CPU and a C compiler; ``.ci/run`` does it once and runs
the rules tests on the result (tests/rules/test_core.py checks the compiled core is used).
"""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest

from ghostparty import build_core


def test_clean_removes_every_compiled_file_and_the_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "ghostparty" / "rules"
    rules.mkdir(parents=True)
    made = [
        rules / "movegen.cpython-311-x86_64-linux-gnu.so",
        rules / "odds.cpython-312-x86_64-linux-gnu.so",  # another interpreter's, or a stale build's
        rules / "_native__mypyc.cpython-311-x86_64-linux-gnu.so",
        rules / "_compiled.json",
    ]
    bots = tmp_path / "ghostparty" / "bots"
    bots.mkdir()
    made += [
        bots / "leaf.cpython-311-x86_64-linux-gnu.so",
        bots / "_native__mypyc.cpython-311-x86_64-linux-gnu.so",
        bots / "_compiled.json",
    ]
    kept = [rules / "movegen.py", bots / "leaf.py", bots / "learned_weights.json"]
    kept.append(tmp_path / "other.cpython-311-x86_64-linux-gnu.so")
    for path in made + kept:
        path.write_bytes(b"")
    monkeypatch.setattr(build_core, "HERE", rules)
    monkeypatch.setattr(build_core, "BOTS", bots)
    assert sorted(build_core.clean()) == sorted(made)
    assert [path for path in made + kept if path.exists()] == kept


def test_the_build_compiles_and_stamps_what_the_leaf_checks() -> None:
    """build_core may not import ghostparty.bots (a layer of its own): its list must match."""
    from ghostparty.bots import _core as leaf_core

    assert build_core.BOTS_COMPILED == leaf_core.COMPILED
    assert build_core.BOTS == leaf_core.HERE
    assert set(build_core.BOTS_COMPILED) <= set(build_core.BOTS_STAMPED)
    assert all((build_core.BOTS / f"{name}.py").is_file() for name in build_core.BOTS_STAMPED)


def test_without_mypyc_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_mypyc(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("mypyc"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mypyc)
    assert build_core.main([]) == 2
    assert "install mypy" in capsys.readouterr().err
