"""The documentation: its examples run as written, the site builds, and it stays documentation.

The README and the pages under ``docs/`` are run by ``doctest`` wherever they hold
``>>>`` examples; ``mkdocs build --strict`` builds the site (broken links and anchors are
errors); the rules and the position format are copies of the shared ones; and no page,
nor any docstring or comment under ``src/``, reads as a work log — issue numbers, dates,
commit hashes, sessions — which git history and CHANGELOG.md keep instead.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHARED = ROOT.parent / "shared"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
#: The pages with examples to run; a page given ``>>>`` examples joins by itself.
PAGES_WITH_EXAMPLES = sorted(path.name for path in DOCS.glob("*.md") if ">>> " in path.read_text(encoding="utf-8"))
#: docs/ copies of the shared files, kept identical to them.
COPIES = {"rules.md": "RULES.md", "format.md": "FORMAT.md"}


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 5
    assert result.failed == 0


def test_the_pages_with_examples_are_the_expected_ones() -> None:
    assert {"python-api.md", "tournaments.md"} <= set(PAGES_WITH_EXAMPLES)


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES)
def test_docs_page_examples(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    "module",
    [
        "ghostparty.rules.actions",
        "ghostparty.rules.game",
        "ghostparty.rules.narrate",
        "ghostparty.sim.stats",
        "ghostparty.sim.tournament",
        "ghostparty.tournaments.grouping",
        "ghostparty.tournaments.points",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


# -- the site ---------------------------------------------------------------------------------


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: every page in the nav, every link and anchor found."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs-material is not installed (pip install -e '.[docs]'): the site is not built")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml")]
    result = subprocess.run(
        [*command, "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "performance" / "index.html").is_file()


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(path.name for path in DOCS.glob("*.md"))
    assert [page for page in pages if f" {page}" not in nav] == []


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_the_shared_files_are_copied_unchanged(copy: str) -> None:
    original = SHARED / COPIES[copy]
    if not original.is_file():
        pytest.skip(f"{original} is absent: docs/{copy} is not compared with it")
    assert (DOCS / copy).read_bytes() == original.read_bytes(), f"docs/{copy} differs from {original}: copy it again"


def _markdown() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(DOCS.glob("*.md"))]


def test_nothing_links_outside_the_repository() -> None:
    """A link that leaves the repository (the shared rules' files have their copies here)."""
    outside = re.compile(r"\]\(\.\./|\.\./shared/\w+\.md")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _markdown()
        if path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert found == []


# -- no work log ------------------------------------------------------------------------------

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
#: What a work log leaves behind. A date quoted (``2026-11-26``, "2026-11-26") or followed
#: by a time (2026-11-26T20:00:00Z) is an example of a format, and a month (2026-11) too.
WORK_LOG = re.compile(
    r"\b(?:issue|item)s?\s+#?\d+"  # issue 24, item 5
    r"|\bsessions?\s+\d+|\bthis session\b|\bthe session's (?:start|end)\b"  # session 22, the session's start
    r"|(?<![\w\-`'\"])20\d\d-[01]\d-[0-3]\d\b(?!T\d)"  # 2026-11-27
    rf"|\b\d{{1,2}} (?:{MONTHS}) 20\d\d\b|\b(?:{MONTHS}) \d{{1,2}}, 20\d\d\b"  # 27 November 2026
    r"|\bcommit [0-9a-f]{7,40}\b",  # commit db6ae8e
    re.IGNORECASE,
)
#: ``#12`` as a reference to an issue or pull request, in prose and Python (not CSS colours).
NUMBER_REFERENCE = re.compile(r"(?<![\w&#/{])#\d{1,5}\b")
#: Generated, vendored or data files, and the copies of shared files (their text is not ours).
NOT_CHECKED = {"CHANGELOG.md", "rules.md", "format.md"}
SOURCE_SUFFIXES = {".py", ".js", ".mjs", ".html", ".css", ".md", ".cfg", ".toml", ".yml"}


def _checked_files() -> list[Path]:
    files = [path for path in _markdown() if path.is_file() and path.name not in NOT_CHECKED]
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and ".egg-info" not in str(path):
            files.append(path)
    return files


def _commits() -> set[str]:
    """Every commit's hash in this repository's history (empty where git or the history is missing)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return set()
    result = subprocess.run(
        ["git", "rev-list", "--all"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    return set(result.stdout.split()) if result.returncode == 0 else set()


def test_no_work_log_in_the_docs_or_the_source() -> None:
    """No issue numbers, dates, sessions or commit hashes: say what the code does instead."""
    commits = _commits()
    prefixes = {commit[:7] for commit in commits}
    hexword = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")
    found = []
    for path in _checked_files():
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            hits = [match.group() for match in WORK_LOG.finditer(line)]
            if path.suffix in {".md", ".py"}:
                hits += [match.group() for match in NUMBER_REFERENCE.finditer(line)]
            hits += [
                word
                for word in hexword.findall(line)
                if word[:7] in prefixes and any(commit.startswith(word) for commit in commits)
            ]
            if hits:
                found.append(f"{path.relative_to(ROOT)}:{number}: {hits}")
    assert found == [], "\n".join(found)


def test_the_work_log_check_catches_what_it_should() -> None:
    for line in [
        "as issue 24 asks",
        "(issue 25, item 1)",
        "measured on 2026-11-27",
        "Measured (2026-11-26, this machine)",
        "Score (27 November 2026)",
        "Session 22 profiled",
        "the session's start",
        "the code before (commit db6ae8e)",
    ]:
        assert WORK_LOG.search(line), line
    for line in [
        "2026-11-26T20:00:00Z",
        "ghostparty export --month 2026-11",
        "every session of the account",
        "``2026-11-26``: a time as the files give it",
    ]:
        assert not WORK_LOG.search(line), line
    assert NUMBER_REFERENCE.search("fixed in #12")
    assert not NUMBER_REFERENCE.search("[link](#metrics) and &#39;")
