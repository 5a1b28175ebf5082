"""The rules core installs with nothing; the command line says which extra it misses.

The core runs in a virtual environment created here without pip or any other package,
the source put on its path by a ``.pth`` file, as an editable install would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SERVER = [
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "pydantic",
    "orjson",
    "alembic",
    "argon2-cffi",
    "openskill",
    "zxcvbn",
    "prometheus-client",
    "aiosmtplib",
    "email-validator",
    "cryptography",
    "babel",
    "pywebpush",
    "glicko2",
]
#: The extras that ``dev`` (the README's and CI's test install) must pull in.
TESTS_NEED = ["server", "cli", "analysis", "test", "lint", "postgres", "redis", "fast", "rl", "dask", "data", "bot"]
TESTS_NEED += ["docs"]  # mkdocs-material: tests/test_docs.py builds the site


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with the standard library and ghostparty's source, nothing else."""
    folder = tmp_path_factory.mktemp("bare")
    venv.create(folder, with_pip=False, symlinks=os.name != "nt")
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(run(python, "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())
    (site / "ghostparty-source.pth").write_text(f"{ROOT / 'src'}\n", encoding="utf-8")
    return python


def run(python: Path | str, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh, isolated interpreter (no PYTHONPATH, no user site-packages)."""
    return subprocess.run(
        [str(python), "-I", "-c", textwrap.dedent(code), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_package_depends_on_nothing() -> None:
    assert PROJECT["dependencies"] == []
    extras = PROJECT["optional-dependencies"]
    names = {extra: {req.split("[")[0].split(">")[0].split("=")[0] for req in reqs} for extra, reqs in extras.items()}
    assert names["cli"] == {"click", "rich"}
    assert names["server"] == {"ghostparty", *SERVER}
    assert "ghostparty[cli]" in extras["server"]
    (dev,) = extras["dev"]
    assert dev.startswith("ghostparty[") and dev.endswith("]")
    assert set(dev[len("ghostparty[") : -1].split(",")) >= set(TESTS_NEED)


def test_the_core_imports_and_plays_with_the_standard_library_alone(bare_python: Path) -> None:
    result = run(
        bare_python,
        """
        import sys
        from random import Random

        import ghostparty, ghostparty.analysis, ghostparty.bots, ghostparty.rules, ghostparty.sim
        from ghostparty import Game
        from ghostparty.sim.tournament import play_game

        game, rng = Game("hugo", players=3, seed=1), Random(1)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        result = play_game("midnight-party", ["random", "greedy"], seed=2)
        stdlib = {*sys.stdlib_module_names, "__main__", "__mp_main__"}
        foreign = sorted({name.partition(".")[0] for name in sys.modules} - stdlib)
        print(len(game.history), game.winners, result.winners, foreign)
        """,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("['ghostparty']"), result.stdout


def test_the_command_without_the_cli_extra_says_what_to_install(bare_python: Path) -> None:
    """What the console script runs, and ``python -m ghostparty``, where click is missing."""
    module, _, function = PROJECT["scripts"]["ghostparty"].partition(":")
    script = f"import sys; from {module} import {function}; sys.exit({function}())"
    for code in [script, "import runpy; runpy.run_module('ghostparty', run_name='__main__')"]:
        result = run(bare_python, code, "--help")
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert (
            result.stderr == "ghostparty's command line needs: pip install 'ghostparty[cli]' (click is not installed)\n"
        )


@pytest.mark.parametrize(
    "missing",
    [
        {"argon2-cffi": "argon2", "prometheus-client": "prometheus_client", "email-validator": "email_validator"}.get(
            name, name
        )
        for name in SERVER
    ],
)
def test_serve_without_the_server_extra_says_what_to_install(missing: str) -> None:
    """Here click and rich are installed, and the server's packages refused one at a time."""
    pytest.importorskip("click")
    result = run(
        sys.executable,
        f"""
        import sys
        from importlib.abc import MetaPathFinder

        sys.path.insert(0, {str(ROOT / "src")!r})  # this tree's code, not an installed copy's

        class Refuse(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.partition(".")[0] == {missing!r}:
                    raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

        sys.meta_path.insert(0, Refuse())
        sys.argv = ["ghostparty", *sys.argv[1:]]
        from ghostparty.__main__ import main
        main()
        """,
        *["serve", "--database", "not-a-url"],  # should every import succeed: exit 2 at once
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    expected = f"ghostparty's game server needs: pip install 'ghostparty[server]' ({missing} is not installed)\n"
    assert result.stderr.endswith(expected)
