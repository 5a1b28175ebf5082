"""How ``rules._core`` chooses between the compiled and the pure core, in this process.

``test_core.py`` checks the choice in fresh interpreters; these tests call the pieces
directly — the finder that loads a rules module from its ``.py`` file, ``choose``,
``compiled``, ``describe_core`` and the exact reasons ``why_pure`` gives.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from ghostparty.rules import _core

SUFFIX = _core.importlib.machinery.EXTENSION_SUFFIXES[0]
BUILD = "(python -m ghostparty.build_core)"


def test_the_finder_loads_a_rules_module_from_its_source() -> None:
    spec = _core._FINDER.find_spec("ghostparty.rules.movegen")
    assert spec is not None
    assert spec.name == "ghostparty.rules.movegen"
    assert spec.origin == str(_core.HERE / "movegen.py")
    assert spec.loader is not None


@pytest.mark.parametrize(
    "name",
    [
        "ghostparty.bots.movegen",  # another package, though rules/ has a movegen.py
        "movegen",
        "ghostparty.rules.nothing",  # no such source
        "ghostparty.rules",
    ],
)
def test_the_finder_leaves_every_other_module_alone(name: str) -> None:
    assert _core._FINDER.find_spec(name) is None


def test_choose_puts_the_finder_first_once_when_the_pure_core_must_run(monkeypatch: pytest.MonkeyPatch) -> None:
    path = [entry for entry in sys.meta_path if entry is not _core._FINDER]
    monkeypatch.setattr(sys, "meta_path", list(path))
    monkeypatch.setenv(_core.PURE_VARIABLE, "1")
    assert _core.choose() == "GHOSTPARTY_PURE=1"
    assert sys.meta_path[0] is _core._FINDER
    assert _core.choose() == "GHOSTPARTY_PURE=1"
    assert sys.meta_path.count(_core._FINDER) == 1
    assert sys.meta_path[1:] == path


def test_choose_adds_no_finder_when_the_compiled_core_may_run(monkeypatch: pytest.MonkeyPatch) -> None:
    path = [entry for entry in sys.meta_path if entry is not _core._FINDER]
    monkeypatch.setattr(sys, "meta_path", list(path))
    monkeypatch.setattr(_core, "why_pure", lambda: "")
    assert _core.choose() == ""
    assert sys.meta_path == path


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        ("/x/movegen.cpython-311-x86_64-linux-gnu.so", True),
        ("/x/movegen.py", False),
        (None, True),
    ],  # no source file: not the pure core
)
def test_compiled_looks_at_the_loaded_movegen(
    file: str | None, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = types.ModuleType("ghostparty.rules.movegen")
    module.__file__ = file
    monkeypatch.setitem(sys.modules, "ghostparty.rules.movegen", module)
    assert _core.compiled() is expected


def test_compiled_without_movegen_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "ghostparty.rules.movegen")
    assert _core.compiled() is False


def test_describe_core_says_which_and_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_core, "compiled", lambda: True)
    assert _core.describe_core() == "compiled (mypyc)"
    monkeypatch.setattr(_core, "compiled", lambda: False)
    monkeypatch.setattr(_core, "reason", "GHOSTPARTY_PURE=1")
    assert _core.describe_core() == "pure Python (GHOSTPARTY_PURE=1)"
    monkeypatch.setattr(_core, "reason", "")
    assert _core.describe_core() == "pure Python (unknown)"


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A rules folder with the sources, an extension per compiled module and a valid stamp."""
    for name in _core.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name} é\n", encoding="utf-8")
        (tmp_path / f"{name}{SUFFIX}").write_bytes(b"")
    monkeypatch.setattr(_core, "HERE", tmp_path)
    monkeypatch.setenv(_core.PURE_VARIABLE, "0")  # set, but not to 1
    stamp = {"sources": _core.source_digests()}
    (tmp_path / _core.STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    return tmp_path


def test_a_current_build_may_run_whatever_else_the_variable_says(build: Path) -> None:
    assert _core.why_pure() == ""
    assert _core.extension_path("hugo") == build / f"hugo{SUFFIX}"


def test_the_exact_reasons_for_the_pure_core(build: Path) -> None:
    (build / f"hugo{SUFFIX}").unlink()
    (build / f"turns{SUFFIX}").unlink()
    assert _core.why_pure() == f"incomplete build, no turns, hugo {BUILD}"
    (build / f"hugo{SUFFIX}").write_bytes(b"")
    (build / f"turns{SUFFIX}").write_bytes(b"")
    (build / "odds.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (build / "notation.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (build / f"{_core.LIBRARY}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert _core.why_pure() == f"a stale build also compiled notation, odds {BUILD}"
    (build / "odds.cpython-311-x86_64-linux-gnu.so").unlink()
    (build / "notation.cpython-311-x86_64-linux-gnu.so").unlink()
    (build / "hugo.py").write_text("# hugo, edited\n", encoding="utf-8")
    (build / "board.py").write_text("# board, edited\n", encoding="utf-8")
    assert _core.why_pure() == f"sources changed since the build: board, hugo {BUILD}"
    for stamp in ("[]", '{"other": {}}', "not json"):
        (build / _core.STAMP).write_text(stamp, encoding="utf-8")
        assert _core.why_pure() == f"no valid {_core.STAMP} {BUILD}"
    (build / _core.STAMP).unlink()
    assert _core.why_pure() == f"no valid {_core.STAMP} {BUILD}"
