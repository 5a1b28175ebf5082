"""Dependencies point one way (docs/ARCHITECTURE.md, STYLE.md principle 1).

The layers themselves are import-linter's contracts (``[tool.importlinter]`` in
pyproject.toml), run here. What they can't say is checked by parsing every module with
:mod:`ast` (so an import inside a function or under ``TYPE_CHECKING`` counts too):
``ghostparty.rules`` imports only the standard library and itself; so does
``ghostparty.tournaments``, which reads no clock either.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ghostparty"
RULES = PACKAGE / "rules"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """Every module ``path`` imports, made absolute, with its line number, in source order.

    ``module`` is the file's dotted name (derived from its place under ``src/`` by default),
    needed to resolve relative imports.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return sorted(found)


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_the_rules_core_has_modules() -> None:
    names = {path.stem for path in _modules(RULES)}
    assert {"board", "rulesets", "actions", "position", "movegen", "transition", "notation", "game"} <= names


@pytest.mark.parametrize("path", _modules(RULES), ids=lambda p: p.name)
def test_rules_import_only_the_standard_library(path: Path) -> None:
    bad = []
    for line, name in imports(path):
        top = name.split(".")[0]
        if top == "ghostparty":
            if not (name == "ghostparty.rules" or name.startswith("ghostparty.rules.")):
                bad.append(f"line {line}: {name} (an outer layer)")
        elif top != "__future__" and top not in sys.stdlib_module_names:
            bad.append(f"line {line}: {name} (not in the standard library)")
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports: " + "; ".join(bad)


@pytest.mark.parametrize("path", _modules(PACKAGE / "tournaments"), ids=lambda p: p.name)
def test_the_tournament_engine_imports_only_the_standard_library_and_reads_no_clock(path: Path) -> None:
    """Pairing and scoring are pure: times come in as arguments, randomness as a seeded RNG."""
    bad = []
    for line, name in imports(path):
        top = name.split(".")[0]
        if top == "ghostparty":
            if not name.startswith("ghostparty.tournaments"):
                bad.append(f"line {line}: {name} (another layer)")
        elif top in ("time", "datetime", "asyncio", "os", "socket", "threading"):
            bad.append(f"line {line}: {name} (a clock or I/O)")
        elif top != "__future__" and top not in sys.stdlib_module_names:
            bad.append(f"line {line}: {name} (not in the standard library)")
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports: " + "; ".join(bad)


def test_the_tournament_engine_has_modules() -> None:
    names = {path.stem for path in _modules(PACKAGE / "tournaments")}
    assert {"arena", "swiss", "grouping", "points", "codec", "errors"} <= names


def test_the_import_contracts_hold() -> None:
    """The layers and the forbidden imports of ``[tool.importlinter]`` in pyproject.toml: the
    outer layers (rules ← bots ← sim ← server ← cli), the server's packages one way, the
    inner layers free of the server and its libraries, nothing below the server's HTTP edge
    speaking HTTP."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    if not lint_imports.exists():
        pytest.fail(f"import-linter is not installed beside {sys.executable}: pip install 'ghostparty[lint]'")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PACKAGE.parent), os.environ.get("PYTHONPATH")])),
    }
    result = subprocess.run(
        [str(lint_imports), "--no-cache"],
        cwd=PACKAGE.parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    """The parser finds plain, from, relative and nested imports (or the tests above prove nothing)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import os\nfrom . import board\nfrom ..cli import main\ndef f():\n    import numpy\n", encoding="utf-8"
    )
    names = [name for _, name in imports(probe, "ghostparty.rules.probe")]
    assert names == ["os", "ghostparty.rules", "ghostparty.cli", "numpy"]
