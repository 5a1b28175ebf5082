"""``ghostparty bench`` and ``ghostparty analyze`` on the compiled simulator, and their
fallback to the typed engine, with a message, where numba is missing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

pytest.importorskip("numba", reason="the compiled simulator needs numba: pip install 'ghostparty[fast]'")

from ghostparty import fast
from ghostparty.cli.main import cli


def run(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "200"}).invoke(cli, list(args), catch_exceptions=False)


def test_bench_times_the_compiled_simulator_apart_from_its_compile_time() -> None:
    result = run(
        "bench", "--rules", "hugo", "--players", "4", "--interface", "compiled", "--compiled-games", "2000", "--json"
    )
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert (row["interface"], row["games"], row["jobs"]) == ("compiled", 2000, 1)
    assert row["actions_per_game"] > 16  # 16 placements, then turns
    assert row["cpu_us_per_action"] > 0 and row["cpu_games_per_second"] > 0
    assert row["compile_seconds"] >= 0 and isinstance(row["from_cache"], bool)


def test_bench_table_shows_cpu_time_per_action() -> None:
    result = run(
        "bench", "--rules", "midnight-party", "--players", "2", "--games", "2", "--compiled-games", "500", "--jobs", "2"
    )
    assert result.exit_code == 0, result.output
    assert "compiled simulator ready in" in result.output
    assert "compiled ×2" in result.output and "CPU µs/action" in result.output and "json" in result.output


def test_bench_without_numba_times_the_typed_engine_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "available", lambda: False)
    result = run("bench", "--rules", "hugo", "--players", "2", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    assert "pip install 'ghostparty[fast]'" in result.stderr
    assert [row["interface"] for row in json.loads(result.stdout)] == ["fast", "json"]
    result = run("bench", "--interface", "compiled")
    assert result.exit_code == 1 and "numba" in result.output


def test_analyze_squares_uses_the_compiled_simulator_for_random_play() -> None:
    result = run("analyze", "squares", "--games", "3000", "--jobs", "1", "--json", "--no-progress", "--seed", "4")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["engine"], data["games"]) == ("compiled", 3000)
    assert sum(s["samples"] for s in data["squares"]) == 3000 * 16
    assert all(0 <= s["capture_probability"] <= 1 for s in data["squares"])


def test_analyze_picks_the_engine_that_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run("analyze", "seats", "--bot", "greedy", "--games", "2", "--jobs", "1", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["engine"] == "typed"
    result = run("analyze", "seats", "--bot", "greedy", "--engine", "compiled", "--games", "2")
    assert result.exit_code == 1 and "random bot only" in result.output
    monkeypatch.setattr(fast, "available", lambda: False)
    result = run("analyze", "seats", "--games", "4", "--jobs", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "pip install 'ghostparty[fast]'" in result.output and "(typed engine)" in result.output
