"""``ghostparty bench``: the engine's games per second, and think time per bot level."""

from __future__ import annotations

import json
from random import Random
from typing import ClassVar

import pytest
from click.testing import CliRunner, Result

from ghostparty.bots import base as bot_registry
from ghostparty.cli.main import cli
from ghostparty.rules import HUGO_RULES, MIDNIGHT_PARTY, MOVE, Action, Position, legal_actions
from ghostparty.sim.bench import bench
from ghostparty.sim.thinktime import ThinkTime, decision_positions, think_time


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["bench", *args])


def test_the_engine_bench_counts_its_games_and_actions() -> None:
    result = bench(HUGO_RULES, 3, "fast", 5, seed=2)
    assert (result.rules, result.players, result.games) == ("hugo", 3, 5)
    # A hugo game places 5 guests per player and rolls at least once per turn.
    assert result.actions > 5 * 3
    assert result.seconds > 0
    assert result.games_per_second == pytest.approx(5 / result.seconds)
    # Same seed, same games: the JSON interface plays them action for action.
    assert bench(HUGO_RULES, 3, "json", 5, seed=2).actions == result.actions


def test_the_decision_positions_are_the_real_choices_of_seeded_greedy_games() -> None:
    positions = decision_positions(MIDNIGHT_PARTY, 4, 2, seed=5)
    assert positions
    assert all(p.phase == MOVE and len(legal_actions(p)) > 1 for p in positions)
    assert all((p.ruleset.id, p.players) == ("midnight-party", 4) for p in positions)
    assert decision_positions(MIDNIGHT_PARTY, 4, 2, seed=5) == positions
    assert decision_positions(MIDNIGHT_PARTY, 4, 2, seed=6) != positions
    with pytest.raises(ValueError, match="games must be at least 1"):
        decision_positions(MIDNIGHT_PARTY, 4, 0)


class _Counting:
    """A bot that remembers what it was asked (registered for one test)."""

    name = "counting"
    asked: ClassVar[list[Position]] = []

    def choose(self, position: Position, rng: Random) -> Action:
        _Counting.asked.append(position)
        return legal_actions(position)[-1]


def test_every_bot_is_timed_once_on_every_position(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bot_registry._REGISTRY, "counting", _Counting)
    _Counting.asked = []
    positions = decision_positions(HUGO_RULES, 2, 1, seed=1)
    ticks: list[None] = []
    result = think_time("counting", positions, on_decision=lambda: ticks.append(None))
    assert _Counting.asked == positions
    assert len(ticks) == result.decisions == len(positions)
    assert (result.bot, result.rules, result.players) == ("counting", "hugo", 2)
    assert all(t >= 0 for t in result.times_ms)


def test_the_summary_reads_the_measured_times() -> None:
    result = ThinkTime("greedy", "hugo", 2, (5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0))
    assert result.median_ms == 5.5
    assert result.p90_ms == 9.0  # the nearest rank: a time that was measured
    assert result.max_ms == 10.0
    assert result.mean_ms == 5.5
    assert result.to_dict() == {
        "bot": "greedy",
        "rules": "hugo",
        "players": 2,
        "decisions": 10,
        "median_ms": 5.5,
        "p90_ms": 9.0,
        "max_ms": 10.0,
        "mean_ms": 5.5,
    }
    with pytest.raises(ValueError, match="no positions"):
        think_time("greedy", [])


def test_bench_bots_prints_one_row_per_bot_and_setting_as_json() -> None:
    result = run(
        "--bots", "random,greedy", "--rules", "hugo", "--players", "2", "--players", "3", "--games", "1", "--json"
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["bot"], r["rules"], r["players"]) for r in rows] == [
        ("random", "hugo", 2),
        ("greedy", "hugo", 2),
        ("random", "hugo", 3),
        ("greedy", "hugo", 3),
    ]
    # Both bots were timed on the same positions of the same setting.
    assert rows[0]["decisions"] == rows[1]["decisions"] > 0
    assert all(r["median_ms"] <= r["p90_ms"] <= r["max_ms"] for r in rows)


def test_bench_bots_draws_a_table() -> None:
    result = run("--bots", "greedy", "--rules", "midnight-party", "--players", "2", "--games", "1")
    assert result.exit_code == 0, result.output
    assert "think time per move decision" in result.output
    assert "midnight-party" in result.output and "median ms" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "grumpy"), "unknown bot 'grumpy'"),
        (("--bots", "greedy", "--interface", "json"), "not bots"),
        (("--bots", "greedy", "--games", "0"), "must be at least 1"),
        (("--games", "0"), "must be at least 1"),
    ],
)
def test_bench_rejects_bad_options_with_a_message(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


def test_the_engine_bench_prints_json() -> None:
    result = run("--rules", "hugo", "--players", "2", "--interface", "fast", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert (row["rules"], row["players"], row["interface"], row["games"]) == ("hugo", 2, "fast", 3)
    assert row["games_per_second"] > 0
