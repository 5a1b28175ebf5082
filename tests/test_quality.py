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


#: The longest a module of the package may be without saying at its top why (issue 24).
MAX_LINES = 400


def test_no_module_is_over_400_lines_without_a_reason_at_its_top() -> None:
    package = ROOT / "src" / "ghostparty"
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 100, f"expected the package's modules under {package}"
    long = []
    for path in modules:
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_LINES and "Over 400 lines:" not in "\n".join(lines[:40]):
            long.append(f"{path.relative_to(package)} ({len(lines)} lines)")
    assert not long, f"split these by job, or say why at the top ('Over 400 lines: …'): {', '.join(long)}"


#: Files every test folder may have: a package's marker and pytest's fixtures.
PER_FOLDER = frozenset({"__init__.py", "conftest.py"})


def duplicate_test_names(folder: Path) -> dict[str, list[str]]:
    """The names of test files and test helpers that more than one file under ``folder``
    has (``__init__.py`` and ``conftest.py`` aside), with where."""
    where: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        if path.name not in PER_FOLDER:
            where.setdefault(path.name, []).append(str(path.parent.relative_to(folder)))
    return {name: folders for name, folders in where.items() if len(folders) > 1}


def test_no_two_test_files_share_a_name() -> None:
    """A test file's name says what it tests, so no two are alike: a second test of one
    thing says what differs (``test_quickmatch_service.py``, ``test_quickmatch_routes.py``);
    likewise a helper module's."""
    tests = ROOT / "tests"
    assert len(list(tests.rglob("test_*.py"))) > 150, f"expected the test files under {tests}"
    duplicates = duplicate_test_names(tests)
    assert not duplicates, "rename these by what each tests: " + "; ".join(
        f"{name} in {', '.join(folders)}" for name, folders in duplicates.items()
    )
