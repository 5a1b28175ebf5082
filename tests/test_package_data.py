"""Every file the package reads at run time is installed with it: each file of
``src/ghostparty`` that is not Python matches a pattern of pyproject.toml's package data
(an installed server without them would miss its pages, weights or migrations, and
``ghostparty i18n`` its catalogs)."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ghostparty"


def _tracked_data_files() -> set[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "src/ghostparty"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return {str(Path(name).relative_to("src/ghostparty")) for name in listed if not name.endswith(".py")}


def test_every_data_file_of_the_package_is_installed_with_it() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["ghostparty"]
    installed = {
        str(path.relative_to(PACKAGE)) for pattern in patterns for path in PACKAGE.glob(pattern) if path.is_file()
    }
    missing = sorted(_tracked_data_files() - installed)
    assert not missing, f"files of the package that pyproject.toml's package-data leaves out: {missing}"


def test_the_translators_catalogs_are_among_them() -> None:
    catalogs = {name for name in _tracked_data_files() if name.startswith("web/locale/")}
    assert "web/locale/ghostparty.pot" in catalogs
    assert "web/locale/de/LC_MESSAGES/ghostparty.po" in catalogs
