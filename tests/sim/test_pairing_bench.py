"""``ghostparty bench --pairing``: one Swiss round and one arena pass timed over a field."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ghostparty.cli.main import cli
from ghostparty.sim.pairing_bench import arena_pass, swiss_round


def test_the_swiss_round_is_timed_on_a_field_with_history_and_seats_everyone() -> None:
    result = swiss_round(3, entrants=100, seed=1, rounds_before=2, passes=2)
    assert (result.kind, result.table_size, result.entrants, result.tables) == ("swiss", 3, 100, 33)
    assert result.repeats == 0
    assert len(result.cpu_ms) == len(result.wall_ms) == 2
    assert all(t >= 0 for t in result.cpu_ms)


def test_the_arena_pass_is_timed_over_players_free_again_after_a_game() -> None:
    result = arena_pass(4, entrants=101, seed=1, passes=1)
    assert (result.kind, result.tables, result.repeats) == ("arena", 25, 0)
    assert result.to_dict()["passes"] == 1


def test_the_command_prints_both_passes_per_table_size_as_json() -> None:
    outcome = CliRunner().invoke(cli, ["bench", "--pairing", "--entrants", "60", "--players", "2", "--json"])
    assert outcome.exit_code == 0, outcome.output
    rows = json.loads(outcome.stdout)
    assert [(r["kind"], r["table_size"], r["entrants"]) for r in rows] == [("swiss", 2, 60), ("arena", 2, 60)]
    assert {"median_cpu_ms", "max_cpu_ms", "median_wall_ms", "repeats", "tables"} <= set(rows[0])


def test_the_command_refuses_table_sizes_it_does_not_seat_and_other_benchmarks() -> None:
    outcome = CliRunner().invoke(cli, ["bench", "--pairing", "--players", "5"])
    assert outcome.exit_code == 2
    assert "tournament tables seat 2 to 4 players, got 5" in outcome.output
    outcome = CliRunner().invoke(cli, ["bench", "--pairing", "--bots", "greedy"])
    assert outcome.exit_code == 2
    assert "--pairing times tournament pairing" in outcome.output
