"""The compiled rules core (mypyc) and its pure fallback: which one runs, and why.

CI builds the compiled core (``python -m ghostparty.build_core``) and runs the rules tests
and the golden games again with ``GHOSTPARTY_EXPECT_COMPILED=1``: then
:func:`test_the_core_ci_asked_for_runs` fails unless the compiled modules are the ones in use,
so that run can never test the pure core by accident.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from ghostparty.rules import HUGO_BOARD, HUGO_RULES, MIDNIGHT_PARTY, Game, _core, compiled, describe_core, ruleset

SRC = Path(__file__).resolve().parents[2] / "src"


def _run(code: str, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC), **env},
    )
    return done.stdout.strip()


def test_the_core_ci_asked_for_runs() -> None:
    expected = os.environ.get("GHOSTPARTY_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("GHOSTPARTY_EXPECT_COMPILED not set: either core may run")
    assert compiled() is (expected == "1"), describe_core()


def test_ghostparty_pure_forces_the_pure_core_for_every_module() -> None:
    code = (
        "import sys, ghostparty.rules as r\n"
        "mods = [m for n, m in sys.modules.items() if n.startswith('ghostparty.rules.')]\n"
        "print(r.compiled(), r.describe_core(), all(m.__file__.endswith('.py') for m in mods))\n"
    )
    assert _run(code, GHOSTPARTY_PURE="1") == "False pure Python (GHOSTPARTY_PURE=1) True"


def test_a_compiled_core_is_all_or_nothing() -> None:
    """Never a mix: every compiled module is an extension, or none is."""
    code = (
        "import importlib, ghostparty.rules as r, ghostparty.rules._core as c\n"
        "files = [importlib.import_module('ghostparty.rules.' + n).__file__ for n in c.COMPILED]\n"
        "print(r.compiled(), sorted({f.rsplit('.', 1)[1] for f in files}))\n"
    )
    assert _run(code) in ("True ['so']", "False ['py']")


@pytest.fixture
def fake_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A rules folder with the sources, an extension per compiled module and a valid stamp."""
    for name in _core.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n", encoding="utf-8")
        (tmp_path / f"{name}{_core.importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    monkeypatch.setattr(_core, "HERE", tmp_path)
    monkeypatch.delenv(_core.PURE_VARIABLE, raising=False)
    stamp = {"sources": _core.source_digests()}
    (tmp_path / _core.STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    return tmp_path


def test_a_complete_current_build_may_run(fake_build: Path) -> None:
    assert _core.why_pure() == ""


def test_an_edited_source_falls_back_to_the_pure_core(fake_build: Path) -> None:
    (fake_build / "hugo.py").write_text("# hugo, edited since the build\n", encoding="utf-8")
    assert _core.why_pure().startswith("sources changed since the build: hugo")


def test_a_missing_extension_falls_back_to_the_pure_core(fake_build: Path) -> None:
    next(fake_build.glob("movegen.*.so")).unlink()
    assert _core.why_pure().startswith("incomplete build, no movegen")


def test_an_extension_the_build_did_not_make_falls_back(fake_build: Path) -> None:
    (fake_build / "odds.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert _core.why_pure().startswith("a stale build also compiled odds")


def test_a_build_without_its_stamp_falls_back(fake_build: Path) -> None:
    (fake_build / _core.STAMP).write_text("not json", encoding="utf-8")
    assert _core.why_pure().startswith(f"no valid {_core.STAMP}")


def test_the_variable_wins_over_a_build(fake_build: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_core.PURE_VARIABLE, "1")
    assert _core.why_pure() == "GHOSTPARTY_PURE=1"


def test_no_build_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_core, "HERE", tmp_path)
    monkeypatch.delenv(_core.PURE_VARIABLE, raising=False)
    assert _core.why_pure() == "not built (python -m ghostparty.build_core)"


@pytest.mark.parametrize("value", [HUGO_BOARD, HUGO_BOARD.rooms[4], HUGO_BOARD.paths[3][5], HUGO_RULES, MIDNIGHT_PARTY])
def test_board_data_pickles_and_copies_in_either_core(value: object) -> None:
    """A new object from the same data (mypyc's frozen classes cannot be unpickled by
    setting attributes; the pure ones always came back as copies too)."""
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
        assert type(again) is type(value)
        assert repr(again) == repr(value)


def test_a_rule_set_name_of_the_wrong_type_is_a_value_error() -> None:
    """Compiled functions check their arguments' types; ruleset() must not (input reaches it)."""
    for bad in (None, 3, ["hugo"]):
        with pytest.raises(ValueError, match="unknown rule set"):
            ruleset(bad)


def test_bad_typed_actions_are_illegal_not_type_errors() -> None:
    """A compiled function would raise TypeError reading a field that is not of its type."""
    from ghostparty.rules import IllegalAction, Place

    game = Game("hugo", players=2)
    for action in (Place(12), Place(None)):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="is not a gallery square"):
            game.push(action)
