"""Test configuration: the shared fixtures, the suites kept apart, and a deterministic
hypothesis profile.

The fixtures that tests in several folders use are plugins in ``tests/fixtures/``,
loaded here for every test (pytest takes ``pytest_plugins`` only from this conftest).

Every test under ``tests/browser`` is marked ``browser`` and every one under
``tests/cluster`` ``cluster``: ``pytest -m "not browser and not cluster"`` runs the
rest, ``pytest -m browser`` the browser tests alone (CONTRIBUTING.md). A test marked
``flaky`` that fails and is run again (pytest-rerunfailures) has the end of its failure
written to the terminal, so a green run still says why it needed the second try.

``ci`` (the default) derandomizes hypothesis so that every run draws the same examples,
and disables the deadline, which a loaded 2-core machine would trip at random. Choose
another profile with ``HYPOTHESIS_PROFILE=dev`` (random, more examples) for a deeper
local search; ``mutation`` (15 examples) is the one the mutation testing runs with.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.fixtures.stores", "tests.fixtures.clients", "tests.fixtures.mail", "tests.fixtures.push"]

TESTS = Path(__file__).resolve().parent
#: The folders whose every test carries a marker of the folder's name (pyproject.toml
#: registers them).
APART = ("browser", "cluster")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test of a suite kept apart with its folder's marker."""
    for item in items:
        path = Path(item.path).resolve()
        if path.is_relative_to(TESTS) and path.relative_to(TESTS).parts[0] in APART:
            item.add_marker(path.relative_to(TESTS).parts[0])


#: How much of a rerun test's failure is written out (its last characters).
RERUN_TAIL = 4000


class RerunReasons:
    """Writes out why a test is run again: pytest-rerunfailures names it, nothing more."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        rerun = str(report.outcome) == "rerun"  # set by pytest-rerunfailures, beyond pytest's own outcomes
        if rerun and reporter is not None:
            reporter.write_line(f"\nRERUN {report.nodeid} ({report.when}):\n{report.longreprtext[-RERUN_TAIL:]}")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(RerunReasons(config), "rerun-reasons")


settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=500,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# Mutation testing (docs/MUTATION.md) runs the rules tests once per mutant: fewer
# examples, still derandomized, so that a run ends in an hour on two cores.
settings.register_profile(
    "mutation",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=15,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
