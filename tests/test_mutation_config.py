"""The mutation testing's configuration stays valid (docs/MUTATION.md).

Mutation testing is too slow for CI, so nothing here runs mutmut: these checks only keep
``[tool.mutmut]`` pointing at what exists — the rules core, every module of it, the tests
it runs — and keep mutmut out of the package and out of CI.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PROJECT["tool"]["mutmut"]
RULES = ROOT / "src" / "ghostparty" / "rules"


def test_every_rules_module_is_mutated_and_nothing_else() -> None:
    assert [ROOT / path for path in CONFIG["source_paths"]] == [ROOT / "src"]
    modules = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "src").rglob("*.py"))
    mutated = [m for m in modules if any(fnmatch.fnmatch(m, p) for p in CONFIG["only_mutate"])]
    assert mutated == sorted(str(path.relative_to(ROOT)) for path in RULES.glob("*.py"))
    assert len(mutated) >= 18
    assert not CONFIG.get("do_not_mutate")


def test_the_tests_it_runs_exist() -> None:
    selection = CONFIG["pytest_add_cli_args_test_selection"]
    assert selection
    for path in selection:
        assert (ROOT / path).exists(), f"[tool.mutmut] selects {path}, which does not exist"
    assert "tests/rules" in selection


def test_mutmut_is_a_dev_tool_only() -> None:
    extras = PROJECT["project"]["optional-dependencies"]
    assert any(req.startswith("mutmut") for req in extras["mutation"])
    assert "mutation" in extras["dev"][0]
    for path in (ROOT / "src").rglob("*.py"):
        assert "mutmut" not in path.read_text(encoding="utf-8"), f"{path} mentions mutmut"
    assert "mutmut" not in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/mutants/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_the_mutation_profile_exists() -> None:
    """The command in docs/MUTATION.md runs with HYPOTHESIS_PROFILE=mutation."""
    from hypothesis import settings

    assert settings.get_profile("mutation").max_examples <= 20
    assert "HYPOTHESIS_PROFILE=mutation" in (ROOT / "docs" / "MUTATION.md").read_text(encoding="utf-8")


def _score_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_score", ROOT / "scripts" / "mutation_score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_equivalent_mutant_named_in_the_docs_is_of_a_function_that_exists() -> None:
    """docs/MUTATION.md's list names mutants by module and function (mutmut's names,
    ``x_<function>`` or ``xǁ<class>ǁ<method>``); a renamed function would leave it stale."""
    names = _score_script().equivalents()
    assert len(names) >= 100
    for name in names:
        module, mangled = name.removeprefix("ghostparty.rules.").split(".", 1)
        mangled = mangled.rsplit("__mutmut_", 1)[0]
        source = (RULES / f"{module}.py").read_text(encoding="utf-8")
        if mangled.startswith("xǁ"):
            cls, method = mangled[2:].split("ǁ")
            assert f"class {cls}" in source and f"def {method}(" in source, name
        else:
            assert f"def {mangled.removeprefix('x_')}(" in source, name
