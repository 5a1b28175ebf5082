"""``--dask``: games spread over a Dask cluster give the local run's results for the same seed.

The cluster is a ``LocalCluster`` of two worker processes (one thread each), started
once for the module; its workers import ``ghostparty`` afresh, so only built-in bots play.
Skipped, saying so, where Dask's distributed scheduler is not installed.
"""

from __future__ import annotations

import importlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ghostparty.analysis.position import analyze_position
from ghostparty.analysis.simulate import Settings, simulate
from ghostparty.cli.main import cli
from ghostparty.rules import HUGO_RULES, apply, legal_actions, position_to_dict, start_position
from ghostparty.sim import parallel
from ghostparty.sim.parallel import DASK_HINT, ParallelError, workers
from ghostparty.sim.tournament import TournamentConfig, run_tournament

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed scheduler is not installed: pip install 'ghostparty[dask]'"
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-worker local cluster's scheduler."""
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def tournament(*args: str) -> Result:
    return CliRunner().invoke(cli, ["tournament", *args], catch_exceptions=False)


def analyze(*args: str) -> Result:
    return CliRunner().invoke(cli, ["analyze", *args], catch_exceptions=False)


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "jobs", "bots")} | {
        "bots": [{k: v for k, v in bot.items() if k != "ms_per_decision"} for bot in data["bots"]]
    }


def test_a_tournament_on_the_cluster_plays_the_local_games(scheduler: str) -> None:
    for duplicate in (False, True):
        config = TournamentConfig("hugo", ("greedy", "random", "random"), games=24, seed=5, duplicate=duplicate)
        seen: list[int] = []
        spread = run_tournament(config, dask=scheduler, progress=seen.append)
        assert spread == run_tournament(config, jobs=1)
        assert sum(seen) == 24
        assert spread.jobs == 2  # two workers of one thread each


def test_tournament_command_with_dask(scheduler: str, tmp_path: Path) -> None:
    args = ("--bots", "greedy,random", "--games", "16", "--seed", "3", "--json", "--no-progress")
    spread = tournament(*args, "--dask", scheduler, "--csv", str(tmp_path / "dask.csv"))
    local = tournament(*args, "--jobs", "1", "--csv", str(tmp_path / "local.csv"))
    assert spread.exit_code == 0 and local.exit_code == 0, spread.output + local.output
    assert _without_timing(json.loads(spread.stdout)) == _without_timing(json.loads(local.stdout))
    assert f"Dask worker thread(s) at {scheduler}" in spread.stderr

    def games(name: str) -> list[list[str]]:  # the CSV without its think-time columns
        return [row.split(",")[:-4] for row in (tmp_path / name).read_text(encoding="utf-8").splitlines()]

    assert games("dask.csv") == games("local.csv")
    both = tournament(*args, "--dask", scheduler, "--jobs", "2")
    assert both.exit_code == 2 and "--jobs and --dask: give one" in both.output


@pytest.mark.parametrize("subcommand", ["seats", "squares"])
def test_analyze_on_the_cluster_gives_the_local_numbers(scheduler: str, subcommand: str) -> None:
    args = (
        subcommand,
        "--players",
        "3",
        "--games",
        "30",
        "--seed",
        "8",
        "--engine",
        "typed",
        "--json",
        "--no-progress",
    )
    spread = analyze(*args, "--dask", scheduler)
    local = analyze(*args, "--jobs", "1")
    assert spread.exit_code == 0 and local.exit_code == 0, spread.output + local.output
    assert json.loads(spread.stdout) == json.loads(local.stdout)
    settings = Settings("midnight-party", 3, "greedy", "uniform", "game", 12, seed=2)
    assert simulate(settings, dask=scheduler).tally == simulate(settings, jobs=1).tally


def test_position_odds_on_the_cluster_are_the_local_odds(scheduler: str, tmp_path: Path) -> None:
    position = start_position(HUGO_RULES, 2)
    while position.phase == "place":
        position = apply(position, legal_actions(position)[0])
    spread = analyze_position(position, games=6, bot="random", seed=4, dask=scheduler)
    assert spread.outcomes == analyze_position(position, games=6, bot="random", seed=4, jobs=1).outcomes
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_dict(position)), encoding="utf-8")
    args = ("position", str(path), "--games-per-move", "4", "--json", "--no-progress")
    on_cluster = analyze(*args, "--dask", scheduler)
    assert on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(on_cluster.stdout) == json.loads(analyze(*args, "--jobs", "1").stdout)


def test_the_compiled_simulator_on_the_cluster_gives_its_local_numbers(scheduler: str) -> None:
    pytest.importorskip("numba", reason="the compiled simulator needs numba: pip install 'ghostparty[fast]'")
    args = ("seats", "--players", "4", "--games", "2000", "--seed", "1", "--engine", "compiled", "--json")
    spread = analyze(*args, "--no-progress", "--dask", scheduler)
    assert spread.exit_code == 0, spread.output
    assert json.loads(spread.stdout) == json.loads(analyze(*args, "--no-progress", "--jobs", "1").stdout)


def test_puzzles_mined_on_the_cluster_are_the_local_puzzles(scheduler: str, tmp_path: Path) -> None:
    """``puzzles mine --dask``: a server's stored games (their records sent to the workers)
    and fresh bot games give the puzzles the local run finds, in the same order."""
    from tests.fixtures.tables import finished_games

    database = tmp_path / "games.db"
    finished_games(f"sqlite:///{database}", 2)
    fast = ("--rollouts", "6", "--cut", "1", "--no-progress", "--seed", "2")
    for source in (("--database", str(database)), ("--games", "2", "--bots", "learned,greedy")):
        spread, local = tmp_path / "dask.json", tmp_path / "local.json"
        on_cluster = CliRunner().invoke(
            cli, ["puzzles", "mine", *source, *fast, "--out", str(spread), "--dask", scheduler]
        )
        assert on_cluster.exit_code == 0, on_cluster.output
        assert f"on 2 Dask worker threads at {scheduler}" in on_cluster.output
        here = CliRunner().invoke(cli, ["puzzles", "mine", *source, *fast, "--out", str(local), "--jobs", "1"])
        assert here.exit_code == 0, here.output
        found = json.loads(spread.read_text(encoding="utf-8"))
        assert found["puzzles"] and found == json.loads(local.read_text(encoding="utf-8"))
    both = CliRunner().invoke(cli, ["puzzles", "mine", "--out", str(spread), "--dask", scheduler, "--jobs", "2"])
    assert both.exit_code == 2 and "--jobs and --dask: give one" in both.output


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    with (
        pytest.raises(ParallelError, match=rf"no Dask scheduler answered at '{address}' within 0.5 s"),
        workers(dask=address, timeout=0.5),
    ):
        pass


def test_without_dask_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> Any:
        if name == "distributed":
            raise ModuleNotFoundError("No module named 'distributed'")
        return real(name, package)

    monkeypatch.setattr(parallel.importlib, "import_module", missing)
    with pytest.raises(ParallelError, match=r"pip install 'ghostparty\[dask\]'"), workers(dask="tcp://nowhere:8786"):
        pass
    result = tournament("--bots", "random", "--games", "2", "--dask", "tcp://nowhere:8786")
    assert result.exit_code == 1 and DASK_HINT in result.output
    result = analyze("seats", "--games", "2", "--dask", "tcp://nowhere:8786")
    assert result.exit_code == 1 and DASK_HINT in result.output
    result = CliRunner().invoke(cli, ["puzzles", "mine", "--games", "1", "--out", "-", "--dask", "tcp://nowhere:8786"])
    assert result.exit_code == 1 and DASK_HINT in result.output
